package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/playbook"
)

// errInvalid makes the process exit 1 after the findings were printed.
var errInvalid = errors.New("playbook validation failed")

// playbookCommand groups the offline playbook tools.
func playbookCommand() *cobra.Command {
	return groupCommand("playbook", "work with playbook YAML files", &cobra.Command{
		Use:   "validate FILE...",
		Short: "check playbook YAML files (exit 1 on errors)",
		Long: `Check playbook YAML files offline, printing findings as FILE:LINE: message,
so authors can lint in their own CI. Exits 1 when any file has errors.`,
		Args: cobra.MinimumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(_ *cobra.Command, args []string) error { return validatePlaybooks(args) },
	})
}

// validatePlaybooks parses each file and prints its findings.
func validatePlaybooks(paths []string) error {
	failed := false
	for _, path := range paths {
		text, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		res := playbook.Parse(text)
		for _, p := range res.Errors {
			fmt.Printf("%s:%d: error: %s\n", path, p.Line, p.Message)
		}
		for _, p := range res.Warnings {
			fmt.Printf("%s:%d: warning: %s\n", path, p.Line, p.Message)
		}
		if !res.Valid() {
			failed = true
			continue
		}
		fmt.Printf("%s: valid (%d steps)\n", path, res.Playbook.StepCount())
	}
	if failed {
		return errInvalid
	}
	return nil
}
