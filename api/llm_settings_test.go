package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// recordingProvider is an OpenAI-compatible endpoint that records the
// Authorization header of every request it receives.
type recordingProvider struct {
	srv  *httptest.Server
	mu   sync.Mutex
	auth []string
}

func newRecordingProvider(t *testing.T) *recordingProvider {
	t.Helper()
	p := &recordingProvider{}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.auth = append(p.auth, r.Header.Get("Authorization"))
		p.mu.Unlock()
		content := `{"classification":"malicious","confidence":0.9,"category":"phishing","reasoning":"r","recommended_actions":[]}`
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
		})
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *recordingProvider) received() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.auth...)
}

// restoreLLM leaves the shared llm setting disabled and without a key.
func restoreLLM(t *testing.T) {
	t.Cleanup(func() {
		if _, err := env.settings.Put(context.Background(), settings.KeyLLM, []byte(`{"enabled":false,"api_key":""}`), "test"); err != nil {
			t.Error(err)
		}
	})
}

// triageOnce runs a forced triage through the workflow and returns its view.
func triageOnce(t *testing.T, incidentID string) map[string]any {
	t.Helper()
	r := call(t, http.MethodPost, "/api/incidents/"+incidentID+"/triage", keyFor(t, store.RoleAnalyst), map[string]any{"force": true})
	expectStatus(t, r, http.StatusOK)
	return r.data()
}

// An administrator (or whoever holds an admin session) who moves base_url
// to another origin without entering the key again must not get the
// stored key sent there.
func TestLLMKeyDoesNotFollowBaseURLToAnotherOrigin(t *testing.T) {
	restoreLLM(t)
	home, elsewhere := newRecordingProvider(t), newRecordingProvider(t)
	const storedKey = "sk-home-0123456789"
	putLLM := func(body map[string]any) response {
		return call(t, http.MethodPut, "/api/settings/llm", env.adminKey, body)
	}
	expectStatus(t, putLLM(map[string]any{"enabled": true, "base_url": home.srv.URL + "/v1", "model": "m", "api_key": storedKey}), http.StatusOK)
	id := createIncident(t, keyFor(t, store.RoleAnalyst), map[string]any{"incident_type": "phishing", "source": "mail", "severity": "high", "raw_data": phishingPayload})["id"].(string)
	if d := triageOnce(t, id); d["analyzer"] != "llm:openai-compatible" {
		t.Fatalf("triage did not use the configured model: %v", d)
	}
	if got := home.received(); len(got) != 1 || got[0] != "Bearer "+storedKey {
		t.Fatalf("home provider received %q", got)
	}

	read := call(t, http.MethodGet, "/api/settings/llm", env.adminKey, nil).data()
	moved := read["value"].(map[string]any)
	moved["base_url"] = elsewhere.srv.URL + "/v1"
	https := strings.Replace(home.srv.URL, "http://", "https://", 1) + "/v1"
	for name, body := range map[string]any{
		"key omitted":               map[string]any{"enabled": true, "base_url": elsewhere.srv.URL + "/v1", "model": "m"},
		"mask sent back":            map[string]any{"enabled": true, "base_url": elsewhere.srv.URL + "/v1", "model": "m", "api_key": settings.Mask},
		"setting read, url changed": map[string]any{"key": "llm", "value": moved, "updated_at": read["updated_at"]},
		"same host, other scheme":   map[string]any{"enabled": true, "base_url": https, "model": "m"},
	} {
		r := putLLM(body.(map[string]any))
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if _, ok := r.errDetails()["api_key"]; !ok {
			t.Fatalf("%s: 422 does not name api_key: %s", name, r.Raw)
		}
	}
	// A new path on the same origin keeps the key.
	expectStatus(t, putLLM(map[string]any{"enabled": true, "base_url": home.srv.URL + "/other/v1", "model": "m"}), http.StatusOK)
	triageOnce(t, id)
	if got := home.received(); len(got) != 2 || got[1] != "Bearer "+storedKey {
		t.Fatalf("home provider received %q after a path change", got)
	}

	// A document changed behind the API's back does not move the key either.
	row, err := env.store.GetSetting(context.Background(), settings.KeyLLM)
	if err != nil {
		t.Fatal(err)
	}
	value := row.Value.V
	value["base_url"] = elsewhere.srv.URL + "/v1"
	if _, err := env.store.PutSetting(context.Background(), settings.KeyLLM, value, "intruder"); err != nil {
		t.Fatal(err)
	}
	// A write that bypasses the settings service is seen once the cached
	// setting (the one saved above, key and origin matching) expires.
	time.Sleep(settings.LLMCacheTTL)
	if d := triageOnce(t, id); d["analyzer"] != "builtin" || d["fallback_reason"] == nil {
		t.Fatalf("triage with a key bound to another origin: %v", d)
	}

	// Entering a key for the new origin is how the move is done.
	expectStatus(t, putLLM(map[string]any{"enabled": true, "base_url": elsewhere.srv.URL + "/v1", "model": "m", "api_key": "sk-elsewhere"}), http.StatusOK)
	triageOnce(t, id)
	got := elsewhere.received()
	if len(got) == 0 || got[len(got)-1] != "Bearer sk-elsewhere" {
		t.Fatalf("new origin received %q", got)
	}
	for _, auth := range got {
		if strings.Contains(auth, storedKey) {
			t.Fatalf("the key entered for %s reached %s", home.srv.URL, elsewhere.srv.URL)
		}
	}
}

