package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/vigil-soc/vigil/playbook"
)

// errInvalid makes the process exit 1 after the findings were printed.
var errInvalid = errors.New("playbook validation failed")

// runPlaybook validates playbook files offline, printing findings as
// FILE:LINE: message, so authors can lint in their own CI.
func runPlaybook(args []string) error {
	if len(args) < 2 || args[0] != "validate" {
		return errors.New("usage: vigil playbook validate FILE [FILE ...]")
	}
	failed := false
	for _, path := range args[1:] {
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
