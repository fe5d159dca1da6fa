package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/app"
)

// newRootCommand builds the command tree. A new command group is one
// function returning a *cobra.Command, in a file of its own, added here.
func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "vigil",
		Short: "Incident triage and response on Temporal",
		Long: `Vigil receives security incidents, triages them and runs response actions
through Temporal workflows.

Configuration comes from the environment (see the README); the flags below
override it for one run.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_ = cmd.Help()
			return errors.New("no command given")
		},
	}
	addConfigFlags(root)
	root.AddCommand(
		serviceCommand(app.ModeServe, "run the HTTP API and the Temporal worker in one process"),
		serviceCommand(app.ModeAPI, "run the HTTP API only"),
		serviceCommand(app.ModeWorker, "run the Temporal worker only"),
		migrateCommand(),
		usersCommand(),
		keysCommand(),
		playbookCommand(),
		packageCommand(),
		triageCommand(),
		huntsCommand(),
		secretsCommand(),
		probeCommand(),
		versionCommand(),
	)
	return root
}

// addConfigFlags declares the configuration flags on the root, so every
// command takes them, before or after its arguments.
func addConfigFlags(root *cobra.Command) {
	f := root.PersistentFlags()
	f.String("http-addr", "", "HTTP listen address (VIGIL_HTTP_ADDR, default 127.0.0.1:8080)")
	f.String("database-url", "", "postgres:// URL or SQLite file path (DATABASE_URL, default ./data/vigil.db)")
	f.String("temporal-address", "", "Temporal frontend host:port (TEMPORAL_ADDRESS)")
	f.String("temporal-namespace", "", "Temporal namespace (TEMPORAL_NAMESPACE)")
	f.String("log-format", "", "text or json (VIGIL_LOG_FORMAT)")
	f.String("log-level", "", "debug, info, warn or error (VIGIL_LOG_LEVEL)")
	f.String("public-url", "", "address operators reach Vigil at (VIGIL_PUBLIC_URL)")
	_ = root.RegisterFlagCompletionFunc("log-format", fixedCompletions("text", "json"))
	_ = root.RegisterFlagCompletionFunc("log-level", fixedCompletions("debug", "info", "warn", "error"))
}

// loadConfig reads the environment, then applies the configuration flags
// given on the command line.
func loadConfig(cmd *cobra.Command) (app.Config, error) {
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		return cfg, err
	}
	fields := map[string]*string{
		"http-addr": &cfg.HTTPAddr, "database-url": &cfg.DatabaseURL,
		"temporal-address": &cfg.TemporalAddress, "temporal-namespace": &cfg.TemporalNamespace,
		"log-format": &cfg.LogFormat, "log-level": &cfg.LogLevel, "public-url": &cfg.PublicURL,
	}
	for name, field := range fields {
		if fl := cmd.Flags().Lookup(name); fl != nil && fl.Changed {
			*field = fl.Value.String()
		}
	}
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	if err := app.CheckDatabaseURL(cfg.DatabaseURL); err != nil {
		return cfg, err
	}
	return cfg, nil
}

func fixedCompletions(values ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

func versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the version and commit of this build",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Println(app.VersionString())
			return nil
		},
	}
}

// legacyCommand adapts a command written as func(ctx, args) error that
// parses its own flags (the shape commands had before cobra), so it can be
// added to the tree unchanged: flag parsing is left to it.
func legacyCommand(use, short string, run func(ctx context.Context, args []string) error) *cobra.Command {
	return &cobra.Command{
		Use:                use,
		Short:              short,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd.Context(), args)
		},
	}
}

// groupCommand is a command that only holds subcommands: run without one,
// it prints its help and fails; an unknown one is an error, not help.
func groupCommand(use, short string, subs ...*cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unknown command %q for %q; see %s --help", args[0], cmd.CommandPath(), cmd.CommandPath())
			}
			_ = cmd.Help()
			return fmt.Errorf("%s needs a subcommand", cmd.CommandPath())
		},
	}
	cmd.AddCommand(subs...)
	return cmd
}
