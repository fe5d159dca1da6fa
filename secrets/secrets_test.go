package secrets_test

import (
	"encoding/base64"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/secrets"
)

const (
	passphrase = "correct horse battery staple"
	apiKeyCtx  = "llm.api_key"
)

func mustBox(t *testing.T, key string) *secrets.Box {
	t.Helper()
	b, err := secrets.NewBox(key)
	if err != nil {
		t.Fatalf("NewBox(%q): %v", key, err)
	}
	return b
}

func rawKey(fill byte) []byte {
	k := make([]byte, 32)
	for i := range k {
		k[i] = fill + byte(i)
	}
	return k
}

func TestRoundTrip(t *testing.T) {
	b := mustBox(t, passphrase)
	for _, plain := range []string{"sk-test-1234567890", "", "ünïcødé ✓", strings.Repeat("x", 4096)} {
		sealed, err := b.Seal(plain, apiKeyCtx)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(sealed, "v1:") {
			t.Fatalf("sealed value %q lacks the v1: prefix", sealed)
		}
		if plain != "" && strings.Contains(sealed, plain) {
			t.Fatal("sealed value contains the plaintext")
		}
		got, err := b.Open(sealed, apiKeyCtx)
		if err != nil || got != plain {
			t.Fatalf("Open = %q, %v; want %q", got, err, plain)
		}
	}
}

func TestKeyForms(t *testing.T) {
	key := rawKey(1)
	forms := map[string]string{
		"std padded":   base64.StdEncoding.EncodeToString(key),
		"std raw":      base64.RawStdEncoding.EncodeToString(key),
		"url padded":   base64.URLEncoding.EncodeToString(key),
		"url raw":      base64.RawURLEncoding.EncodeToString(key),
		"with newline": base64.StdEncoding.EncodeToString(key) + "\n",
	}
	ref := mustBox(t, forms["std padded"])
	sealed, err := ref.Seal("secret", apiKeyCtx)
	if err != nil {
		t.Fatal(err)
	}
	for name, form := range forms {
		t.Run(name, func(t *testing.T) {
			got, err := mustBox(t, form).Open(sealed, apiKeyCtx)
			if err != nil || got != "secret" {
				t.Fatalf("every encoding of one key must open the same values: %q, %v", got, err)
			}
		})
	}

	// A passphrase is derived, not used as raw bytes, so it yields a
	// different key from a base64 key even when both are accepted.
	if _, err := mustBox(t, passphrase).Open(sealed, apiKeyCtx); !errors.Is(err, secrets.ErrDecrypt) {
		t.Fatalf("passphrase box opened a value sealed under a base64 key: %v", err)
	}
	again, err := mustBox(t, passphrase).Open(mustSeal(t, mustBox(t, passphrase), "p"), apiKeyCtx)
	if err != nil || again != "p" {
		t.Fatalf("a passphrase must derive the same key every time: %q, %v", again, err)
	}
}

