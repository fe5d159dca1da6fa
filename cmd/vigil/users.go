package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/vigil-soc/vigil/store"
)

// usersCommand groups the user administration commands.
func usersCommand() *cobra.Command {
	return groupCommand("users", "create, list and disable users",
		usersCreateCommand(), usersListCommand(), usersDisableCommand())
}

func usersCreateCommand() *cobra.Command {
	var username, email, role, display string
	var passwordStdin, passwordPrompt bool
	cmd := &cobra.Command{
		Use:   "create --username NAME --email ADDRESS [--role ROLE]",
		Short: "create a user",
		Long: `Create a user. Without a password the user signs in with API keys only
(vigil keys create). --password-prompt asks on the terminal without echo;
--password-stdin reads the first line of stdin, for scripts.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if passwordStdin && passwordPrompt {
				return errors.New("give at most one of --password-stdin and --password-prompt")
			}
			in := store.NewUser{Username: username, Email: email, Role: role, DisplayName: display}
			var err error
			switch {
			case passwordStdin:
				in.Password, err = readPasswordLine(os.Stdin)
			case passwordPrompt:
				in.Password, err = promptPassword(int(os.Stdin.Fd()), os.Stderr)
			}
			if err != nil {
				return err
			}
			if in.Password != "" {
				if msg := store.CheckPassword(in.Password); msg != "" {
					return fmt.Errorf("password %s", msg)
				}
			}
			return withAdminStore(cmd, func(ctx context.Context, st *store.Store) error {
				u, err := st.CreateUser(ctx, in)
				if err != nil {
					return err
				}
				fmt.Printf("created user %s (id %s, role %s)\n", u.Username, u.ID, u.Role)
				return nil
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&username, "username", "", "unique user name (required)")
	f.StringVar(&email, "email", "", "unique e-mail address (required)")
	f.StringVar(&role, "role", store.RoleAnalyst, "one of "+strings.Join(store.Roles, ", "))
	f.StringVar(&display, "display-name", "", "display name")
	f.BoolVar(&passwordStdin, "password-stdin", false, "read a sign-in password from the first line of stdin")
	f.BoolVar(&passwordPrompt, "password-prompt", false, "ask for a sign-in password on the terminal, without echo")
	_ = cmd.MarkFlagRequired("username")
	_ = cmd.MarkFlagRequired("email")
	_ = cmd.RegisterFlagCompletionFunc("role", fixedCompletions(store.Roles...))
	return cmd
}

// readPasswordLine takes the first line of r.
func readPasswordLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && line == "" {
		return "", fmt.Errorf("read password from stdin: %w", err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// promptPassword asks twice on the terminal fd with echo off.
func promptPassword(fd int, out io.Writer) (string, error) {
	if !term.IsTerminal(fd) {
		return "", errors.New("--password-prompt needs a terminal on stdin; use --password-stdin in scripts")
	}
	read := func(prompt string) (string, error) {
		fmt.Fprint(out, prompt)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(out)
		if err != nil {
			return "", fmt.Errorf("read password: %w", err)
		}
		return string(b), nil
	}
	first, err := read("Password: ")
	if err != nil {
		return "", err
	}
	again, err := read("Repeat password: ")
	if err != nil {
		return "", err
	}
	if first != again {
		return "", errors.New("the passwords differ")
	}
	return first, nil
}

func usersListCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "list every user with role and state",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withAdminStore(cmd, func(ctx context.Context, st *store.Store) error {
				w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "USERNAME\tEMAIL\tROLE\tSTATE\tLAST LOGIN\tID")
				for page := 1; ; page++ {
					users, total, err := st.ListUsers(ctx, store.Page{Page: page, PerPage: 100})
					if err != nil {
						return err
					}
					for _, u := range users {
						state, last := "enabled", "never"
						if !u.Enabled {
							state = "disabled"
						}
						if u.LastLoginAt != nil {
							last = u.LastLoginAt.UTC().Format("2006-01-02 15:04")
						}
						fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", u.Username, u.Email, u.Role, state, last, u.ID)
					}
					if len(users) == 0 || int64(page*100) >= total {
						break
					}
				}
				return w.Flush()
			})
		},
	}
}

func usersDisableCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "disable USERNAME",
		Short: "disable a user: their sessions and API keys stop working at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withAdminStore(cmd, func(ctx context.Context, st *store.Store) error {
				u, err := st.UserByUsername(ctx, args[0])
				if err != nil {
					return fmt.Errorf("user %q: %w", args[0], err)
				}
				off := false
				if _, err := st.UpdateUser(ctx, u.ID, store.UserUpdate{Enabled: &off}); err != nil {
					return err
				}
				fmt.Printf("disabled user %s; their sessions and API keys are revoked\n", u.Username)
				return nil
			})
		},
	}
}
