package datasource_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/hunt/huntest"
)

func openSQL(t *testing.T, eng huntest.Engine, extra map[string]any) datasource.Source {
	t.Helper()
	settings := map[string]any{}
	for k, v := range eng.Settings {
		settings[k] = v
	}
	for k, v := range extra {
		settings[k] = v
	}
	src, err := datasource.Open(datasource.Config{Name: "t", Kind: datasource.KindSQL, Settings: settings}, datasource.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = src.Close() })
	return src
}

func seed(t *testing.T, eng huntest.Engine, n int) {
	t.Helper()
	ctx := context.Background()
	if _, err := eng.DB.ExecContext(ctx, "CREATE TABLE items (id INTEGER PRIMARY KEY, name VARCHAR(100) NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= n; i++ {
		q := "INSERT INTO items (id, name) VALUES (?, ?)"
		if eng.Name == "postgres" {
			q = "INSERT INTO items (id, name) VALUES ($1, $2)"
		}
		if _, err := eng.DB.ExecContext(ctx, q, i, "item"); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSQLSourceSafety(t *testing.T) {
	for _, eng := range huntest.Engines(t) {
		t.Run(eng.Name, func(t *testing.T) {
			seed(t, eng, 30)
			ctx := context.Background()
			src := openSQL(t, eng, map[string]any{"max_rows": 25})
			run := func(q string, params map[string]any) (datasource.Result, error) {
				return src.Run(ctx, datasource.Request{Query: q, Params: params, From: time.Now().Add(-time.Hour), To: time.Now()})
			}
			t.Run("row cap", func(t *testing.T) {
				res, err := run("SELECT id FROM items ORDER BY id", nil)
				if err != nil || len(res.Rows) != 25 || !res.Truncated {
					t.Fatalf("rows=%d truncated=%v err=%v", len(res.Rows), res.Truncated, err)
				}
				res, err = src.Run(ctx, datasource.Request{Query: "SELECT id FROM items", MaxRows: 5})
				if err != nil || len(res.Rows) != 5 {
					t.Fatalf("request cap: rows=%d err=%v", len(res.Rows), err)
				}
			})
			t.Run("parameters are bound, not interpolated", func(t *testing.T) {
				res, err := run("SELECT id FROM items WHERE name = :name", map[string]any{"name": "item' OR '1'='1"})
				if err != nil || len(res.Rows) != 0 {
					t.Fatalf("rows=%d err=%v", len(res.Rows), err)
				}
				res, err = run("SELECT id, ':name' AS lit FROM items WHERE name = :name AND id = :id", map[string]any{"name": "item", "id": 7})
				if err != nil || len(res.Rows) != 1 || res.Rows[0]["lit"] != ":name" {
					t.Fatalf("rows=%v err=%v", res.Rows, err)
				}
			})
			t.Run("missing parameter is named", func(t *testing.T) {
				_, err := run("SELECT id FROM items WHERE id = :wanted", nil)
				var me *datasource.ErrMissingParam
				if !errors.As(err, &me) || me.Name != "wanted" {
					t.Fatalf("err = %v", err)
				}
			})
			t.Run("one statement only", func(t *testing.T) {
				_, err := run("SELECT 1; DELETE FROM items", nil)
				if !errors.Is(err, datasource.ErrMultipleStatements) {
					t.Fatalf("err = %v", err)
				}
				if _, err := run("SELECT ';' AS semi;", nil); err != nil {
					t.Fatalf("a quoted semicolon and a trailing one are fine: %v", err)
				}
			})
			t.Run("writes are refused", func(t *testing.T) {
				if _, err := run("DELETE FROM items", nil); !errors.Is(err, datasource.ErrNotSelect) {
					t.Fatalf("err = %v", err)
				}
				// A writing CTE passes the keyword check; the read-only
				// transaction must stop it.
				if eng.Name != "mysql" {
					if _, err := run("WITH d AS (DELETE FROM items RETURNING id) SELECT id FROM d", nil); err == nil {
						t.Fatal("a writing statement ran")
					}
				}
				var n int
				if err := eng.DB.QueryRowContext(ctx, "SELECT COUNT(*) FROM items").Scan(&n); err != nil || n != 30 {
					t.Fatalf("items = %d, %v", n, err)
				}
			})
			t.Run("statement timeout", func(t *testing.T) {
				slow := map[string]string{
					"postgres": "SELECT pg_sleep(5) AS s",
					"mysql":    "SELECT SLEEP(5) AS s",
					"sqlite":   "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 20000000) SELECT MAX(x) AS s FROM c",
				}[eng.Name]
				start := time.Now()
				res, err := src.Run(ctx, datasource.Request{Query: slow, Timeout: 500 * time.Millisecond})
				if eng.Name == "mysql" && err == nil {
					// MariaDB's SLEEP returns 1 when interrupted rather than failing.
					if v, _ := res.Rows[0]["s"].(int64); v != 1 {
						t.Fatalf("SLEEP ran to its end: %v", res.Rows)
					}
				} else if !errors.Is(err, datasource.ErrQueryTimeout) {
					t.Fatalf("err = %v", err)
				}
				if d := time.Since(start); d > 4*time.Second {
					t.Fatalf("timeout took %v", d)
				}
				// The pool's connections come back usable: none is left
				// inside the interrupted transaction.
				for range 3 {
					if _, err := run("SELECT 1 AS ok", nil); err != nil {
						t.Fatalf("the source after a timeout: %v", err)
					}
				}
			})
			if eng.Name == "postgres" {
				t.Run("each query in its own read-only transaction with its timeout", func(t *testing.T) {
					for _, timeout := range []time.Duration{1500 * time.Millisecond, 2500 * time.Millisecond} {
						res, err := src.Run(ctx, datasource.Request{Timeout: timeout, Query: `SELECT current_setting('transaction_read_only') AS ro,
  current_setting('statement_timeout') AS st`})
						if err != nil {
							t.Fatal(err)
						}
						want := map[string]any{"ro": "on", "st": fmt.Sprintf("%dms", timeout.Milliseconds())}
						if r := res.Rows[0]; r["ro"] != want["ro"] || r["st"] != want["st"] {
							t.Fatalf("settings %v, want %v", r, want)
						}
					}
				})
			}
		})
	}
}

func TestSQLiteRefusesStoreFile(t *testing.T) {
	store := filepath.Join(t.TempDir(), "vigil.db")
	_, err := datasource.Open(datasource.Config{Kind: datasource.KindSQL,
		Settings: map[string]any{"engine": "sqlite", "path": store}}, datasource.Options{StorePaths: []string{store}})
	var ce *datasource.ConfigError
	if !errors.As(err, &ce) || ce.Field != "path" || !strings.Contains(ce.Message, "own database") {
		t.Fatalf("err = %v", err)
	}
}
