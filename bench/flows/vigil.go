package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// harness is Vigil wired as `vigil serve` wires it, on a SQLite store,
// with the simulated ticketing connector timed (see ticketStarts).
type harness struct {
	store *store.Store
	// temporal is the client Vigil's API and worker use (sealing payloads
	// under -payload-keys); the bare baselines keep their own.
	temporal  client.Client
	tickets   *ticketStarts
	web       *httptest.Server
	worker    worker.Worker
	cleanup   func()
	admin     string
	requester string
}

func newHarness(ctx context.Context, tc client.Client, dir string) (*harness, error) {
	st, cleanup, err := testenv.NewStore(ctx, dir)
	if err != nil {
		return nil, err
	}
	svc := settings.NewService(st, nil)
	// The benchmark measures the engine path, not the rate limiter.
	if _, err := svc.Put(ctx, settings.KeyRateLimits, []byte(`{"read_per_minute":100000,"write_per_minute":100000,"triage_per_minute":100000}`), "bench"); err != nil {
		return nil, err
	}
	conns := app.NewConnectorConfigs(st, svc, nil, testenv.Logger())
	tickets := &ticketStarts{inner: conns.Simulated.Ticketing}
	conns.Simulated.Ticketing = tickets
	w := app.NewWorkerWith(tc, st, svc, testenv.Logger(), 10*time.Second, runview.Links{}, conns)
	if err := w.Start(); err != nil {
		return nil, err
	}
	h := &harness{store: st, temporal: tc, tickets: tickets, worker: w, cleanup: cleanup, admin: "bench-admin-key-0123456789"}
	if _, err := st.BootstrapAdmin(ctx, h.admin); err != nil {
		return nil, err
	}
	u, err := st.CreateUser(ctx, store.NewUser{Username: "requester", Email: "requester@bench.example", Role: store.RoleAnalyst})
	if err != nil {
		return nil, err
	}
	if _, h.requester, err = st.CreateAPIKey(ctx, u.ID, "bench", nil, nil); err != nil {
		return nil, err
	}
	h.web = httptest.NewServer(api.NewRouter(api.Options{Store: st, Temporal: tc, Settings: svc, Log: testenv.Logger(),
		Connectors: app.NewConnectors(st), ActionWait: time.Minute}))
	return h, nil
}

func (h *harness) close() {
	h.web.Close()
	h.worker.Stop()
	h.cleanup()
}

func (h *harness) call(method, path, key string, body any) (int, map[string]any, error) {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, h.web.URL+path, bytes.NewReader(b))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	var out map[string]any
	_ = json.Unmarshal(raw, &out)
	if res.StatusCode >= 300 && res.StatusCode != http.StatusAccepted {
		return res.StatusCode, out, fmt.Errorf("%s %s: %d %s", method, path, res.StatusCode, raw)
	}
	return res.StatusCode, out, nil
}

func data(m map[string]any) map[string]any { d, _ := m["data"].(map[string]any); return d }

// approvalLatency measures POST approve → the action completed (the API
// answers once the workflow has executed and recorded it). It returns the
// operation after preparing n actions that wait for approval, so the
// caller can interleave it with its baseline.
func (h *harness) approvalLatency(n int) (func(i int) error, error) {
	ids := make([]string, n)
	for i := range ids {
		_, out, err := h.call(http.MethodPost, "/api/actions/execute", h.requester,
			map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": fmt.Sprintf("bench-%d", i)}})
		if err != nil {
			return nil, err
		}
		if data(out)["status"] != "pending_approval" {
			return nil, fmt.Errorf("isolate_host did not wait for approval: %v", out)
		}
		ids[i] = data(out)["action_id"].(string)
	}
	return func(i int) error {
		_, out, err := h.call(http.MethodPost, "/api/actions/"+ids[i]+"/approve", h.admin, nil)
		if err == nil && data(out)["status"] != "completed" {
			err = fmt.Errorf("approved action not completed: %v", out)
		}
		return err
	}, nil
}

// actionThroughput measures actions executed without approval, end to end.
func (h *harness) actionThroughput(ctx context.Context, n, conc int) (row, error) {
	return measure("action without approval, request to completed (API)", n, conc, func(i int) error {
		_, out, err := h.call(http.MethodPost, "/api/actions/execute", h.requester,
			map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": fmt.Sprintf("bench %d", i)}})
		if err == nil && data(out)["status"] != "completed" {
			err = fmt.Errorf("action not completed: %v", out)
		}
		return err
	})
}
