package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

const (
	cliOldKey = "cli rotation old key 0123456789"
	cliNewKey = "cli rotation new key 0123456789"
)

// seedForRotation stores a webhook secret the way the API does and an LLM
// key through the settings service, both under cliOldKey.
func seedForRotation(t *testing.T, db string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	old, _ := secrets.NewBox(cliOldKey)
	sealed, _ := old.Seal("webhook-hmac-secret-1234", secrets.ContextWebhookSecret)
	if err := st.PutWebhookSource(ctx, &store.WebhookSource{Source: "crowdstrike", SecretEncrypted: sealed}); err != nil {
		t.Fatal(err)
	}
	if _, err := settings.NewService(st, old).Put(ctx, settings.KeyLLM, []byte(`{"api_key":"sk-rotate-me"}`), "admin"); err != nil {
		t.Fatal(err)
	}
}

// openWith reads both secrets back with key, as the service would.
func openWith(t *testing.T, db, key string) (webhook, llmKey string, err error) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, _ := secrets.NewBox(key)
	src, err := st.GetWebhookSource(ctx, "crowdstrike")
	if err != nil {
		t.Fatal(err)
	}
	if webhook, err = b.Open(src.SecretEncrypted, secrets.ContextWebhookSecret); err != nil {
		return "", "", err
	}
	l, err := settings.NewService(st, b).LLM(ctx)
	return webhook, l.APIKey, err
}

// withStdin runs fn with os.Stdin reading text.
func withStdin(t *testing.T, text string, fn func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() { _, _ = w.WriteString(text); w.Close() }()
	old := os.Stdin
	os.Stdin = r
	defer func() { os.Stdin = old; r.Close() }()
	fn()
}

func TestSecretsRotateReSealsEverySecretOnce(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "vigil.db")
	t.Setenv("DATABASE_URL", db)
	t.Setenv("VIGIL_LOG_LEVEL", "error")
	t.Setenv(secrets.OldEnvVar, "")
	seedForRotation(t, db)
	oldFile := filepath.Join(dir, "old.key")
	if err := os.WriteFile(oldFile, []byte(cliOldKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	t.Setenv(secrets.EnvVar, cliNewKey)
	// Refusals that must leave the database as it is.
	for _, tc := range []struct {
		name string
		env  string
		args []string
		want string
	}{
		{"no old key", "", []string{"secrets", "rotate"}, "exactly once"},
		{"old key twice", cliOldKey, []string{"secrets", "rotate", "--old-key-file", oldFile}, "exactly once"},
		{"wrong old key", "cli rotation wrong key 0123456789", []string{"secrets", "rotate"}, `source="crowdstrike"`},
		{"same key", cliNewKey, []string{"secrets", "rotate"}, "same key"},
		{"old key as an argument", "", []string{"secrets", "rotate", "--old-key", cliOldKey}, "unknown flag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(secrets.OldEnvVar, tc.env)
			_, err := capture(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v; want one containing %q", err, tc.want)
			}
			if _, _, err := openWith(t, db, cliOldKey); err != nil {
				t.Fatalf("a refused rotation changed the secrets: %v", err)
			}
		})
	}

	out, err := capture(t, "secrets", "rotate", "--old-key-file", oldFile, "--dry-run")
	if err != nil || !strings.Contains(out, "2 would be re-sealed") {
		t.Fatalf("dry run: %q %v", out, err)
	}
	if _, _, err := openWith(t, db, cliOldKey); err != nil {
		t.Fatalf("a dry run changed the secrets: %v", err)
	}

	out, err = capture(t, "secrets", "rotate", "--old-key-file", oldFile)
	if err != nil || !strings.Contains(out, "re-sealed 2 secret(s)") {
		t.Fatalf("rotate: %q %v", out, err)
	}
	webhook, llmKey, err := openWith(t, db, cliNewKey)
	if err != nil || webhook != "webhook-hmac-secret-1234" || llmKey != "sk-rotate-me" {
		t.Fatalf("after rotation, the new key opens %q %q %v", webhook, llmKey, err)
	}
	if _, _, err := openWith(t, db, cliOldKey); !errors.Is(err, secrets.ErrDecrypt) {
		t.Fatalf("after rotation the old key still opens a secret: %v", err)
	}

	withStdin(t, cliOldKey+"\n", func() {
		out, err = capture(t, "secrets", "rotate", "--old-key-stdin")
	})
	if err != nil || !strings.Contains(out, "re-sealed 0 secret(s)") {
		t.Fatalf("second rotation with the same keys: %q %v", out, err)
	}
	if webhook, llmKey, err := openWith(t, db, cliNewKey); err != nil || webhook == "" || llmKey == "" {
		t.Fatalf("a second rotation broke the secrets: %v", err)
	}
}
