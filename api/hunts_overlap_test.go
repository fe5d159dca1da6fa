package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// heldSource is a custom hunt data source whose every query is held
// until the test lets the current batch through.
type heldSource struct {
	*httptest.Server
	mu      sync.Mutex
	release chan struct{}
	queries int
}

func newHeldSource(t *testing.T) *heldSource {
	s := &heldSource{release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.queries++
		release := s.release
		s.mu.Unlock()
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"rows": []map[string]any{{"host": "h1", "user_name": "amy"}}})
	}))
	t.Cleanup(s.Close)
	return s
}

// let answers the queries held so far and holds the next ones.
func (s *heldSource) let() {
	s.mu.Lock()
	defer s.mu.Unlock()
	close(s.release)
	s.release = make(chan struct{})
}

func (s *heldSource) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queries
}

// heldHunt creates an active hunt (body: name, hunt_type and what its type
// needs) with one query on a new held source named source, the outbound
// policy letting the test's server in until the test ends.
func heldHunt(t *testing.T, source string, body map[string]any) (*heldSource, response) {
	t.Helper()
	src := newHeldSource(t)
	t.Cleanup(src.let)
	keepOutbound(t)
	putOutbound(t, map[string]any{"allow_http": true, "allow_hosts": []string{"127.0.0.1"}})
	expectStatus(t, call(t, http.MethodPost, "/api/v1/data-sources", env.adminKey, map[string]any{"name": source,
		"kind": "custom", "config": map[string]any{"url": src.URL}}), http.StatusCreated)
	body["status"], body["data_sources"] = "active", []string{source}
	body["queries"] = []map[string]any{{"name": "logons", "query_type": "custom", "query": "logons", "severity": "high"}}
	h := call(t, http.MethodPost, "/api/v1/hunts", keyFor(t, store.RoleSenior), body)
	expectStatus(t, h, http.StatusCreated)
	return src, h
}

// A schedule trigger while a run of the schedule is still running is
// refused with 409 hunt_run_in_progress naming that run, as an execute
// is, since the schedule would skip it without a word.
func TestScheduleTriggerWhileARunIsRunning(t *testing.T) {
	senior := keyFor(t, store.RoleSenior)
	src, h := heldHunt(t, "held-scheduled", map[string]any{"name": "weekly, one at a time", "hunt_type": "scheduled",
		"schedule": map[string]any{"cron_expression": "0 6 * * 1", "timezone": "UTC"}})
	trigger := "/api/v1/hunts/" + h.data()["id"].(string) + "/schedule/trigger"
	impatient := testServer(t, newRouter(env.temporal, 2*time.Second))

	first := callURL(t, impatient, http.MethodPost, trigger, senior, nil)
	expectStatus(t, first, http.StatusAccepted)
	second := call(t, http.MethodPost, trigger, senior, nil)
	if second.Status != http.StatusConflict || second.errCode() != "hunt_run_in_progress" ||
		second.errDetails()["workflow_id"] != first.data()["workflow_id"] || second.errDetails()["run_id"] != first.data()["run_id"] {
		t.Fatalf("trigger while running: %d %s (running %s)", second.Status, second.Raw, first.Raw)
	}
	if n := src.count(); n != 1 {
		t.Fatalf("%d queries reached the source, want the one run's", n)
	}
}

// A second execute of a hunt while its run is still running is refused
// with 409 hunt_run_in_progress, naming the running run, also when both
// arrive at once; once the run has ended, the hunt executes again.
func TestHuntExecuteWhileARunIsRunning(t *testing.T) {
	senior := keyFor(t, store.RoleSenior)
	src, h := heldHunt(t, "held-edr", map[string]any{"name": "one at a time", "hunt_type": "on_demand"})
	execute := "/api/v1/hunts/" + h.data()["id"].(string) + "/execute"
	// Answers 202 after two seconds while the run is held.
	impatient := testServer(t, newRouter(env.temporal, 2*time.Second))

	first := callURL(t, impatient, http.MethodPost, execute, senior, nil)
	expectStatus(t, first, http.StatusAccepted)
	runID := first.data()["run_id"].(string)
	second := call(t, http.MethodPost, execute, senior, nil)
	if second.Status != http.StatusConflict || second.errCode() != "hunt_run_in_progress" {
		t.Fatalf("execute while running: %d %s", second.Status, second.Raw)
	}
	e, _ := second.Body["error"].(map[string]any)
	if msg, _ := e["message"].(string); msg == "" || second.errDetails()["run_id"] != runID || second.errDetails()["workflow_id"] != first.data()["workflow_id"] {
		t.Fatalf("refusal does not follow the error envelope or name the running run: %s", second.Raw)
	}

	src.let()
	testenv.Eventually(t, 30*time.Second, func() bool {
		r := call(t, http.MethodGet, "/api/v1/hunts/"+h.data()["id"].(string)+"/runs/"+runID, senior, nil)
		return r.Status == http.StatusOK && r.data()["status"] == store.HuntRunCompleted
	}, "the held run never completed")

	// Two at once: exactly one runs, the other is refused.
	sent := src.count()
	codes := make(chan response, 2)
	for range 2 {
		go func() { codes <- callURL(t, impatient, http.MethodPost, execute, senior, nil) }()
	}
	got := map[int]int{}
	var running response
	for range 2 {
		r := <-codes
		got[r.Status]++
		if r.Status == http.StatusAccepted {
			running = r
		}
		if r.Status == http.StatusConflict && r.errCode() != "hunt_run_in_progress" {
			t.Fatalf("refusal: %s", r.Raw)
		}
	}
	if got[http.StatusAccepted] != 1 || got[http.StatusConflict] != 1 {
		t.Fatalf("two executes at once answered %v, want one 202 and one 409", got)
	}
	if n := src.count() - sent; n != 1 {
		t.Fatalf("%d queries reached the source, want the one run's", n)
	}

	// A run whose workflow an operator terminated (in the Temporal UI)
	// never records its end: the next execute marks it failed instead of
	// being refused for ever.
	wid, heldID := running.data()["workflow_id"].(string), running.data()["run_id"].(string)
	if err := env.temporal.TerminateWorkflow(context.Background(), wid, "", "stopped by an operator"); err != nil {
		t.Fatal(err)
	}
	expectStatus(t, callURL(t, impatient, http.MethodPost, execute, senior, nil), http.StatusAccepted)
	r := call(t, http.MethodGet, "/api/v1/hunts/"+h.data()["id"].(string)+"/runs/"+heldID, senior, nil)
	if msg, _ := r.data()["error"].(string); r.data()["status"] != store.HuntRunFailed || !strings.Contains(msg, "Terminated") {
		t.Fatalf("terminated run: %s", r.Raw)
	}
}
