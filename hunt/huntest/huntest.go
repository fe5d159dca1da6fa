// Package huntest gives hunt tests their databases: a fresh PostgreSQL
// schema, a fresh MariaDB database, or a SQLite file, each as the settings
// of a sql data source.
package huntest

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	_ "github.com/glebarez/go-sqlite" // registers "sqlite"
	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
)

// Engine is one SQL engine to run a test on.
type Engine struct {
	Name     string         // "postgres", "mysql" or "sqlite"
	DB       *sql.DB        // an admin handle on the test's own database
	Settings map[string]any // data source settings reaching it
}

var unsafeName = regexp.MustCompile(`[^a-z0-9_]`)

func dbName(t *testing.T) string {
	return "hunt_" + unsafeName.ReplaceAllString(strings.ToLower(t.Name()), "_")
}

// Engines returns every engine reachable for the test: SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set, MariaDB when it answers at
// VIGIL_MARIADB_DSN (default root@tcp(127.0.0.1:3306)/) or, when
// VIGIL_REQUIRE_MARIADB is set, failing the test if it does not.
func Engines(t *testing.T) []Engine {
	t.Helper()
	out := []Engine{SQLite(t)}
	if pg, ok := Postgres(t); ok {
		out = append(out, pg)
	}
	if my, ok := MariaDB(t); ok {
		out = append(out, my)
	}
	return out
}

// SQLite returns a fresh SQLite file.
func SQLite(t *testing.T) Engine {
	t.Helper()
	path := filepath.Join(t.TempDir(), "events.db")
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return Engine{Name: "sqlite", DB: db, Settings: map[string]any{"engine": "sqlite", "path": path}}
}

// Postgres returns a fresh schema in the TEST_DATABASE_URL database, made
// the connection's search_path.
func Postgres(t *testing.T) (Engine, bool) {
	t.Helper()
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		return Engine{}, false
	}
	schema := dbName(t)
	admin := open(t, "pgx", base)
	ctx := context.Background()
	exec(t, admin, "DROP SCHEMA IF EXISTS "+schema+" CASCADE")
	exec(t, admin, "CREATE SCHEMA "+schema)
	t.Cleanup(func() { _, _ = admin.ExecContext(ctx, "DROP SCHEMA IF EXISTS "+schema+" CASCADE") })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	dsn := u.String()
	return Engine{Name: "postgres", DB: open(t, "pgx", dsn), Settings: map[string]any{"engine": "postgres", "dsn": dsn}}, true
}

// MariaDB returns a fresh database on the MariaDB server.
func MariaDB(t *testing.T) (Engine, bool) {
	t.Helper()
	base := os.Getenv("VIGIL_MARIADB_DSN")
	if base == "" {
		base = "root@tcp(127.0.0.1:3306)/"
	}
	cfg, err := mysql.ParseDSN(base)
	if err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("mysql", cfg.FormatDSN())
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		err = admin.PingContext(ctx)
		cancel()
	}
	if err != nil {
		if os.Getenv("VIGIL_REQUIRE_MARIADB") != "" {
			t.Fatalf("MariaDB is required (VIGIL_REQUIRE_MARIADB) but not reachable: %v", err)
		}
		t.Logf("MariaDB not reachable, its case is skipped: %v", err)
		return Engine{}, false
	}
	t.Cleanup(func() { _ = admin.Close() })
	name := dbName(t)
	exec(t, admin, "DROP DATABASE IF EXISTS "+name)
	exec(t, admin, "CREATE DATABASE "+name)
	t.Cleanup(func() { _, _ = admin.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name) })
	cfg.DBName, cfg.ParseTime, cfg.Loc = name, true, time.UTC
	dsn := cfg.FormatDSN()
	return Engine{Name: "mysql", DB: open(t, "mysql", dsn), Settings: map[string]any{"engine": "mysql", "dsn": dsn}}, true
}

func open(t *testing.T, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func exec(t *testing.T, db *sql.DB, stmt string) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), stmt); err != nil {
		t.Fatal(fmt.Errorf("%s: %w", stmt, err))
	}
}
