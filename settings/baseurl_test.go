package settings_test

import (
	"context"
	"errors"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/settings"
)

func TestOrigin(t *testing.T) {
	tests := []struct{ a, b string }{
		{"https://api.example.com/v1", "HTTPS://API.example.com:443/other"},
		{"http://127.0.0.1/v1", "http://127.0.0.1:80"},
		{"http://u:p@host:8080/v1?x=1", "http://host:8080"},
		{"http://[::1]:11434/v1", "http://[::1]:11434/"},
	}
	for _, tc := range tests {
		if settings.Origin(tc.a) != settings.Origin(tc.b) || settings.Origin(tc.a) == "" {
			t.Errorf("Origin(%q) = %q, Origin(%q) = %q; want equal", tc.a, settings.Origin(tc.a), tc.b, settings.Origin(tc.b))
		}
	}
	different := [][2]string{
		{"https://api.example.com/v1", "http://api.example.com/v1"},
		{"https://api.example.com/v1", "https://api.example.com:8443/v1"},
		{"https://api.example.com/v1", "https://api.example.com.evil.test/v1"},
		{"http://127.0.0.1:11434/v1", "http://localhost:11434/v1"},
		{"http://host/v1", ""},
	}
	for _, tc := range different {
		if settings.Origin(tc[0]) == settings.Origin(tc[1]) {
			t.Errorf("Origin(%q) == Origin(%q) = %q", tc[0], tc[1], settings.Origin(tc[0]))
		}
	}
}

func TestRedactURL(t *testing.T) {
	m := settings.Mask
	tests := map[string]string{
		"https://api.example.com/v1":                        "https://api.example.com/v1",
		"http://user:pw@host:8080/v1":                       "http://" + m + "@host:8080/v1",
		"http://token@host/v1":                              "http://" + m + "@host/v1",
		"https://gw.example.com/v1?api-key=s3cret&region=x": "https://gw.example.com/v1?api-key=" + m + "&region=" + m,
		"https://gw.example.com/v1?flag":                    "https://gw.example.com/v1?flag=" + m,
		"https://gw.example.com/v1#frag":                    "https://gw.example.com/v1#" + m,
	}
	for in, want := range tests {
		if got := settings.RedactURL(in); got != want {
			t.Errorf("RedactURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKeyBindsToOrigin(t *testing.T) {
	st := testenv.OpenStore(t)
	svc := settings.NewService(st, newBox(t, "a test passphrase of some length"))
	ctx := context.Background()
	mustPut(t, svc, settings.KeyLLM, `{"enabled":true,"base_url":"https://api.example.com/v1","model":"m","api_key":"sk-1"}`)

	steps := []struct {
		name, body string
		refused    string // field named in the 422, "" for accepted
		wantKey    string
	}{
		{"other host", `{"enabled":true,"base_url":"https://evil.example/v1","model":"m"}`, "api_key", "sk-1"},
		{"other port", `{"enabled":true,"base_url":"https://api.example.com:8443/v1","model":"m","api_key":"` + settings.Mask + `"}`, "api_key", "sk-1"},
		{"same origin, other path", `{"enabled":true,"base_url":"https://API.example.com:443/v2","model":"m"}`, "", "sk-1"},
		{"base url cleared keeps the key's origin", `{"enabled":false,"model":"m"}`, "", "sk-1"},
		{"then set elsewhere", `{"enabled":false,"base_url":"https://evil.example/v1"}`, "api_key", "sk-1"},
		{"then set back", `{"enabled":true,"base_url":"https://api.example.com/v1","model":"m"}`, "", "sk-1"},
		{"moved with a new key", `{"enabled":true,"base_url":"https://other.example/v1","model":"m","api_key":"sk-2"}`, "", "sk-2"},
		{"moved with the key cleared", `{"enabled":true,"base_url":"https://third.example/v1","model":"m","api_key":""}`, "", ""},
	}
	for _, step := range steps {
		_, err := svc.Put(ctx, settings.KeyLLM, []byte(step.body), "admin")
		var verr *settings.ValidationError
		switch {
		case step.refused == "" && err != nil:
			t.Fatalf("%s: %v", step.name, err)
		case step.refused != "" && (!errors.As(err, &verr) || verr.Fields[step.refused] == ""):
			t.Fatalf("%s: err = %v, want a 422 naming %s", step.name, err, step.refused)
		}
		l, err := svc.LLM(ctx)
		if err != nil || l.APIKey != step.wantKey {
			t.Fatalf("%s: key %q, %v; want %q", step.name, l.APIKey, err, step.wantKey)
		}
	}
}
