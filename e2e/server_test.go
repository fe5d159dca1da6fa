// Package e2e drives the dashboard in a real Chromium against a real
// `vigil serve` (in process) with a real Temporal dev server.
package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
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

// shared is the one vigil serve every browser test of the package uses:
// the process's metrics registry takes one server, and one Temporal dev
// server is enough. TestMain stops it.
var shared struct {
	once sync.Once
	srv  *server
	err  error
	stop func()
}

// startServer returns the package's running vigil serve, starting it on
// first use.
func startServer(t *testing.T) *server {
	t.Helper()
	shared.once.Do(func() { shared.srv, shared.stop, shared.err = launch() })
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.srv
}

// launch starts a Temporal dev server and vigil serve, and waits until
// it is ready.
func launch() (*server, func(), error) {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		return nil, nil, err
	}
	cfg, err := app.ConfigFromEnv()
	if err != nil {
		tmp.Stop()
		return nil, nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tmp.Stop()
		return nil, nil, err
	}
	cfg.HTTPAddr = ln.Addr().String()
	ln.Close()
	cfg.DatabaseURL = databaseURL
	cfg.TemporalAddress = tmp.Server.FrontendHostPort()
	cfg.BootstrapAdminKey = adminKey
	cfg.SecretKey = "e2e-test-secret-key-0123456789abcdef"
	cfg.ShutdownTimeout = 10 * time.Second

	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- app.Run(runCtx, cfg, app.ModeServe, testenv.Logger()) }()
	stop := func() {
		cancel()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			fmt.Fprintln(os.Stderr, "vigil serve did not stop")
		}
		tmp.Stop()
	}
	s := &server{base: "http://" + cfg.HTTPAddr}
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(s.base + "/ready")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return s, stop, nil
			}
		}
		if time.Now().After(deadline) {
			stop()
			return nil, nil, fmt.Errorf("vigil serve never became ready")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// api calls the JSON API with the admin key and returns the "data"
// member; any status other than want fails the test.
func (s *server) api(t *testing.T, method, path string, body any, want int) map[string]any {
	t.Helper()
	status, out := testenv.CallJSON(t, method, s.base+path, adminKey, body)
	if status != want {
		t.Fatalf("%s %s: %d %v, want %d", method, path, status, out, want)
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
