package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/vigil-soc/vigil/triage"
	"github.com/vigil-soc/vigil/triage/eval"
)

const triageUsage = "usage: vigil triage eval DIR [--json] [--verbose]"

// runTriage dispatches the triage subcommands; eval is the only one.
func runTriage(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "eval" {
		return errors.New(triageUsage)
	}
	return runTriageEval(ctx, args[1:])
}

// runTriageEval scores the built-in analyzer on a directory of labelled
// cases, offline, with the simulated threat intelligence the service uses
// when no subscription is configured. Flags may come before or after DIR;
// the JSON report always lists the wrong cases.
func runTriageEval(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("triage eval", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	verbose := fs.Bool("verbose", false, "list every wrong case with the analyzer's reasoning")
	var dirs []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() == 0 {
			break
		}
		dirs = append(dirs, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(dirs) != 1 {
		return errors.New(triageUsage)
	}
	cases, err := eval.Load(dirs[0])
	if err != nil {
		return fmt.Errorf("load cases: %w", err)
	}
	rep, err := eval.Run(ctx, triage.NewRuleAnalyzer(), cases)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteText(os.Stdout, *verbose)
}
