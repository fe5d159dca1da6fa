package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/hunt/events"
	"github.com/vigil-soc/vigil/store"
)

// huntsCommand groups the hunting tools.
func huntsCommand() *cobra.Command {
	var source, sqlitePath, name string
	var scale int
	demo := &cobra.Command{
		Use:   "demo-data",
		Short: "load demo events into a sql data source or a new SQLite file",
		Long: `Loads a day of demo events (the normalized schema of docs/hunting.md, with
one planted instance of every behaviour the query library hunts for) into
a registered sql data source (--source), or into a SQLite file (--sqlite,
default ./data/hunt-demo.db) that it registers as the data source --name
(default "demo"). --scale multiplies the benign noise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := loadConfig(cmd)
			if err != nil {
				return err
			}
			return withAdminStore(cmd, func(ctx context.Context, st *store.Store) error {
				return loadDemoData(ctx, cfg, st, source, sqlitePath, name, scale)
			})
		},
	}
	demo.Flags().StringVar(&source, "source", "", "load into this registered sql data source")
	demo.Flags().StringVar(&sqlitePath, "sqlite", "./data/hunt-demo.db", "SQLite file to create and register")
	demo.Flags().StringVar(&name, "name", "demo", "data source name to register the SQLite file under")
	demo.Flags().IntVar(&scale, "scale", 1, "rounds of benign noise")
	return groupCommand("hunts", "threat hunting tools", demo)
}

// loadDemoData writes the demo events and registers the SQLite file.
func loadDemoData(ctx context.Context, cfg app.Config, st *store.Store, source, sqlitePath, name string, scale int) error {
	engine, target, err := demoTarget(ctx, cfg, st, source, sqlitePath)
	if err != nil {
		return err
	}
	db, err := events.OpenWritable(engine, target)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := events.CreateSchema(ctx, db, engine); err != nil {
		return err
	}
	n, err := events.Load(ctx, db, engine, events.Demo(time.Now(), scale))
	if err != nil {
		return err
	}
	if source == "" {
		abs, _ := filepath.Abs(sqlitePath)
		err := st.PutDataSource(ctx, &store.DataSource{Name: name, Kind: datasource.KindSQL,
			Description: "demo events (vigil hunts demo-data)", CreatedBy: "cli",
			Config: store.NewJSON(map[string]any{"engine": events.EngineSQLite, "path": abs})})
		if err != nil {
			return err
		}
		source = name
	}
	fmt.Printf("loaded %d events into data source %q\n", n, source)
	return nil
}

// demoTarget finds where to load: a registered sql source's engine and
// dsn, or a new SQLite file beside (never inside) Vigil's store.
func demoTarget(ctx context.Context, cfg app.Config, st *store.Store, source, path string) (string, string, error) {
	if source == "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
			return "", "", err
		}
		_, err := datasource.Open(datasource.Config{Kind: datasource.KindSQL,
			Settings: map[string]any{"engine": "sqlite", "path": path}}, datasource.Options{StorePaths: storePaths(cfg)})
		return events.EngineSQLite, path, err
	}
	d, err := st.GetDataSource(ctx, source)
	if err != nil {
		return "", "", fmt.Errorf("data source %s: %w", source, err)
	}
	box, err := app.NewSecrets(cfg)
	if err != nil {
		return "", "", err
	}
	sc, err := hunt.SourceConfig(d, box)
	if err != nil {
		return "", "", err
	}
	engine, _ := sc.Settings["engine"].(string)
	if d.Kind != datasource.KindSQL || engine == "" {
		return "", "", fmt.Errorf("data source %s is not a sql source", source)
	}
	dsn := sc.Credentials["dsn"]
	if dsn == "" {
		dsn, _ = sc.Settings["dsn"].(string)
	}
	if engine == events.EngineSQLite {
		dsn, _ = sc.Settings["path"].(string)
	}
	return engine, dsn, nil
}

// storePaths is Vigil's own SQLite file, which demo data must never touch.
func storePaths(cfg app.Config) []string {
	if cfg.DatabaseURL == "" {
		return []string{store.DefaultSQLitePath}
	}
	return []string{cfg.DatabaseURL}
}
