package settings_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// rawLLMRow reads the stored llm document as the database holds it.
func rawLLMRow(t *testing.T, st *store.Store) string {
	t.Helper()
	var raw string
	err := st.DB().Table("settings").Select("value").Where(map[string]any{"key": settings.KeyLLM}).Row().Scan(&raw)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// assertHidden fails if any read path for display shows a plaintext.
func assertHidden(t *testing.T, svc *settings.Service, plaintexts ...string) {
	t.Helper()
	ctx := context.Background()
	got, err := svc.Get(ctx, settings.KeyLLM)
	if err != nil {
		t.Fatal(err)
	}
	list, err := svc.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal([]any{got, list})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plaintexts {
		if strings.Contains(string(out), p) {
			t.Fatalf("a view reveals the secret %q: %s", p, out)
		}
	}
}

func TestSecretLifecycle(t *testing.T) {
	st := testenv.OpenStore(t)
	svc := settings.NewService(st, newBox(t, "a test passphrase of some length"))
	ctx := context.Background()
	const first, second = "sk-first-0123456789", "sk-second-9876543210"
	base := `"enabled":true,"base_url":"https://api.example.com/v1","model":"gpt"`

	steps := []struct {
		name    string
		body    string
		wantKey string
	}{
		{"set", `{` + base + `,"api_key":"` + first + `"}`, first},
		{"omitted keeps", `{` + base + `}`, first},
		{"mask keeps", `{` + base + `,"api_key":"` + settings.Mask + `","api_key_set":true}`, first},
		{"replace", `{` + base + `,"api_key":"` + second + `"}`, second},
		{"other fields change, key kept", `{"enabled":false,"model":"other"}`, second},
		{"empty clears", `{` + base + `,"api_key":""}`, ""},
		{"mask with nothing stored", `{` + base + `,"api_key":"` + settings.Mask + `"}`, ""},
		{"set again", `{` + base + `,"api_key":"` + first + `"}`, first},
	}
	for _, step := range steps {
		v := mustPut(t, svc, settings.KeyLLM, step.body)
		set := step.wantKey != ""
		wantShown := ""
		if set {
			wantShown = settings.Mask
		}
		if v.Value["api_key"] != wantShown || v.Value["api_key_set"] != set {
			t.Fatalf("%s: view shows api_key=%v api_key_set=%v", step.name, v.Value["api_key"], v.Value["api_key_set"])
		}
		l, err := svc.LLM(ctx)
		if err != nil || l.APIKey != step.wantKey {
			t.Fatalf("%s: LLM().APIKey = %q, %v; want %q", step.name, l.APIKey, err, step.wantKey)
		}

		raw := rawLLMRow(t, st)
		if strings.Contains(raw, first) || strings.Contains(raw, second) {
			t.Fatalf("%s: plaintext stored: %s", step.name, raw)
		}
		if strings.Contains(raw, `"api_key"`) || strings.Contains(raw, `"api_key_set"`) {
			t.Fatalf("%s: display fields stored: %s", step.name, raw)
		}
		row, err := st.GetSetting(ctx, settings.KeyLLM)
		if err != nil {
			t.Fatal(err)
		}
		sealed, _ := row.Value.V["api_key_encrypted"].(string)
		if set != strings.HasPrefix(sealed, "v1:") {
			t.Fatalf("%s: api_key_encrypted = %q; want it present: %v", step.name, sealed, set)
		}
		assertHidden(t, svc, first, second)
	}
}

func TestKeptSecretIsNotResealed(t *testing.T) {
	st := testenv.OpenStore(t)
	svc := settings.NewService(st, newBox(t, "a test passphrase of some length"))
	mustPut(t, svc, settings.KeyLLM, `{"api_key":"sk-kept"}`)
	before := rawLLMRow(t, st)
	mustPut(t, svc, settings.KeyLLM, `{}`)
	if after := rawLLMRow(t, st); after != before {
		t.Fatalf("keeping the key changed the stored document:\n%s\n%s", before, after)
	}
}

func TestSecretsWithoutKey(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	noKey := settings.NewService(st, nil)

	_, err := noKey.Put(ctx, settings.KeyLLM, []byte(`{"api_key":"sk-nokey","timeout_seconds":0}`), "alice")
	var verr *settings.ValidationError
	if !errors.As(err, &verr) || !strings.Contains(verr.Fields["api_key"], "VIGIL_SECRET_KEY must be set") {
		t.Fatalf("secret without a key: %v; want a ValidationError on api_key", err)
	}
	if verr.Fields["timeout_seconds"] == "" {
		t.Fatalf("other bad fields must be reported alongside: %v", verr.Fields)
	}
	if strings.Contains(err.Error(), "sk-nokey") {
		t.Fatal("the error reveals the secret")
	}
	// Settings without a secret still work with no key configured.
	mustPut(t, noKey, settings.KeyLLM, `{"model":"m","api_key":""}`)
	mustPut(t, noKey, settings.KeyLLM, `{"model":"m","api_key":"`+settings.Mask+`"}`)

	// A secret written while a key was configured stays visible as set,
	// survives writes that keep it, and is refused rather than blanked when
	// it cannot be opened.
	withKey := settings.NewService(st, newBox(t, "a test passphrase of some length"))
	mustPut(t, withKey, settings.KeyLLM, `{"api_key":"sk-stored"}`)
	v := mustPut(t, noKey, settings.KeyLLM, `{"model":"changed"}`)
	if v.Value["api_key_set"] != true || v.Value["api_key"] != settings.Mask {
		t.Fatalf("view without a key: %v", v.Value)
	}
	if _, err := noKey.LLM(ctx); !errors.Is(err, secrets.ErrNoKey) {
		t.Fatalf("LLM() without a key: %v; want ErrNoKey", err)
	}
	rotated := settings.NewService(st, newBox(t, "a different passphrase entirely"))
	if _, err := rotated.LLM(ctx); !errors.Is(err, secrets.ErrDecrypt) {
		t.Fatalf("LLM() with the wrong key: %v; want ErrDecrypt", err)
	}
	if l, err := withKey.LLM(ctx); err != nil || l.APIKey != "sk-stored" || l.Model != "changed" {
		t.Fatalf("LLM() = %+v, %v", l, err)
	}
}

func TestLLMValueNeverEncodesKey(t *testing.T) {
	b, err := json.Marshal(settings.LLM{APIKey: "sk-in-memory"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "sk-in-memory") {
		t.Fatalf("LLM encodes its key: %s", b)
	}
}
