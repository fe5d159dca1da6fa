// Command vigil runs Vigil: `vigil serve` starts the API and the Temporal
// worker in one process; other subcommands run one part or administer the
// database.
//
// Each command group lives in a file of its own (service.go, migrate.go,
// users.go, keys.go, playbook.go, triage.go, secrets.go) as a function that
// returns a *cobra.Command; root.go adds them to the root command.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "vigil:", err)
		os.Exit(1)
	}
}

// run executes the command line args (without the program name).
func run(ctx context.Context, args []string) error {
	root := newRootCommand()
	root.SetArgs(args)
	return root.ExecuteContext(ctx)
}
