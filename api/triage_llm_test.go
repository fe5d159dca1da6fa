package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestTriageUsesTheConfiguredLLMAndFallsBack runs triage through the
// workflow with the llm setting pointing at a local OpenAI-compatible
// server: a good answer is used; a malformed one falls back to the
// built-in analyzer with the reason recorded.
func TestTriageUsesTheConfiguredLLMAndFallsBack(t *testing.T) {
	var malformed atomic.Bool
	llmServer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&req) != nil || req.Model != "triage-model" || len(req.Messages) < 2 {
			http.Error(w, `{"error":{"message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		content := `{"classification":"malicious","confidence":0.97,"category":"credential_phishing","reasoning":"Look-alike sender and a credential page.","recommended_actions":["quarantine_email","block_sender"]}`
		if malformed.Load() {
			content = `{"classification":"very bad","confidence":7}`
		}
		_ = json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": content}}},
			"usage":   map[string]any{"prompt_tokens": 120, "completion_tokens": 30},
		})
	}))
	defer llmServer.Close()
	ctx := context.Background()
	put := func(body string) {
		if _, err := env.settings.Put(ctx, "llm", []byte(body), "test"); err != nil {
			t.Fatal(err)
		}
	}
	put(`{"enabled":true,"provider":"local","base_url":"` + llmServer.URL + `/v1","model":"triage-model","timeout_seconds":5}`)
	t.Cleanup(func() { put(`{"enabled":false}`) })

	key := keyFor(t, "analyst")
	id := createIncident(t, key, map[string]any{"incident_type": "phishing", "source": "mail", "severity": "high", "raw_data": phishingPayload})["id"].(string)
	r := call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, nil)
	expectStatus(t, r, http.StatusOK)
	if r.data()["analyzer"] != "llm:local" || r.data()["model"] != "triage-model" || r.data()["verdict"].(map[string]any)["confidence"] != 0.97 {
		t.Fatalf("LLM verdict not used: %s", r.Raw)
	}

	malformed.Store(true)
	r = call(t, http.MethodPost, "/api/incidents/"+id+"/triage", key, map[string]any{"force": true})
	expectStatus(t, r, http.StatusOK)
	d := r.data()
	if d["analyzer"] != "builtin" || d["fallback_reason"] == nil || d["verdict"].(map[string]any)["classification"] != "malicious" {
		t.Fatalf("malformed LLM answer did not fall back to the built-in analyzer: %s", r.Raw)
	}
}
