package app_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
)

// served is a Vigil process run in this test process.
type served struct {
	cfg    app.Config
	base   string
	cancel context.CancelFunc
	done   chan error
}

const servedAdminKey = "ops-test-admin-key-0123456789"

// startServe runs `vigil serve` with cfg on a free port and a fresh
// database, and waits until it is ready.
func startServe(t *testing.T, cfg app.Config) *served {
	t.Helper()
	return startMode(t, cfg, app.ModeServe)
}

func startMode(t *testing.T, cfg app.Config, mode app.Mode) *served {
	t.Helper()
	if cfg.HTTPAddr == "" || cfg.HTTPAddr == "127.0.0.1:8080" {
		cfg.HTTPAddr = freeAddr(t)
	}
	if cfg.DatabaseURL == "" {
		cfg.DatabaseURL = testenv.DatabaseURL(t)
	}
	cfg.BootstrapAdminKey = servedAdminKey
	cfg.SecretKey = "ops-test-secret-key-0123456789"
	cfg.ShutdownTimeout = 10 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{cfg: cfg, base: "http://" + cfg.HTTPAddr, cancel: cancel, done: make(chan error, 1)}
	go func() { s.done <- app.Run(ctx, cfg, mode, testenv.Logger()) }()
	t.Cleanup(func() { s.stop(t) })
	probe := s.base
	if mode == app.ModeWorker {
		probe = "http://" + cfg.WorkerHTTPAddr
	}
	testenv.Eventually(t, 60*time.Second, func() bool {
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("vigil %s stopped: %v", mode, err)
		default:
		}
		res, err := http.Get(probe + "/ready")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, "vigil %s never became ready", mode)
	return s
}

// stop cancels the process and waits for Run to return.
func (s *served) stop(t *testing.T) {
	t.Helper()
	if s.cancel == nil {
		return
	}
	s.cancel()
	s.cancel = nil
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("Run returned %v after cancellation", err)
		}
	case <-time.After(30 * time.Second):
		t.Error("Run did not return after cancellation")
	}
}

// do sends a request with the bootstrap admin key unless headers carry
// their own credentials, and decodes a JSON answer.
func (s *served) do(t *testing.T, method, path, body string, headers map[string]string) (int, http.Header, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, s.base+path, strings.NewReader(body))
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+servedAdminKey)
	for k, v := range headers {
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, data
}

// post sends an admin POST and returns its data object, failing on >= 300.
func (s *served) post(t *testing.T, path, body string) map[string]any {
	t.Helper()
	status, _, data := s.do(t, http.MethodPost, path, body, nil)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	if status >= 300 {
		t.Fatalf("POST %s: %d %s", path, status, data)
	}
	d, _ := out["data"].(map[string]any)
	return d
}
