package api_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func setKillSwitch(t *testing.T, key string, active bool) response {
	t.Helper()
	path := "/api/kill-switch/deactivate"
	var body any = map[string]any{"reason": "all clear"}
	if active {
		path, body = "/api/kill-switch/activate", map[string]any{"reason": "suspected automation loop"}
	}
	r := call(t, http.MethodPost, path, key, body)
	expectStatus(t, r, http.StatusOK)
	return r
}

func TestKillSwitchParksActionsAndResumesThem(t *testing.T) {
	manager := keyFor(t, store.RoleManager)
	analyst := keyFor(t, store.RoleAnalyst)
	expectStatus(t, call(t, http.MethodPost, "/api/kill-switch/activate", analyst, map[string]any{"reason": "x"}), http.StatusForbidden)
	expectStatus(t, call(t, http.MethodPost, "/api/kill-switch/activate", manager, map[string]any{}), http.StatusUnprocessableEntity)

	setKillSwitch(t, manager, true)
	t.Cleanup(func() { setKillSwitch(t, manager, false) })
	ks := call(t, http.MethodGet, "/api/kill-switch", analyst, nil).data()
	if ks["active"] != true || ks["reason"] != "suspected automation loop" || ks["changed_by"] == "" {
		t.Fatalf("kill switch state: %v", ks)
	}
	h := call(t, http.MethodGet, "/health", "", nil)
	if h.Body["status"] != "halted" {
		t.Fatalf("/health while halted: %s", h.Raw)
	}
	if !strings.Contains(string(call(t, http.MethodGet, "/metrics", "", nil).Raw), "kill_switch_active 1") {
		t.Fatal("kill_switch_active is not 1")
	}

	r := call(t, http.MethodPost, "/api/actions/execute", analyst,
		map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": "held by kill switch"}})
	expectStatus(t, r, http.StatusAccepted)
	id := r.data()["action_id"].(string)
	if r.data()["status"] != "pending" || !strings.Contains(r.data()["message"].(string), "kill switch") {
		t.Fatalf("action under kill switch: %s", r.Raw)
	}
	testenv.Eventually(t, 10*time.Second, func() bool {
		ks := call(t, http.MethodGet, "/api/kill-switch", analyst, nil).data()
		return ks["parked_actions"].(float64) >= 1
	}, "action never parked")
	if n, _ := simulated.CallCount(context.Background(), env.store, id); n != 0 {
		t.Fatalf("connector called %d times under the kill switch", n)
	}

	off := time.Now()
	setKillSwitch(t, manager, false)
	testenv.Eventually(t, 5*time.Second, func() bool {
		return call(t, http.MethodGet, "/api/actions/"+id, analyst, nil).data()["status"] == "completed"
	}, "parked action did not resume")
	if waited := time.Since(off); waited > 2*time.Second {
		t.Errorf("resume took %s after deactivation", waited)
	}
	if call(t, http.MethodGet, "/health", "", nil).Body["status"] != "healthy" {
		t.Fatal("/health not healthy after deactivation")
	}
}

// TestKillSwitchStopsConnectorCallsWithin100ms activates the kill switch
// while actions stream through and checks that no connector call started
// later than 100 ms after the activation was accepted.
func TestKillSwitchStopsConnectorCallsWithin100ms(t *testing.T) {
	manager := keyFor(t, store.RoleManager)
	analyst := keyFor(t, store.RoleAnalyst)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var ids []string
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				r := call(t, http.MethodPost, "/api/actions/execute", analyst,
					map[string]any{"action": "create_ticket", "parameters": map[string]any{"title": "load " + randomSuffix()}})
				if id, ok := r.data()["action_id"].(string); ok {
					mu.Lock()
					ids = append(ids, id)
					mu.Unlock()
				}
			}
		}()
	}
	testenv.Eventually(t, 20*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(ids) >= 8
	}, "actions did not start flowing")
	setKillSwitch(t, manager, true)
	activated := time.Now()
	// Keep the load on until actions in flight have reached their
	// connector step and been held there.
	testenv.Eventually(t, 20*time.Second, func() bool {
		ks := call(t, http.MethodGet, "/api/kill-switch", analyst, nil).data()
		parked, _ := ks["parked_actions"].(float64)
		return parked >= 2
	}, "no action was held by the kill switch")
	close(stop)
	wg.Wait()
	calls, err := simulated.Calls(context.Background(), env.store)
	if err != nil {
		t.Fatal(err)
	}
	latest := time.Time{}
	for _, c := range calls {
		if c.StartedAt.After(latest) {
			latest = c.StartedAt
		}
	}
	if lag := latest.Sub(activated); lag > 100*time.Millisecond {
		t.Fatalf("a connector call started %s after the kill switch was activated", lag)
	}
	setKillSwitch(t, manager, false)
	mu.Lock()
	defer mu.Unlock()
	for _, id := range ids {
		testenv.Eventually(t, 20*time.Second, func() bool {
			a, err := env.store.GetAction(context.Background(), id)
			return err == nil && a.Status == store.ActionCompleted
		}, "action %s lost after the kill switch", id)
	}
}

// TestWorkerRestartWhileAwaitingApproval stops the worker while an action
// waits for approval, starts a new one, approves, and sees exactly one
// connector call.
func TestWorkerRestartWhileAwaitingApproval(t *testing.T) {
	requester := keyFor(t, store.RoleAnalyst)
	r := call(t, http.MethodPost, "/api/actions/execute", requester,
		map[string]any{"action": "isolate_host", "parameters": map[string]any{"host_id": "ws-" + randomSuffix()}})
	expectStatus(t, r, http.StatusCreated)
	id := r.data()["action_id"].(string)

	env.worker.Stop()
	env.worker = newTestWorker(t)
	// The new worker takes the workflow over once its sticky queue on the
	// old one times out, which may outlast the approval's wait: 202 then.
	ok := call(t, http.MethodPost, "/api/actions/"+id+"/approve", keyFor(t, store.RoleSenior), nil)
	if ok.Status != http.StatusOK && ok.Status != http.StatusAccepted {
		t.Fatalf("approval after worker restart: %s", ok.Raw)
	}
	// Generous: under CI load the hand-over from the old worker's sticky
	// queue to the new worker can take a while.
	testenv.Eventually(t, 90*time.Second, func() bool {
		a, err := env.store.GetAction(context.Background(), id)
		return err == nil && a.Status == store.ActionCompleted
	}, "approved action did not complete on the new worker")
	if n, _ := simulated.CallCount(context.Background(), env.store, id); n != 1 {
		t.Fatalf("%d connector calls, want exactly 1", n)
	}
}

// newTestWorker starts a fresh worker for the shared test server, with
// everything the first one registered (hunts included), so tests that run
// after a worker restart find every workflow served.
func newTestWorker(t *testing.T) worker.Worker {
	t.Helper()
	w := app.NewWorker(env.temporal, env.store, env.settings, testenv.Logger(), 10*time.Second)
	app.RegisterHunts(w, env.store, env.box, nil)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	return w
}
