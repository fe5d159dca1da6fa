package settings_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
)

func newBox(t *testing.T, passphrase string) *secrets.Box {
	t.Helper()
	b, err := secrets.NewBox(passphrase)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustPut(t *testing.T, svc *settings.Service, key, body string) settings.View {
	t.Helper()
	v, err := svc.Put(context.Background(), key, []byte(body), "alice")
	if err != nil {
		t.Fatalf("put %s %s: %v", key, body, err)
	}
	return v
}

// asMap decodes JSON the way an API client would see it.
func asMap(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDefaultsWhenUnset(t *testing.T) {
	svc := settings.NewService(testenv.OpenStore(t), nil)
	ctx := context.Background()

	views, err := svc.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(views) != len(settings.Keys()) {
		t.Fatalf("list returned %d settings; want %d", len(views), len(settings.Keys()))
	}
	want := map[string]map[string]any{
		settings.KeyGeneral: asMap(t, `{"instance_name":"Vigil","allow_self_approval":false,"approval_expiry_hours":72,
			"session_idle_minutes":30,"session_absolute_hours":12,"dedup_window_minutes":10}`),
		settings.KeyRateLimits: asMap(t, `{"read_per_minute":100,"write_per_minute":20,"triage_per_minute":10}`),
		settings.KeyLLM: asMap(t, `{"enabled":false,"provider":"openai-compatible","base_url":"","model":"",
			"api_key":"","api_key_set":false,"timeout_seconds":30}`),
		settings.KeyOutbound: asMap(t, `{"allow_http":false,"allow_hosts":[],"http_request_hosts":[]}`),
		settings.KeyPackages: asMap(t, `{"require_signature":false,"trusted_keys":[]}`),
	}
	for i, v := range views {
		if v.Key != settings.Keys()[i] || v.UpdatedAt != nil || v.UpdatedBy != "" {
			t.Errorf("view %d: key %q updated %v by %q; want %q, never updated", i, v.Key, v.UpdatedAt, v.UpdatedBy, settings.Keys()[i])
		}
		if !reflect.DeepEqual(v.Value, want[v.Key]) {
			t.Errorf("%s defaults = %v; want %v", v.Key, v.Value, want[v.Key])
		}
	}

	if g, err := svc.General(ctx); err != nil || g != settings.DefaultGeneral() {
		t.Errorf("General() = %+v, %v", g, err)
	}
	if r, err := svc.RateLimits(ctx); err != nil || r != settings.DefaultRateLimits() {
		t.Errorf("RateLimits() = %+v, %v", r, err)
	}
	if l, err := svc.LLM(ctx); err != nil || l != settings.DefaultLLM() {
		t.Errorf("LLM() = %+v, %v", l, err)
	}
}

func TestPutRoundTrip(t *testing.T) {
	svc := settings.NewService(testenv.OpenStore(t), nil)
	ctx := context.Background()

	body := `{"instance_name":"Acme SOC","allow_self_approval":true,"approval_expiry_hours":24,
		"session_idle_minutes":15,"session_absolute_hours":8,"dedup_window_minutes":0}`
	put := mustPut(t, svc, settings.KeyGeneral, body)
	if !reflect.DeepEqual(put.Value, asMap(t, body)) || put.UpdatedAt == nil || put.UpdatedBy != "alice" {
		t.Fatalf("put view = %+v", put)
	}
	got, err := svc.Get(ctx, settings.KeyGeneral)
	if err != nil || !reflect.DeepEqual(got.Value, put.Value) || !got.UpdatedAt.Equal(*put.UpdatedAt) {
		t.Fatalf("get = %+v, %v; want %+v", got, err, put)
	}
	g, err := svc.General(ctx)
	want := settings.General{InstanceName: "Acme SOC", AllowSelfApproval: true, ApprovalExpiryHours: 24,
		SessionIdleMinutes: 15, SessionAbsoluteHours: 8, DedupWindowMinutes: 0}
	if err != nil || g != want {
		t.Fatalf("General() = %+v, %v; want %+v", g, err, want)
	}

	// A write replaces the whole setting: what it omits reverts to defaults.
	mustPut(t, svc, settings.KeyGeneral, `{"instance_name":"Renamed"}`)
	want = settings.DefaultGeneral()
	want.InstanceName = "Renamed"
	if g, err := svc.General(ctx); err != nil || g != want {
		t.Fatalf("after partial put General() = %+v, %v; want %+v", g, err, want)
	}

	mustPut(t, svc, settings.KeyRateLimits, `{"read_per_minute":1,"write_per_minute":100000,"triage_per_minute":3}`)
	if r, err := svc.RateLimits(ctx); err != nil || r != (settings.RateLimits{ReadPerMinute: 1, WritePerMinute: 100000, TriagePerMinute: 3}) {
		t.Fatalf("RateLimits() = %+v, %v", r, err)
	}

	mustPut(t, svc, settings.KeyLLM, `{"enabled":true,"provider":"ollama","base_url":"http://localhost:11434/v1","model":"llama3","timeout_seconds":300}`)
	wantLLM := settings.LLM{Enabled: true, Provider: "ollama", BaseURL: "http://localhost:11434/v1", Model: "llama3", TimeoutSeconds: 300}
	if l, err := svc.LLM(ctx); err != nil || l != wantLLM {
		t.Fatalf("LLM() = %+v, %v; want %+v", l, err, wantLLM)
	}

	v := mustPut(t, svc, settings.KeyOutbound, `{"allow_http":true,"allow_hosts":["127.0.0.1","hooks.internal:8443"]}`)
	if v.Value["allow_http"] != true || len(v.Value["allow_hosts"].([]any)) != 2 {
		t.Fatalf("outbound = %+v", v.Value)
	}
	if _, err := svc.Put(ctx, settings.KeyOutbound, []byte(`{"allow_hosts":["https://x.example/path"]}`), "alice"); err == nil {
		t.Fatal("an allowed host with a scheme and path was accepted")
	}

	key := base64.StdEncoding.EncodeToString(make([]byte, ed25519.PublicKeySize))
	mustPut(t, svc, settings.KeyPackages, `{"require_signature":true,"trusted_keys":["blue=`+key+`"]}`)
	if p, err := svc.Packages(ctx); err != nil || !p.RequireSignature || len(p.Keys()) != 1 || p.Keys()[0].Name != "blue" || p.Keys()[0].PublicKey != key {
		t.Fatalf("Packages() = %+v, %v", p, err)
	}
	for _, bad := range []string{`{"require_signature":true}`, `{"trusted_keys":["x=abc"]}`, `{"trusted_keys":["=` + key + `"]}`, `{"trusted_keys":["` + key + `"]}`} {
		if _, err := svc.Put(ctx, settings.KeyPackages, []byte(bad), "alice"); err == nil {
			t.Fatalf("packages setting %s was accepted", bad)
		}
	}

	views, err := svc.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range views {
		if v.UpdatedAt == nil || v.UpdatedBy != "alice" {
			t.Errorf("%s: written setting listed without its author and time: %+v", v.Key, v)
		}
	}
}

func TestUnknownKey(t *testing.T) {
	svc := settings.NewService(testenv.OpenStore(t), nil)
	ctx := context.Background()
	if _, err := svc.Get(ctx, "smtp"); !errors.Is(err, settings.ErrUnknownKey) {
		t.Fatalf("Get: %v; want ErrUnknownKey", err)
	}
	if _, err := svc.Put(ctx, "smtp", []byte(`{}`), "alice"); !errors.Is(err, settings.ErrUnknownKey) {
		t.Fatalf("Put: %v; want ErrUnknownKey", err)
	}
}

func TestEmptyBodyWritesDefaults(t *testing.T) {
	st := testenv.OpenStore(t)
	svc := settings.NewService(st, nil)
	v := mustPut(t, svc, settings.KeyRateLimits, `{}`)
	if v.UpdatedAt == nil || v.Value["read_per_minute"] != float64(100) {
		t.Fatalf("empty object must store the defaults: %+v", v)
	}
	if _, err := st.GetSetting(context.Background(), settings.KeyRateLimits); err != nil {
		t.Fatalf("nothing stored: %v", err)
	}
}

func TestCachedLLMSeesWritesThroughTheService(t *testing.T) {
	svc := settings.NewService(testenv.OpenStore(t), newBox(t, "a test passphrase of some length"))
	ctx := context.Background()
	mustPut(t, svc, settings.KeyLLM, `{"enabled": true, "base_url": "http://llm.internal/v1", "model": "first"}`)
	if l, err := svc.CachedLLM(ctx); err != nil || l.Model != "first" {
		t.Fatalf("cached llm: %+v %v", l, err)
	}
	mustPut(t, svc, settings.KeyLLM, `{"enabled": true, "base_url": "http://llm.internal/v1", "model": "second"}`)
	if l, err := svc.CachedLLM(ctx); err != nil || l.Model != "second" {
		t.Fatalf("a write through the service must apply at once: %+v %v", l, err)
	}
}
