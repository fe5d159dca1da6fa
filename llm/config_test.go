package llm

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/triage"
)

func TestConfigFromSettings(t *testing.T) {
	tests := []struct {
		name    string
		saved   string            // llm setting body; empty: never saved
		env     map[string]string // VIGIL_LLM_* values
		enabled bool
		want    Config
	}{
		{
			name: "never saved, no environment", enabled: false,
			want: Config{Provider: "openai-compatible", Timeout: 30 * time.Second},
		},
		{
			name: "never saved, environment enables", enabled: true,
			env:  map[string]string{EnvBaseURL: "http://127.0.0.1:11434/v1", EnvModel: "llama3.1", EnvAPIKey: "env-key"},
			want: Config{Provider: "openai-compatible", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", APIKey: "env-key", Timeout: 30 * time.Second},
		},
		{
			name: "never saved, model missing from environment", enabled: false,
			env:  map[string]string{EnvBaseURL: "http://127.0.0.1:11434/v1"},
			want: Config{Provider: "openai-compatible", BaseURL: "http://127.0.0.1:11434/v1", Timeout: 30 * time.Second},
		},
		{
			name: "saved enabled wins over the environment", enabled: true,
			saved: `{"enabled": true, "provider": "openai", "base_url": "https://api.example.com/v1", "model": "gpt-x", "api_key": "stored-key", "timeout_seconds": 12}`,
			env:   map[string]string{EnvBaseURL: "http://127.0.0.1:11434/v1", EnvModel: "llama3.1", EnvAPIKey: "env-key"},
			want:  Config{Provider: "openai", BaseURL: "https://api.example.com/v1", Model: "gpt-x", APIKey: "stored-key", Timeout: 12 * time.Second},
		},
		{
			name: "saved disabled stays off despite the environment", enabled: false,
			saved: `{"enabled": false}`,
			env:   map[string]string{EnvBaseURL: "http://127.0.0.1:11434/v1", EnvModel: "llama3.1"},
			want:  Config{Provider: "openai-compatible", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", Timeout: 30 * time.Second},
		},
		{
			name: "the environment's key never goes to a saved base URL", enabled: true,
			saved: `{"enabled": true, "base_url": "http://llm.internal/v1", "model": "m"}`,
			env:   map[string]string{EnvBaseURL: "http://127.0.0.1:11434/v1", EnvAPIKey: "env-key"},
			want:  Config{Provider: "openai-compatible", BaseURL: "http://llm.internal/v1", Model: "m", Timeout: 30 * time.Second},
		},
		{
			name: "a saved key never goes to the environment's base URL", enabled: false,
			saved: `{"enabled": false, "api_key": "stored-key"}`,
			env:   map[string]string{EnvBaseURL: "http://127.0.0.1:11434/v1", EnvModel: "llama3.1"},
			want:  Config{Provider: "openai-compatible", BaseURL: "http://127.0.0.1:11434/v1", Model: "llama3.1", Timeout: 30 * time.Second},
		},
		{
			name: "the environment's key without its base URL goes nowhere", enabled: false,
			env:  map[string]string{EnvAPIKey: "env-key"},
			want: Config{Provider: "openai-compatible", Timeout: 30 * time.Second},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{EnvBaseURL, EnvModel, EnvAPIKey} {
				t.Setenv(k, tc.env[k])
			}
			box, err := secrets.NewBox("a test passphrase of some length")
			if err != nil {
				t.Fatal(err)
			}
			svc := settings.NewService(testenv.OpenStore(t), box)
			if tc.saved != "" {
				if _, err := svc.Put(context.Background(), settings.KeyLLM, []byte(tc.saved), "admin"); err != nil {
					t.Fatal(err)
				}
			}
			cfg, enabled, err := ConfigFromSettings(svc)(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if enabled != tc.enabled || cfg != tc.want {
				t.Errorf("got %+v enabled=%v\nwant %+v enabled=%v", cfg, enabled, tc.want, tc.enabled)
			}
		})
	}
}

func TestConfigFromSettingsUnreadableKey(t *testing.T) {
	st := testenv.OpenStore(t)
	box, _ := secrets.NewBox("the first passphrase, long enough")
	if _, err := settings.NewService(st, box).Put(context.Background(), settings.KeyLLM,
		[]byte(`{"enabled": true, "base_url": "http://llm.internal/v1", "model": "m", "api_key": "k"}`), "admin"); err != nil {
		t.Fatal(err)
	}
	other, _ := secrets.NewBox("another passphrase, also long")
	a := &Analyzer{Config: ConfigFromSettings(settings.NewService(st, other))}
	got, err := a.Analyze(context.Background(), phishing, triage.Indicators{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Analyzer != "builtin" || got.FallbackReason == "" {
		t.Errorf("a key that cannot be opened must fall back with a reason: %+v", got)
	}
}
