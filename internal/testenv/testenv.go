// Package testenv starts the real dependencies integration tests run
// against: a Temporal dev server and a database (PostgreSQL when
// TEST_DATABASE_URL is set, a SQLite file otherwise).
package testenv

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/log"
	"go.temporal.io/sdk/testsuite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"

	"github.com/vigil-soc/vigil/store"
)

// Logger returns a logger that discards output unless VIGIL_TEST_LOG is set.
func Logger() *slog.Logger {
	if os.Getenv("VIGIL_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

// TemporalBinary finds the Temporal CLI: VIGIL_TEMPORAL_BIN, or bin/temporal
// in the module root.
func TemporalBinary() (string, error) {
	if p := os.Getenv("VIGIL_TEMPORAL_BIN"); p != "" {
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			p := filepath.Join(dir, "bin", "temporal")
			if _, err := os.Stat(p); err != nil {
				return "", fmt.Errorf("temporal CLI not found at %s: run `make test` or scripts/temporal-cli.sh", p)
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("module root not found")
		}
		dir = parent
	}
}

// SearchAttributeNames mirrors workflows.SearchAttributeNames; this
// package cannot import workflows (tests of packages the workflows import
// use it), and a test in workflows keeps the two lists equal.
var SearchAttributeNames = []string{"IncidentNumber", "Severity", "IncidentType", "ActionType", "PlaybookName",
	"ActionStatus", "ApprovalLevel", "HuntName"}

// DevServerArgs are the start-dev flags Vigil needs: its search attributes
// and a fast task hand-off.
func DevServerArgs() []string {
	args := []string{
		"--dynamic-config-value", "history.transferProcessorMaxPollRPS=1000",
		// One partition per task queue: a single worker polls, and with
		// four partitions tasks wait on the others for up to seconds.
		"--dynamic-config-value", "matching.numTaskqueueReadPartitions=1",
		"--dynamic-config-value", "matching.numTaskqueueWritePartitions=1",
		// A worker may run the activity its workflow task schedules at
		// once, without a trip through matching.
		"--dynamic-config-value", "system.enableActivityEagerExecution=true",
	}
	for _, sa := range SearchAttributeNames {
		args = append(args, "--search-attribute", sa+"=Keyword")
	}
	return args
}

// Temporal is a running dev server and a client connected to it.
type Temporal struct {
	Server *testsuite.DevServer
	Client client.Client
}

// StartTemporal starts a dev server on a free port. Call Stop when done.
func StartTemporal(ctx context.Context) (*Temporal, error) {
	bin, err := TemporalBinary()
	if err != nil {
		return nil, err
	}
	srv, err := testsuite.StartDevServer(ctx, testsuite.DevServerOptions{
		ExistingPath: bin,
		LogLevel:     "error",
		Stdout:       io.Discard,
		ExtraArgs:    DevServerArgs(),
		ClientOptions: &client.Options{
			Namespace: "default",
			Logger:    nopTemporalLogger{},
		},
	})
	if err != nil {
		return nil, fmt.Errorf("start temporal dev server: %w", err)
	}
	return &Temporal{Server: srv, Client: srv.Client()}, nil
}

// Stop shuts the dev server down.
func (t *Temporal) Stop() {
	t.Client.Close()
	_ = t.Server.Stop()
}

// OpenStore opens a fresh, migrated store for one test: a private schema in
// TEST_DATABASE_URL's database, or a SQLite file in a temporary directory.
func OpenStore(t testing.TB) *store.Store {
	t.Helper()
	st, cleanup, err := NewStore(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	return st
}

// NewStore is OpenStore for callers without a testing.TB (TestMain,
// benchmarks); sqliteDir holds the SQLite file when Postgres is not used.
func NewStore(ctx context.Context, sqliteDir string) (*store.Store, func(), error) {
	return NewStoreURL(ctx, os.Getenv("TEST_DATABASE_URL"), sqliteDir)
}

// NewStoreURL is NewStore with the PostgreSQL URL given explicitly, for
// programs that pick the database themselves: a private schema in base's
// database, or a SQLite file in sqliteDir when base is empty.
func NewStoreURL(ctx context.Context, base, sqliteDir string) (*store.Store, func(), error) {
	if base == "" {
		st, err := store.Open(ctx, filepath.Join(sqliteDir, "vigil.db"), nil)
		if err != nil {
			return nil, nil, err
		}
		if _, err := st.Migrate(ctx); err != nil {
			return nil, nil, err
		}
		return st, func() { _ = st.Close() }, nil
	}
	schema := "t_" + randomHex(8)
	admin, err := gorm.Open(postgres.Open(base), &gorm.Config{})
	if err != nil {
		return nil, nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	adminDB, _ := admin.DB()
	if err := admin.Exec("CREATE SCHEMA " + schema).Error; err != nil {
		_ = adminDB.Close()
		return nil, nil, err
	}
	dropSchema := func() {
		_ = admin.Exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE").Error
		_ = adminDB.Close()
	}
	st, err := store.Open(ctx, withSearchPath(base, schema), nil)
	if err == nil {
		_, err = st.Migrate(ctx)
	}
	if err != nil {
		dropSchema()
		return nil, nil, err
	}
	return st, func() { _ = st.Close(); dropSchema() }, nil
}

func withSearchPath(raw, schema string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Eventually polls cond until it holds or the deadline passes.
func Eventually(t testing.TB, timeout time.Duration, cond func() bool, msg string, args ...any) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %s: %s", timeout, fmt.Sprintf(msg, args...))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TemporalLogger is a Temporal SDK logger that keeps tests quiet.
func TemporalLogger() log.Logger { return nopTemporalLogger{} }

// nopTemporalLogger keeps the SDK quiet in tests.
type nopTemporalLogger struct{}

func (nopTemporalLogger) Debug(string, ...any) {}
func (nopTemporalLogger) Info(string, ...any)  {}
func (nopTemporalLogger) Warn(string, ...any)  {}
func (nopTemporalLogger) Error(string, ...any) {}

// DatabaseURL returns a database address for a whole Vigil process under
// test: a fresh schema in TEST_DATABASE_URL's database, dropped at
// cleanup, or a SQLite file in a temporary directory.
func DatabaseURL(t testing.TB) string {
	t.Helper()
	url, cleanup, err := NewDatabaseURL(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	return url
}

// NewDatabaseURL is DatabaseURL for callers without a test (TestMain):
// a SQLite file in dir, or a fresh PostgreSQL schema that cleanup drops.
func NewDatabaseURL(dir string) (string, func(), error) {
	base := os.Getenv("TEST_DATABASE_URL")
	if base == "" {
		return filepath.Join(dir, "vigil.db"), func() {}, nil
	}
	schema := "t_" + randomHex(8)
	admin, err := gorm.Open(postgres.Open(base), &gorm.Config{})
	if err != nil {
		return "", nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	adminDB, _ := admin.DB()
	if err := admin.Exec("CREATE SCHEMA " + schema).Error; err != nil {
		_ = adminDB.Close()
		return "", nil, err
	}
	cleanup := func() {
		_ = admin.Exec("DROP SCHEMA IF EXISTS " + schema + " CASCADE").Error
		_ = adminDB.Close()
	}
	return withSearchPath(base, schema), cleanup, nil
}
