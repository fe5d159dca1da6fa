// Package e2e drives the dashboard in a real Chromium against a real
// `vigil serve` (in process) with a real Temporal dev server.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
)

const (
	adminKey     = "e2e-test-admin-key-0123456789abcdef"
	userPassword = "correct horse battery staple"
)

// server is a running `vigil serve` and the bootstrap admin key to
// arrange what the browser then sees.
type server struct {
	base string
}

// startServer runs vigil serve until the test ends.
func startServer(t *testing.T) *server {
	t.Helper()
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tmp.Stop)
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.HTTPAddr = ln.Addr().String()
	ln.Close()
	cfg.DatabaseURL = testenv.DatabaseURL(t)
	cfg.TemporalAddress = tmp.Server.FrontendHostPort()
	cfg.BootstrapAdminKey = adminKey
	cfg.SecretKey = "e2e-test-secret-key-0123456789abcdef"
	cfg.ShutdownTimeout = 10 * time.Second

	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- app.Run(runCtx, cfg, app.ModeServe, testenv.Logger()) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Error("vigil serve did not stop")
		}
	})
	s := &server{base: "http://" + cfg.HTTPAddr}
	testenv.Eventually(t, 60*time.Second, func() bool {
		res, err := http.Get(s.base + "/ready")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, "vigil serve never became ready")
	return s
}

// api calls the JSON API with the admin key and returns the "data"
// member; any status other than want fails the test.
func (s *server) api(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	var rd bytes.Buffer
	if body != nil {
		_ = json.NewEncoder(&rd).Encode(body)
	}
	req, _ := http.NewRequest(method, s.base+path, &rd)
	req.Header.Set("Authorization", "Bearer "+adminKey)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	if res.StatusCode != want {
		t.Fatalf("%s %s: %d %v, want %d", method, path, res.StatusCode, out, want)
	}
	data, _ := out["data"].(map[string]any)
	return data
}

// list calls a JSON API list with the admin key and returns its rows.
func (s *server) list(t *testing.T, path string) []map[string]any {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, s.base+path, nil)
	req.Header.Set("Authorization", "Bearer "+adminKey)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Data []map[string]any `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
	}
	return out.Data
}

// createUser adds a user with the shared test password.
func (s *server) createUser(t *testing.T, name, role string) {
	t.Helper()
	s.api(t, http.MethodPost, "/api/users", map[string]any{
		"username": name, "email": name + "@example.com", "role": role, "password": userPassword,
	}, http.StatusCreated)
}

// chromiumPath is where Debian installs Chromium.
const chromiumPath = "/usr/bin/chromium"

// requireBrowser skips without Chromium unless VIGIL_REQUIRE_BROWSER
// says the browser tests must run (CI sets it after installing it).
func requireBrowser(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		if os.Getenv("VIGIL_REQUIRE_BROWSER") != "" {
			t.Fatalf("VIGIL_REQUIRE_BROWSER is set but %s is missing: %v", chromiumPath, err)
		}
		t.Skipf("%s not installed; install chromium or set VIGIL_REQUIRE_BROWSER to insist", chromiumPath)
	}
}
