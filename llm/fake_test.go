package llm

import (
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// fakeProvider is an OpenAI-compatible chat-completions endpoint that
// rejects, as a real one would, any request it could not serve: wrong
// method or path (400), wrong content type (400), a missing or wrong bearer
// token (401), or a body without the model, the system and user messages
// or the JSON response format (400).
type fakeProvider struct {
	srv   *httptest.Server
	key   string // "" means no Authorization header is allowed
	model string

	mu       sync.Mutex
	reply    func(w http.ResponseWriter) // nil: answer with content
	content  string
	requests []seenRequest
	rejected []string
}

// seenRequest is a request the fake accepted.
type seenRequest struct {
	System, User string
	Body         map[string]any
}

func newFakeProvider(t *testing.T, key, model string) *fakeProvider {
	t.Helper()
	f := &fakeProvider{key: key, model: model}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// baseURL is the API root clients are configured with.
func (f *fakeProvider) baseURL() string { return f.srv.URL + "/v1" }

func (f *fakeProvider) setContent(content string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.content, f.reply = content, nil
}

func (f *fakeProvider) setReply(reply func(w http.ResponseWriter)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reply = reply
}

func (f *fakeProvider) seen() ([]seenRequest, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]seenRequest(nil), f.requests...), append([]string(nil), f.rejected...)
}

func (f *fakeProvider) reject(w http.ResponseWriter, status int, why string) {
	f.mu.Lock()
	f.rejected = append(f.rejected, why)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": why, "type": "invalid_request_error"}})
}

func (f *fakeProvider) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		f.reject(w, http.StatusBadRequest, fmt.Sprintf("unexpected %s %s", r.Method, r.URL.Path))
		return
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		f.reject(w, http.StatusBadRequest, "content type "+r.Header.Get("Content-Type"))
		return
	}
	auth, hasAuth := r.Header["Authorization"]
	if f.key == "" && hasAuth || f.key != "" && (len(auth) != 1 || auth[0] != "Bearer "+f.key) {
		f.reject(w, http.StatusUnauthorized, "bad credentials")
		return
	}
	raw, err := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	var body map[string]any
	if err != nil || json.Unmarshal(raw, &body) != nil {
		f.reject(w, http.StatusBadRequest, "body is not JSON")
		return
	}
	seen, why := checkBody(body, f.model)
	if why != "" {
		f.reject(w, http.StatusBadRequest, why)
		return
	}
	f.mu.Lock()
	f.requests = append(f.requests, seen)
	reply, content := f.reply, f.content
	f.mu.Unlock()
	if reply != nil {
		reply(w)
		return
	}
	writeCompletion(w, f.model, content)
}

// checkBody validates a chat-completions body and extracts the messages.
func checkBody(body map[string]any, model string) (seenRequest, string) {
	if m, _ := body["model"].(string); m == "" || m != model {
		return seenRequest{}, fmt.Sprintf("model %v, want %q", body["model"], model)
	}
	msgs, _ := body["messages"].([]any)
	var seen seenRequest
	seen.Body = body
	roles := ""
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		role, _ := mm["role"].(string)
		content, ok := mm["content"].(string)
		if !ok || content == "" {
			return seenRequest{}, "message content must be a non-empty string"
		}
		roles += role + " "
		switch role {
		case "system":
			seen.System = content
		case "user":
			seen.User = content
		}
	}
	if roles != "system user " {
		return seenRequest{}, "messages must be system then user, got " + roles
	}
	if rf, _ := body["response_format"].(map[string]any); rf == nil || rf["type"] != "json_object" {
		return seenRequest{}, "response_format.type must be json_object"
	}
	if temp, ok := body["temperature"].(float64); !ok || temp != 0 {
		return seenRequest{}, "temperature must be 0"
	}
	return seen, ""
}

// Token counts the fake reports for every completion.
const (
	fakePromptTokens     = 321
	fakeCompletionTokens = 54
)

func writeCompletion(w http.ResponseWriter, model, content string) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1767225600, "model": model,
		"choices": []any{map[string]any{
			"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content},
		}},
		"usage": map[string]any{
			"prompt_tokens": fakePromptTokens, "completion_tokens": fakeCompletionTokens,
			"total_tokens": fakePromptTokens + fakeCompletionTokens,
		},
	})
}
