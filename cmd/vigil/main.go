// Command vigil runs Vigil: `vigil serve` starts the API and the Temporal
// worker in one process; other subcommands run one part or administer the
// database.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/vigil-soc/vigil/app"
)

const usage = `Usage: vigil <command> [flags]

Commands:
  serve          run the HTTP API and the Temporal worker in one process
  api            run the HTTP API only
  worker         run the Temporal worker only
  migrate        apply pending database migrations (migrate status: list them)
  users create   create a user (--username, --email, --role, --display-name, --password-stdin)
  keys create    create an API key for a user and print it once (--user, --name, --scopes, --expires-in)
  playbook validate FILE...  check playbook YAML files (exit 1 on errors)
  triage eval DIR  score the built-in analyzer on labelled cases (--json, --verbose; exit 1 on load errors)
  hunts demo-data  load demo events into a sql data source or a new SQLite file (--source, --sqlite, --scale)
  secrets rotate re-seal stored secrets under a new VIGIL_SECRET_KEY (--old-key-file, --old-key-stdin, --dry-run)
  version        print the version

Configuration comes from the environment (see README); flags override it.
Run "vigil <command> -h" for a command's flags.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "vigil:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return errors.New("no command given")
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "serve", "api", "worker":
		return runService(ctx, app.Mode(cmd), rest)
	case "migrate":
		return runMigrate(ctx, rest)
	case "users":
		return runUsers(ctx, rest)
	case "keys":
		return runKeys(ctx, rest)
	case "playbook":
		return runPlaybook(rest)
	case "secrets":
		return runSecrets(ctx, rest)
	case "triage":
		return runTriage(ctx, rest)
	case "hunts":
		return runHunts(ctx, rest)
	case "version", "--version", "-v":
		fmt.Println("vigil", app.Version)
		return nil
	case "help", "-h", "--help":
		fmt.Print(usage)
		return nil
	}
	fmt.Fprint(os.Stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}

// parseConfig reads the environment, then lets flags override it.
func parseConfig(name string, args []string, extra func(*flag.FlagSet)) (app.Config, *flag.FlagSet, error) {
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		return cfg, nil, err
	}
	fs := flag.NewFlagSet("vigil "+name, flag.ContinueOnError)
	fs.StringVar(&cfg.HTTPAddr, "http-addr", cfg.HTTPAddr, "HTTP listen address (VIGIL_HTTP_ADDR)")
	fs.StringVar(&cfg.DatabaseURL, "database-url", cfg.DatabaseURL, "postgres:// URL or SQLite path (DATABASE_URL)")
	fs.StringVar(&cfg.TemporalAddress, "temporal-address", cfg.TemporalAddress, "Temporal frontend host:port (TEMPORAL_ADDRESS)")
	fs.StringVar(&cfg.TemporalNamespace, "temporal-namespace", cfg.TemporalNamespace, "Temporal namespace (TEMPORAL_NAMESPACE)")
	fs.StringVar(&cfg.LogFormat, "log-format", cfg.LogFormat, "text or json (VIGIL_LOG_FORMAT)")
	fs.StringVar(&cfg.LogLevel, "log-level", cfg.LogLevel, "debug, info, warn or error (VIGIL_LOG_LEVEL)")
	fs.StringVar(&cfg.PublicURL, "public-url", cfg.PublicURL, "address operators reach Vigil at, for links from the Temporal UI (VIGIL_PUBLIC_URL)")
	if extra != nil {
		extra(fs)
	}
	if err := fs.Parse(args); err != nil {
		return cfg, fs, err
	}
	return cfg, fs, nil
}

func runService(ctx context.Context, mode app.Mode, args []string) error {
	cfg, _, err := parseConfig(string(mode), args, nil)
	if err != nil {
		return err
	}
	log, err := cfg.NewLogger()
	if err != nil {
		return err
	}
	return app.Run(ctx, cfg, mode, log)
}
