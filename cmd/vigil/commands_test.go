package main

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestFlagsAfterArgumentsAndAdminListings covers what the flag package got
// wrong: configuration flags after the subcommand's arguments, and the
// listing and disabling commands.
func TestFlagsAfterArgumentsAndAdminListings(t *testing.T) {
	t.Setenv("VIGIL_LOG_LEVEL", "error")
	envDB := t.TempDir() + "/env.db"
	t.Setenv("DATABASE_URL", envDB)
	flagDB := t.TempDir() + "/flag.db"

	if _, err := capture(t, "migrate", "up", "--database-url", flagDB); err != nil {
		t.Fatal(err)
	}
	out, err := capture(t, "migrate", "status", "--database-url", flagDB)
	if err != nil || !strings.Contains(out, "applied") || strings.Contains(out, "pending") {
		t.Fatalf("migrate status on the flag's database: %q %v", out, err)
	}
	// The environment's database was never touched, so nothing is applied there.
	out, err = capture(t, "migrate", "status")
	if err != nil || strings.Contains(out, "applied") {
		t.Fatalf("migrate status on the environment's database: %q %v", out, err)
	}

	for _, u := range []string{"alice", "bob"} {
		if _, err := capture(t, "users", "create", "--username", u, "--email", u+"@corp.example", "--database-url", flagDB); err != nil {
			t.Fatal(err)
		}
	}
	out, err = capture(t, "keys", "create", "--user", "bob", "--database-url", flagDB)
	if err != nil {
		t.Fatal(err)
	}
	id := regexp.MustCompile(`id ([0-9a-f-]{36})`).FindStringSubmatch(out)
	if id == nil {
		t.Fatalf("no key id in %q", out)
	}

	out, err = capture(t, "users", "list", "--database-url", flagDB)
	if err != nil || !regexp.MustCompile(`(?m)^alice\s+alice@corp.example\s+analyst\s+enabled\s+never`).MatchString(out) ||
		!strings.Contains(out, "bob") {
		t.Fatalf("users list: %q %v", out, err)
	}
	out, err = capture(t, "keys", "list", "--user", "bob", "--database-url", flagDB)
	if err != nil || !regexp.MustCompile(id[1]+`\s+vgl_\S+\s+bob\s+cli\s+-\s+-\s+active`).MatchString(out) {
		t.Fatalf("keys list: %q %v", out, err)
	}
	if _, err := capture(t, "keys", "revoke", id[1], "--database-url", flagDB); err != nil {
		t.Fatal(err)
	}
	out, _ = capture(t, "keys", "list", "--database-url", flagDB)
	if !strings.Contains(out, "revoked") {
		t.Fatalf("revoked key not shown as revoked: %q", out)
	}
	if _, err := capture(t, "keys", "revoke", id[1], "--database-url", flagDB); err == nil {
		t.Fatal("revoking twice succeeded")
	}

	if _, err := capture(t, "users", "disable", "alice", "--database-url", flagDB); err != nil {
		t.Fatal(err)
	}
	out, _ = capture(t, "users", "list", "--database-url", flagDB)
	if !regexp.MustCompile(`(?m)^alice\s.*disabled`).MatchString(out) {
		t.Fatalf("alice not disabled: %q", out)
	}
	if _, err := capture(t, "users", "disable", "nobody", "--database-url", flagDB); err == nil {
		t.Fatal("disabling a missing user succeeded")
	}
}

func TestDatabaseURLMustBePostgresOrAPath(t *testing.T) {
	t.Setenv("VIGIL_LOG_LEVEL", "error")
	dir := t.TempDir()
	t.Chdir(dir)
	for _, u := range []string{"mysql://root@127.0.0.1/vigil", "redis://127.0.0.1:6379", "sqlite:vigil.db"} {
		_, err := capture(t, "migrate", "status", "--database-url", u)
		if err == nil || !strings.Contains(err.Error(), "DATABASE_URL must be") {
			t.Errorf("%s: %v, want a refusal", u, err)
		}
	}
	if _, err := capture(t, "migrate", "--database-url", "relative.db"); err != nil {
		t.Fatalf("a relative SQLite path: %v", err)
	}
}

func TestHelpCompletionAndUsageErrors(t *testing.T) {
	out, err := capture(t, "migrate", "status", "--help")
	if err != nil || !strings.Contains(out, "vigil migrate status") || !strings.Contains(out, "--database-url") {
		t.Fatalf("per-command help: %q %v", out, err)
	}
	out, err = capture(t, "users", "create", "-h")
	if err != nil || !strings.Contains(out, "--password-prompt") {
		t.Fatalf("users create help: %q %v", out, err)
	}
	out, err = capture(t, "completion", "bash")
	if err != nil || !strings.Contains(out, "__start_vigil") {
		t.Fatalf("bash completion: %.200q %v", out, err)
	}
	out, err = capture(t, "__complete", "users", "create", "--role", "")
	if err != nil || !strings.Contains(out, "senior") {
		t.Fatalf("role completion: %q %v", out, err)
	}
	for _, args := range [][]string{
		{"users"}, {"users", "delete"}, {"keys", "revoke"}, {"migrate", "sideways"},
		{"users", "create", "--email", "a@b.example"}, {"playbook", "validate"},
	} {
		if _, err := capture(t, args...); err == nil {
			t.Errorf("%v succeeded", args)
		}
	}
	out, err = capture(t, "version")
	if err != nil || !regexp.MustCompile(`^vigil \S+ \(commit \S+\)\n$`).MatchString(out) {
		t.Fatalf("version: %q %v", out, err)
	}
}

func TestPasswordPromptNeedsATerminal(t *testing.T) {
	if _, err := promptPassword(-1, &strings.Builder{}); err == nil || !strings.Contains(err.Error(), "terminal") {
		t.Fatalf("prompt without a terminal: %v", err)
	}
}

// TestLegacyCommandKeepsItsOwnFlags shows how a command written as
// func(ctx, args) error joins the tree: it receives its arguments and
// flags untouched.
func TestLegacyCommandKeepsItsOwnFlags(t *testing.T) {
	var got []string
	root := newRootCommand()
	root.AddCommand(legacyCommand("legacy-tool", "an old-style tool", func(_ context.Context, args []string) error {
		got = args
		return errors.New("done")
	}))
	root.SetArgs([]string{"legacy-tool", "demo-data", "--count", "3"})
	err := root.ExecuteContext(context.Background())
	if err == nil || err.Error() != "done" || strings.Join(got, " ") != "demo-data --count 3" {
		t.Fatalf("legacy command: %v %q", err, got)
	}
}

func TestProbeFollowsTheStatus(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ready" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	if _, err := capture(t, "probe", srv.URL+"/ready"); err != nil {
		t.Fatalf("ready: %v", err)
	}
	if _, err := capture(t, "probe", srv.URL+"/down"); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("503 must fail: %v", err)
	}
}