// Credentials in base_url are not shown, and the redacted value read back
// keeps the stored one.
func TestLLMBaseURLIsRedactedAndRoundTrips(t *testing.T) {
	restoreLLM(t)
	full := "http://gateway-user:url-password@127.0.0.1:9/v1?api-key=query-secret&tenant=t1"
	expectStatus(t, call(t, http.MethodPut, "/api/settings/llm", env.adminKey,
		map[string]any{"base_url": full, "model": "m", "api_key": "sk-redact"}), http.StatusOK)
	r := call(t, http.MethodGet, "/api/settings/llm", env.adminKey, nil)
	expectStatus(t, r, http.StatusOK)
	for _, secret := range []string{"gateway-user", "url-password", "query-secret", "t1", "sk-redact"} {
		if strings.Contains(string(r.Raw), secret) {
			t.Fatalf("GET shows %q: %s", secret, r.Raw)
		}
	}
	expectStatus(t, call(t, http.MethodPut, "/api/settings/llm", env.adminKey, r.data()), http.StatusOK)
	l, err := env.settings.LLM(context.Background())
	if err != nil || l.BaseURL != full || l.APIKey != "sk-redact" {
		t.Fatalf("after the round trip: base_url %q key %q, %v", l.BaseURL, l.APIKey, err)
	}
	// Editing around the mask cannot store the mask as a password.
	edited := strings.Replace(r.data()["value"].(map[string]any)["base_url"].(string), "/v1", "/v2", 1)
	bad := call(t, http.MethodPut, "/api/settings/llm", env.adminKey, map[string]any{"base_url": edited, "model": "m"})
	expectStatus(t, bad, http.StatusUnprocessableEntity)
	if _, ok := bad.errDetails()["base_url"]; !ok {
		t.Fatalf("edited masked URL: %s", bad.Raw)
	}
}

// Whatever a GET of a setting returns can be PUT back unchanged: read-only
// members are ignored, unknown ones are still refused.
func TestSettingsGetRoundTripsIntoPut(t *testing.T) {
	restoreLLM(t)
	ctx := context.Background()
	general, err := env.settings.Get(ctx, settings.KeyGeneral)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		b, _ := json.Marshal(general.Value)
		if _, err := env.settings.Put(ctx, settings.KeyGeneral, b, "test"); err != nil {
			t.Error(err)
		}
	})
	expectStatus(t, call(t, http.MethodPut, "/api/settings/general", env.adminKey, map[string]any{"instance_name": "Round Trip SOC"}), http.StatusOK)
	expectStatus(t, call(t, http.MethodPut, "/api/settings/llm", env.adminKey,
		map[string]any{"enabled": false, "base_url": "https://llm.example.com/v1", "model": "m", "api_key": "sk-round-trip"}), http.StatusOK)

	for _, key := range settings.Keys() {
		path := "/api/settings/" + key
		before := call(t, http.MethodGet, path, env.adminKey, nil)
		expectStatus(t, before, http.StatusOK)
		bodies := map[string]any{
			"the setting as read":  before.data(),
			"the whole answer":     before.Raw,
			"the value as read":    before.data()["value"],
			"read-only at the top": map[string]any{"updated_at": before.data()["updated_at"], "updated_by": "someone", "key": key},
		}
		for name, body := range bodies {
			if name == "read-only at the top" {
				merged := map[string]any{}
				for k, v := range before.data()["value"].(map[string]any) {
					merged[k] = v
				}
				for k, v := range body.(map[string]any) {
					merged[k] = v
				}
				body = merged
			}
			r := call(t, http.MethodPut, path, env.adminKey, body)
			expectStatus(t, r, http.StatusOK)
			after := call(t, http.MethodGet, path, env.adminKey, nil).data()["value"]
			if !reflect.DeepEqual(after, before.data()["value"]) {
				t.Fatalf("%s: PUT of %s changed it:\nbefore %v\nafter  %v", key, name, before.data()["value"], after)
			}
		}
		unknown := before.data()
		unknown["colour"] = "blue"
		if r := call(t, http.MethodPut, path, env.adminKey, unknown); r.Status != http.StatusUnprocessableEntity || r.errDetails()["colour"] == nil {
			t.Fatalf("%s: unknown member beside the value: %s", key, r.Raw)
		}
		inner := map[string]any{"colour": "blue"}
		if r := call(t, http.MethodPut, path, env.adminKey, inner); r.Status != http.StatusUnprocessableEntity || r.errDetails()["colour"] == nil {
			t.Fatalf("%s: unknown field: %s", key, r.Raw)
		}
		other := map[string]any{"key": "nope", "value": before.data()["value"]}
		if r := call(t, http.MethodPut, path, env.adminKey, other); r.Status != http.StatusUnprocessableEntity || r.errDetails()["key"] == nil {
			t.Fatalf("%s: another setting's key: %s", key, r.Raw)
		}
	}
	l, err := env.settings.LLM(ctx)
	if err != nil || l.APIKey != "sk-round-trip" {
		t.Fatalf("the LLM key did not survive the round trips: %q, %v", l.APIKey, err)
	}
}