func mustSeal(t *testing.T, b *secrets.Box, plain string) string {
	t.Helper()
	s, err := b.Seal(plain, apiKeyCtx)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNewBoxRejectsWeakKeys(t *testing.T) {
	for _, key := range []string{
		"",
		"short",
		"fifteen chars!!",
		base64.StdEncoding.EncodeToString(rawKey(0)[:8]), // base64, but of 8 bytes
		"   padded   ",
	} {
		_, err := secrets.NewBox(key)
		if err == nil {
			t.Errorf("NewBox(%q) accepted a weak key", key)
			continue
		}
		if !strings.Contains(err.Error(), "32 bytes") || !strings.Contains(err.Error(), "16 characters") {
			t.Errorf("NewBox(%q) error does not say what is expected: %v", key, err)
		}
	}
	if _, err := secrets.NewBox("sixteen chars!!!"); err != nil {
		t.Fatalf("a 16-character passphrase must be accepted: %v", err)
	}
}

func TestOpenRejects(t *testing.T) {
	b := mustBox(t, passphrase)
	sealed := mustSeal(t, b, "sk-live-abcdef")
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(sealed, "v1:"))
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) string {
		c := append([]byte(nil), raw...)
		c[i] ^= 0x01
		return "v1:" + base64.RawURLEncoding.EncodeToString(c)
	}
	other := mustBox(t, base64.StdEncoding.EncodeToString(rawKey(9)))

	tests := []struct {
		name    string
		box     *secrets.Box
		sealed  string
		context string
		want    error
	}{
		{"flipped nonce byte", b, flip(0), apiKeyCtx, secrets.ErrDecrypt},
		{"flipped ciphertext byte", b, flip(14), apiKeyCtx, secrets.ErrDecrypt},
		{"flipped tag byte", b, flip(len(raw) - 1), apiKeyCtx, secrets.ErrDecrypt},
		{"wrong key", other, sealed, apiKeyCtx, secrets.ErrDecrypt},
		{"wrong context", b, sealed, "smtp.password", secrets.ErrDecrypt},
		{"no prefix", b, strings.TrimPrefix(sealed, "v1:"), apiKeyCtx, secrets.ErrMalformed},
		{"future version", b, "v2:" + strings.TrimPrefix(sealed, "v1:"), apiKeyCtx, secrets.ErrMalformed},
		{"not base64", b, "v1:!!!!", apiKeyCtx, secrets.ErrMalformed},
		{"truncated", b, "v1:" + base64.RawURLEncoding.EncodeToString(raw[:20]), apiKeyCtx, secrets.ErrMalformed},
		{"empty", b, "", apiKeyCtx, secrets.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.box.Open(tt.sealed, tt.context)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Open = %q, %v; want %v", got, err, tt.want)
			}
			if strings.Contains(err.Error(), "sk-live") {
				t.Fatal("error reveals the plaintext")
			}
		})
	}
}

func TestNoncesDiffer(t *testing.T) {
	b := mustBox(t, passphrase)
	first, second := mustSeal(t, b, "same text"), mustSeal(t, b, "same text")
	if first == second {
		t.Fatal("two seals of the same text are identical: the nonce is not random")
	}
	a, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(first, "v1:"))
	c, _ := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(second, "v1:"))
	if string(a[:12]) == string(c[:12]) {
		t.Fatal("nonces repeat")
	}
}

func TestNilBox(t *testing.T) {
	var b *secrets.Box
	if _, err := b.Seal("x", apiKeyCtx); !errors.Is(err, secrets.ErrNoKey) {
		t.Fatalf("nil Seal: %v", err)
	}
	if _, err := b.Open("v1:AAAA", apiKeyCtx); !errors.Is(err, secrets.ErrNoKey) {
		t.Fatalf("nil Open: %v", err)
	}
	if secrets.ErrNoKey.Error() != "VIGIL_SECRET_KEY is not set" {
		t.Fatalf("ErrNoKey = %q", secrets.ErrNoKey)
	}
}

func TestFromEnv(t *testing.T) {
	t.Setenv(secrets.EnvVar, "")
	if b, err := secrets.FromEnv(); b != nil || err != nil {
		t.Fatalf("unset key: box=%v err=%v; want nil, nil", b, err)
	}
	t.Setenv(secrets.EnvVar, "too short")
	if _, err := secrets.FromEnv(); err == nil {
		t.Fatal("a short key from the environment was accepted")
	}
	t.Setenv(secrets.EnvVar, passphrase)
	b, err := secrets.FromEnv()
	if err != nil || b == nil {
		t.Fatalf("FromEnv: %v", err)
	}
	if got, err := mustBox(t, passphrase).Open(mustSeal(t, b, "v"), apiKeyCtx); err != nil || got != "v" {
		t.Fatalf("FromEnv key differs from NewBox of the same value: %q, %v", got, err)
	}
}
