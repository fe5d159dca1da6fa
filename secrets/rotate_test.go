package secrets_test

import (
	"encoding/base64"
	"errors"
	"testing"

	"github.com/vigil-soc/vigil/secrets"
)

func TestNewRotationRefusesMissingOrIdenticalKeys(t *testing.T) {
	raw := rawKey(7)
	a := mustBox(t, passphrase)
	cases := []struct {
		name     string
		old, new *secrets.Box
		want     error
	}{
		{"no old key", nil, a, secrets.ErrNoKey},
		{"no new key", a, nil, secrets.ErrNoKey},
		{"same passphrase", a, mustBox(t, passphrase), secrets.ErrSameKey},
		{"same bytes, two alphabets", mustBox(t, base64.StdEncoding.EncodeToString(raw)),
			mustBox(t, base64.RawURLEncoding.EncodeToString(raw)), secrets.ErrSameKey},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := secrets.NewRotation(tc.old, tc.new); !errors.Is(err, tc.want) {
				t.Fatalf("NewRotation: %v; want %v", err, tc.want)
			}
		})
	}
}

func TestRotationReseal(t *testing.T) {
	oldBox, newBox, other := mustBox(t, passphrase), mustBox(t, "another passphrase, also long"), mustBox(t, "a third passphrase, long too")
	r, err := secrets.NewRotation(oldBox, newBox)
	if err != nil {
		t.Fatal(err)
	}
	seal := func(b *secrets.Box, context string) string {
		s, err := b.Seal("sk-secret", context)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	underOld, underNew := seal(oldBox, apiKeyCtx), seal(newBox, apiKeyCtx)
	cases := []struct {
		name        string
		sealed      string
		context     string
		wantChanged bool
		wantErr     error
	}{
		{"under the old key", underOld, apiKeyCtx, true, nil},
		{"already under the new key", underNew, apiKeyCtx, false, nil},
		{"under a third key", seal(other, apiKeyCtx), apiKeyCtx, false, secrets.ErrDecrypt},
		{"under the old key, other context", underOld, "webhook.secret", false, secrets.ErrDecrypt},
		{"malformed", "v0:abc", apiKeyCtx, false, secrets.ErrMalformed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := r.Reseal(tc.sealed, tc.context)
			if !errors.Is(err, tc.wantErr) || changed != tc.wantChanged {
				t.Fatalf("Reseal: changed %v, err %v; want %v, %v", changed, err, tc.wantChanged, tc.wantErr)
			}
			if err != nil {
				return
			}
			if plain, err := newBox.Open(out, tc.context); err != nil || plain != "sk-secret" {
				t.Fatalf("result does not open under the new key: %q %v", plain, err)
			}
			if _, err := oldBox.Open(out, tc.context); !errors.Is(err, secrets.ErrDecrypt) {
				t.Fatalf("result still opens under the old key: %v", err)
			}
			if !changed && out != tc.sealed {
				t.Fatal("an unchanged value was rewritten")
			}
		})
	}
}
