// Package verdict holds the lines of the benchmarks' summary: a Vigil path
// beside its baseline, the goal it is held to and whether it met it. The
// bench programs print their own lines and append them to one file, so a
// whole `make bench` ends in a single table (see bench/summary).
package verdict

import (
	"fmt"
	"io"
	"strings"
)

// None fills a column that has nothing to say: no baseline, no goal, or
// a goal not judged.
const None = "—"

// Verdict is one line of the summary.
type Verdict struct {
	Path     string `json:"path"`
	Vigil    string `json:"vigil"`
	Baseline string `json:"baseline"`
	// Ratio is Vigil over the baseline in what RatioOf names; zero when
	// the path has no baseline to divide by.
	Ratio   float64 `json:"ratio,omitempty"`
	RatioOf string  `json:"ratio_of,omitempty"`
	Goal    string  `json:"goal"`
	// Met is yes, no, or None with the reason it was not judged.
	Met string `json:"met"`
}

// What a ratio compares.
const (
	OfP99        = "p99"
	OfThroughput = "per s"
	OfStep       = "per step"
)

// AtMost is a verdict whose ratio must stay at or below goal; a zero goal
// sets none.
func AtMost(path, vigil, baseline string, ratio float64, of string, goal float64) Verdict {
	v := Verdict{Path: path, Vigil: vigil, Baseline: baseline, Ratio: ratio, RatioOf: of, Goal: None, Met: None}
	if goal > 0 {
		v.Goal, v.Met = fmt.Sprintf("≤ %.2f×", goal), YesNo(ratio > 0 && ratio <= goal)
	}
	return v
}

// AtLeast is a verdict whose ratio must reach goal; a zero goal sets none.
func AtLeast(path, vigil, baseline string, ratio float64, of string, goal float64) Verdict {
	v := Verdict{Path: path, Vigil: vigil, Baseline: baseline, Ratio: ratio, RatioOf: of, Goal: None, Met: None}
	if goal > 0 {
		v.Goal, v.Met = fmt.Sprintf("≥ %.2f×", goal), YesNo(ratio >= goal)
	}
	return v
}

// YesNo is the met column of a goal that was judged.
func YesNo(met bool) string {
	if met {
		return "yes"
	}
	return "no"
}

// NotJudged is the met column of a goal this run cannot judge, with the
// reason, e.g. a seed smaller than the goal is stated at.
func NotJudged(reason string) string { return None + " (" + reason + ")" }

// ratioText renders v's ratio with at least two significant digits, so a path
// at a hundredth of its baseline does not print as 0.00×.
func (v Verdict) ratioText() string {
	if v.Ratio <= 0 {
		return None
	}
	decimals := 2
	for r := v.Ratio; r < 0.1 && decimals < 6; r *= 10 {
		decimals++
	}
	s := fmt.Sprintf("%.*f×", decimals, v.Ratio)
	if v.RatioOf != "" {
		s += " " + v.RatioOf
	}
	return s
}

// Print writes vs as one Markdown table.
func Print(w io.Writer, vs []Verdict) {
	fmt.Fprintln(w, "| path | Vigil | baseline | ratio | goal | met |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|")
	for _, v := range vs {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s |\n", cell(v.Path), cell(v.Vigil), cell(v.Baseline),
			v.ratioText(), cell(v.Goal), cell(v.Met))
	}
}

// cell keeps a value inside its table cell.
func cell(s string) string {
	if s == "" {
		return None
	}
	return strings.ReplaceAll(s, "|", `\|`)
}
