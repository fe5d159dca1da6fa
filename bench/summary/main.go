// Command summary prints the verdicts the bench programs appended to one
// file as a single table: path, Vigil, baseline, ratio, goal, met. make
// bench runs it after bench/load and bench/flows.
//
// Usage:
//
//	go run ./bench/summary FILE
package main

import (
	"fmt"
	"os"

	"github.com/vigil-soc/vigil/bench/internal/verdict"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: summary FILE (the verdicts bench/load and bench/flows appended)")
		os.Exit(2)
	}
	vs, err := verdict.Read(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "summary:", err)
		os.Exit(1)
	}
	met, judged := 0, 0
	for _, v := range vs {
		switch v.Met {
		case "yes":
			met++
			judged++
		case "no":
			judged++
		}
	}
	fmt.Printf("\n## Summary: every path beside its baseline\n\n")
	verdict.Print(os.Stdout, vs)
	fmt.Printf("\n%d of %d goals judged in this run met", met, judged)
	if open := len(vs) - judged; open > 0 {
		fmt.Printf("; %d %s without a goal or not judged here", open, plural(open, "line", "lines"))
	}
	fmt.Println(".")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
