package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/triage"
	"github.com/vigil-soc/vigil/triage/eval"
)

// triageCommand groups the offline triage tools.
func triageCommand() *cobra.Command {
	var asJSON, verbose bool
	eval := &cobra.Command{
		Use:   "eval DIR",
		Short: "score the built-in analyzer on labelled cases (exit 1 on load errors)",
		Long: `Score the built-in analyzer on a directory of labelled cases, offline, with
the simulated threat intelligence the service uses when no subscription is
configured. The JSON report always lists the wrong cases.`,
		Args: cobra.ExactArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveFilterDirs
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTriageEval(cmd.Context(), args[0], asJSON, verbose)
		},
	}
	eval.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	eval.Flags().BoolVar(&verbose, "verbose", false, "list every wrong case with the analyzer's reasoning")
	return groupCommand("triage", "evaluate the built-in analyzer", eval)
}

// runTriageEval scores the analyzer on the cases under dir.
func runTriageEval(ctx context.Context, dir string, asJSON, verbose bool) error {
	cases, err := eval.Load(dir)
	if err != nil {
		return fmt.Errorf("load cases: %w", err)
	}
	rep, err := eval.Run(ctx, triage.NewRuleAnalyzer(), cases)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return rep.WriteText(os.Stdout, verbose)
}
