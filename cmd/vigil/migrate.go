package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/store"
)

// migrateCommand applies or lists the database migrations; plain
// `vigil migrate` is `vigil migrate up`.
func migrateCommand() *cobra.Command {
	up := func(cmd *cobra.Command, _ []string) error {
		return withMigrationStore(cmd, func(ctx context.Context, st *store.Store) error {
			applied, err := st.Migrate(ctx)
			if err != nil {
				return err
			}
			fmt.Printf("applied %d migration(s) %v\n", len(applied), applied)
			return nil
		})
	}
	cmd := &cobra.Command{
		Use:   "migrate",
		Short: "apply pending database migrations (migrate status: list them)",
		Args:  cobra.NoArgs,
		RunE:  up,
	}
	cmd.AddCommand(&cobra.Command{
		Use: "up", Short: "apply pending database migrations", Args: cobra.NoArgs, RunE: up,
	}, &cobra.Command{
		Use:   "status",
		Short: "list every migration and whether it is applied",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withMigrationStore(cmd, func(ctx context.Context, st *store.Store) error {
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
				return nil
			})
		},
	})
	return cmd
}

// withMigrationStore opens the database without migrating it.
func withMigrationStore(cmd *cobra.Command, fn func(context.Context, *store.Store) error) error {
	return withStore(cmd, false, fn)
}

// withAdminStore opens the database for a one-shot admin command, always
// bringing the schema up to date first.
func withAdminStore(cmd *cobra.Command, fn func(context.Context, *store.Store) error) error {
	return withStore(cmd, true, fn)
}

// withStore opens the database the command's configuration names, migrating
// it first when migrate is set, and closes it after fn.
func withStore(cmd *cobra.Command, migrate bool, fn func(context.Context, *store.Store) error) error {
	cfg, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	log, err := cfg.NewLogger()
	if err != nil {
		return err
	}
	cfg.AutoMigrate = migrate
	st, err := app.OpenStore(cmd.Context(), cfg, log)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(cmd.Context(), st)
}
