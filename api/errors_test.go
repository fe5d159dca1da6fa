package api_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

func TestErrorEnvelopes(t *testing.T) {
	key := keyFor(t, "analyst")
	huge := `{"incident_type":"x","source":"y","severity":"low","raw_data":{"blob":"` + strings.Repeat("a", 1<<20) + `"}}`
	cases := []struct {
		name, method, path, body string
		status                   int
		code                     string
	}{
		{"unknown route", http.MethodGet, "/api/nothing-here", "", 404, "not_found"},
		{"unknown top-level route", http.MethodGet, "/nope", "", 404, "not_found"},
		{"unknown incident", http.MethodGet, "/api/incidents/6f1c1f7e-0000-4000-8000-000000000000", "", 404, "not_found"},
		{"malformed id", http.MethodGet, "/api/incidents/'; drop table incidents;--", "", 404, "not_found"},
		{"method not allowed", http.MethodPatch, "/api/incidents", "", 405, "method_not_allowed"},
		{"body too large", http.MethodPost, "/api/incidents", huge, 413, "request_too_large"},
		{"malformed json", http.MethodPost, "/api/incidents", `{"a":`, 400, "malformed_json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var body any
			if tc.body != "" {
				body = tc.body
			}
			r := call(t, tc.method, strings.ReplaceAll(tc.path, " ", "%20"), key, body)
			expectStatus(t, r, tc.status)
			if r.errCode() != tc.code {
				t.Fatalf("code %q, want %q: %s", r.errCode(), tc.code, r.Raw)
			}
			e := r.Body["error"].(map[string]any)
			if msg, _ := e["message"].(string); msg == "" {
				t.Fatal("error without a message")
			}
		})
	}
}

func TestBodyLimitAppliesWithoutContentLength(t *testing.T) {
	key := keyFor(t, "analyst")
	pr, pw := io.Pipe()
	go func() {
		_, _ = pw.Write([]byte(`{"incident_type":"x","source":"y","severity":"low","raw_data":{"blob":"`))
		_, _ = pw.Write([]byte(strings.Repeat("b", 2<<20)))
		_, _ = pw.Write([]byte(`"}}`))
		_ = pw.Close()
	}()
	req, _ := http.NewRequest(http.MethodPost, env.server.URL+"/api/incidents", pr)
	req.Header.Set("Authorization", "Bearer "+key)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked oversized body: %d, want 413", res.StatusCode)
	}
}
