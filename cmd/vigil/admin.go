package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/store"
)

// openAdminStore opens the database for a one-shot admin command, always
// bringing the schema up to date first.
func openAdminStore(ctx context.Context, cfg app.Config) (*store.Store, error) {
	log, err := cfg.NewLogger()
	if err != nil {
		return nil, err
	}
	cfg.AutoMigrate = true
	return app.OpenStore(ctx, cfg, log)
}

func runMigrate(ctx context.Context, args []string) error {
	cfg, fs, err := parseConfig("migrate", args, nil)
	if err != nil {
		return err
	}
	log, err := cfg.NewLogger()
	if err != nil {
		return err
	}
	cfg.AutoMigrate = false
	st, err := app.OpenStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer st.Close()
	switch fs.Arg(0) {
	case "", "up":
		applied, err := st.Migrate(ctx)
		if err != nil {
			return err
		}
		fmt.Printf("applied %d migration(s) %v\n", len(applied), applied)
	case "status":
		statuses, err := st.MigrationStatuses(ctx)
		if err != nil {
			return err
		}
		for _, m := range statuses {
			state := "pending"
			if m.Applied {
				state = "applied"
			}
			fmt.Printf("%05d  %-8s %s\n", m.Version, state, m.Name)
		}
	default:
		return fmt.Errorf("unknown migrate action %q (want up or status)", fs.Arg(0))
	}
	return nil
}

func runUsers(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: vigil users create --username NAME --email ADDRESS --role ROLE")
	}
	var username, email, role, display string
	var passwordStdin bool
	cfg, _, err := parseConfig("users create", args[1:], func(fs *flag.FlagSet) {
		fs.BoolVar(&passwordStdin, "password-stdin", false, "read a sign-in password from the first line of stdin")
		fs.StringVar(&username, "username", "", "unique user name (required)")
		fs.StringVar(&email, "email", "", "unique e-mail address (required)")
		fs.StringVar(&role, "role", store.RoleAnalyst, "one of "+strings.Join(store.Roles, ", "))
		fs.StringVar(&display, "display-name", "", "display name")
	})
	if err != nil {
		return err
	}
	if username == "" || email == "" {
		return errors.New("--username and --email are required")
	}
	in := store.NewUser{Username: username, Email: email, Role: role, DisplayName: display}
	if passwordStdin {
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil && line == "" {
			return fmt.Errorf("read password from stdin: %w", err)
		}
		in.Password = strings.TrimRight(line, "\r\n")
		if msg := store.CheckPassword(in.Password); msg != "" {
			return fmt.Errorf("password %s", msg)
		}
	}
	st, err := openAdminStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.CreateUser(ctx, in)
	if err != nil {
		return err
	}
	fmt.Printf("created user %s (id %s, role %s)\n", u.Username, u.ID, u.Role)
	return nil
}

func runKeys(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "create" {
		return errors.New("usage: vigil keys create --user USERNAME --name NAME [--scopes a,b] [--expires-in 720h]")
	}
	var username, name, scopes string
	var expiresIn time.Duration
	cfg, _, err := parseConfig("keys create", args[1:], func(fs *flag.FlagSet) {
		fs.StringVar(&username, "user", "", "user name that will own the key (required)")
		fs.StringVar(&name, "name", "cli", "a label for the key")
		fs.StringVar(&scopes, "scopes", "", "comma-separated scopes; empty means whatever the role allows")
		fs.DurationVar(&expiresIn, "expires-in", 0, "lifetime such as 720h; 0 means no expiry")
	})
	if err != nil {
		return err
	}
	if username == "" {
		return errors.New("--user is required")
	}
	st, err := openAdminStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	u, err := st.UserByUsername(ctx, username)
	if err != nil {
		return fmt.Errorf("user %q: %w", username, err)
	}
	var expires *time.Time
	if expiresIn > 0 {
		e := time.Now().Add(expiresIn)
		expires = &e
	}
	var scopeList []string
	for _, s := range strings.Split(scopes, ",") {
		if s = strings.TrimSpace(s); s != "" {
			scopeList = append(scopeList, s)
		}
	}
	k, key, err := st.CreateAPIKey(ctx, u.ID, name, scopeList, expires)
	if err != nil {
		return err
	}
	fmt.Printf("API key for %s (id %s, prefix %s). It is shown only once:\n%s\n", u.Username, k.ID, k.KeyPrefix, key)
	return nil
}
