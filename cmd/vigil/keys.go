package main

import (
	"context"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/store"
)

// keysCommand groups the API key administration commands.
func keysCommand() *cobra.Command {
	return groupCommand("keys", "create, list and revoke API keys",
		keysCreateCommand(), keysListCommand(), keysRevokeCommand())
}

func keysCreateCommand() *cobra.Command {
	var username, name, scopes string
	var expiresIn time.Duration
	cmd := &cobra.Command{
		Use:   "create --user USERNAME [--name NAME] [--scopes a,b] [--expires-in 720h]",
		Short: "create an API key for a user and print it once",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withAdminStore(cmd, func(ctx context.Context, st *store.Store) error {
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
			})
		},
	}
	f := cmd.Flags()
	f.StringVar(&username, "user", "", "user name that will own the key (required)")
	f.StringVar(&name, "name", "cli", "a label for the key")
	f.StringVar(&scopes, "scopes", "", "comma-separated scopes; empty means whatever the role allows")
	f.DurationVar(&expiresIn, "expires-in", 0, "lifetime such as 720h; 0 means no expiry")
	_ = cmd.MarkFlagRequired("user")
	return cmd
}

func keysListCommand() *cobra.Command {
	var username string
	cmd := &cobra.Command{
		Use:   "list [--user USERNAME]",
		Short: "list API keys (prefix, owner, scopes, expiry, revocation); never the keys themselves",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withAdminStore(cmd, func(ctx context.Context, st *store.Store) error {
				owners, err := userNames(ctx, st)
				if err != nil {
					return err
				}
				userID := ""
				if username != "" {
					u, err := st.UserByUsername(ctx, username)
					if err != nil {
						return fmt.Errorf("user %q: %w", username, err)
					}
					userID = u.ID
				}
				w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
				fmt.Fprintln(w, "ID\tPREFIX\tUSER\tNAME\tSCOPES\tEXPIRES\tSTATE")
				for page := 1; ; page++ {
					keys, total, err := st.ListAPIKeys(ctx, userID, store.Page{Page: page, PerPage: 100})
					if err != nil {
						return err
					}
					for _, k := range keys {
						fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.KeyPrefix, owners[k.UserID], k.Name,
							orDash(strings.Join(k.Scopes.V, ",")), timeOrDash(k.ExpiresAt), keyState(k))
					}
					if len(keys) == 0 || int64(page*100) >= total {
						break
					}
				}
				return w.Flush()
			})
		},
	}
	cmd.Flags().StringVar(&username, "user", "", "only this user's keys")
	return cmd
}

func keysRevokeCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "revoke KEY_ID",
		Short: "revoke an API key; it stops working at once",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withAdminStore(cmd, func(ctx context.Context, st *store.Store) error {
				if err := st.RevokeAPIKey(ctx, args[0]); err != nil {
					return fmt.Errorf("key %q: %w", args[0], err)
				}
				fmt.Printf("revoked API key %s\n", args[0])
				return nil
			})
		},
	}
}

// userNames maps user IDs to names for listings.
func userNames(ctx context.Context, st *store.Store) (map[string]string, error) {
	out := map[string]string{}
	for page := 1; ; page++ {
		users, total, err := st.ListUsers(ctx, store.Page{Page: page, PerPage: 100})
		if err != nil {
			return nil, err
		}
		for _, u := range users {
			out[u.ID] = u.Username
		}
		if len(users) == 0 || int64(page*100) >= total {
			return out, nil
		}
	}
}

func keyState(k store.APIKey) string {
	switch {
	case k.RevokedAt != nil:
		return "revoked"
	case k.ExpiresAt != nil && k.ExpiresAt.Before(time.Now()):
		return "expired"
	}
	return "active"
}

func timeOrDash(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return t.UTC().Format("2006-01-02 15:04")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
