package main

import (
	"bytes"
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
	var asJSON, verbose, crossValidate bool
	eval := &cobra.Command{
		Use:   "eval DIR",
		Short: "score the built-in analyzer on labelled cases (exit 1 on load errors)",
		Long: `Score the built-in analyzer on a directory of labelled cases, offline, with
the simulated threat intelligence the service uses when no subscription is
configured. The JSON report always lists the wrong cases.

The built-in word model was counted on the labelled set, so on the folders
it learned from a plain run measures recall. --cross-validate scores each
top-level folder with a model trained on the other folders (never on the
ones the built-in model leaves out): the estimate for alerts never seen.`,
		Args: cobra.ExactArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return nil, cobra.ShellCompDirectiveFilterDirs
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTriageEval(cmd.Context(), args[0], asJSON, verbose, crossValidate)
		},
	}
	eval.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	eval.Flags().BoolVar(&verbose, "verbose", false, "list every wrong case with the analyzer's reasoning")
	eval.Flags().BoolVar(&crossValidate, "cross-validate", false, "score each top-level folder with a word model trained without it")
	return groupCommand("triage", "evaluate the built-in analyzer and train its word model", eval, trainCommand())
}

// trainCommand rebuilds the word model from labelled cases.
func trainCommand() *cobra.Command {
	var out string
	var exclude []string
	train := &cobra.Command{
		Use:   "train DIR",
		Short: "count the built-in word model on labelled cases",
		Long: `Count the built-in analyzer's word model on a directory of labelled cases
and write it to --output (standard output by default). Folders named with
--exclude are left out, so they stay blind: the analyzer's accuracy on them
then estimates how it does on alerts it has never seen. The model file says
which folders it left out.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runTriageTrain(args[0], exclude, out)
		},
	}
	train.Flags().StringVarP(&out, "output", "o", "", "file to write the model to (default standard output)")
	train.Flags().StringSliceVar(&exclude, "exclude", nil, "top-level folders to leave out of training")
	return train
}

// runTriageTrain trains the word model on the cases under dir.
func runTriageTrain(dir string, exclude []string, out string) error {
	cases, err := eval.Load(dir)
	if err != nil {
		return fmt.Errorf("load cases: %w", err)
	}
	m, err := eval.TrainWords(cases, exclude)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		return err
	}
	return writeOutput(out, b.Bytes())
}

// runTriageEval scores the analyzer on the cases under dir.
func runTriageEval(ctx context.Context, dir string, asJSON, verbose, crossValidate bool) error {
	cases, err := eval.Load(dir)
	if err != nil {
		return fmt.Errorf("load cases: %w", err)
	}
	var rep eval.Report
	if crossValidate {
		rep, err = eval.CrossValidate(ctx, cases, eval.ExcludedFolders(triage.BuiltinWordModel()))
	} else {
		rep, err = eval.Run(ctx, triage.NewRuleAnalyzer(), cases)
	}
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
