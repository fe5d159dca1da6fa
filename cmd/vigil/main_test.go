package main

import (
	"context"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/store"
)

// capture runs the CLI with args and returns what it printed on stdout.
func capture(t *testing.T, args ...string) (string, error) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	runErr := run(context.Background(), args)
	os.Stdout = old
	w.Close()
	out, _ := io.ReadAll(r)
	return string(out), runErr
}

func TestUsersAndKeysCreatePrintAWorkingKeyOnce(t *testing.T) {
	db := t.TempDir() + "/vigil.db"
	t.Setenv("DATABASE_URL", db)
	t.Setenv("VIGIL_LOG_LEVEL", "error")
	out, err := capture(t, "users", "create", "--username", "jane", "--email", "jane@corp.example", "--role", "senior")
	if err != nil || !strings.Contains(out, "created user jane") {
		t.Fatalf("users create: %q %v", out, err)
	}
	out, err = capture(t, "keys", "create", "--user", "jane", "--name", "laptop", "--expires-in", "24h")
	if err != nil {
		t.Fatalf("keys create: %v", err)
	}
	key := regexp.MustCompile(`vgl_[A-Za-z0-9_-]{43}`).FindString(out)
	if key == "" {
		t.Fatalf("no key printed: %q", out)
	}
	st, err := store.Open(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := st.AuthenticateKey(context.Background(), key)
	if err != nil || p.User.Username != "jane" || p.User.Role != store.RoleSenior || p.Key.ExpiresAt == nil {
		t.Fatalf("printed key does not authenticate as jane with an expiry: %v", err)
	}

	if _, err := capture(t, "users", "create", "--username", "jane", "--email", "other@corp.example"); err == nil {
		t.Fatal("duplicate user accepted")
	}
	if _, err := capture(t, "users", "create", "--username", "x", "--email", "x@corp.example", "--role", "root"); err == nil {
		t.Fatal("unknown role accepted")
	}
	if _, err := capture(t, "keys", "create", "--user", "nobody"); err == nil {
		t.Fatal("key for a missing user accepted")
	}
	out, err = capture(t, "migrate", "status")
	if err != nil || !strings.Contains(out, "applied") {
		t.Fatalf("migrate status: %q %v", out, err)
	}
}

func TestVersionAndUnknownCommand(t *testing.T) {
	out, err := capture(t, "version")
	if err != nil || !strings.HasPrefix(out, "vigil ") {
		t.Fatalf("version: %q %v", out, err)
	}
	if _, err := capture(t, "frobnicate"); err == nil {
		t.Fatal("unknown command accepted")
	}
}
