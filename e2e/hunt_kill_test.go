package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// buildVigil builds the vigil binary into the test's directory.
func buildVigil(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "vigil")
	build := exec.Command("go", "build", "-o", bin, "../cmd/vigil")
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// startVigil starts `vigil <mode>` with env and waits until it is ready;
// the test ends it unless it has already been killed.
func startVigil(t *testing.T, bin, mode string, env []string) *proc {
	t.Helper()
	p := &proc{addr: freePort(t), logs: &bytes.Buffer{}}
	p.cmd = exec.Command(bin, mode)
	p.cmd.Env = append(env, "VIGIL_HTTP_ADDR="+p.addr, "VIGIL_WORKER_HTTP_ADDR="+p.addr)
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = p.cmd.Process.Signal(os.Interrupt)
		_ = p.cmd.Wait()
		if t.Failed() {
			t.Logf("vigil %s logs:\n%s", mode, p.logs.String())
		}
	})
	testenv.Eventually(t, 90*time.Second, func() bool {
		res, err := http.Get("http://" + p.addr + "/ready")
		if err != nil {
			return false
		}
		res.Body.Close()
		return res.StatusCode == http.StatusOK
	}, "vigil %s on %s never became ready", mode, p.addr)
	return p
}

// slowSource is a custom hunt data source: each query names the rows it
// answers; the query "slow" is held until release is closed.
type slowSource struct {
	*httptest.Server
	mu       sync.Mutex
	requests map[string]int
	release  chan struct{}
}

var slowSourceRows = map[string][]map[string]any{
	"fast-a": {{"host": "a1", "user_name": "amy"}, {"host": "a2", "user_name": "amy"}},
	"fast-b": {{"host": "b1", "user_name": "bob"}},
	"slow":   {{"host": "s1", "user_name": "sue"}, {"host": "s2", "user_name": "sue"}},
}

func newSlowSource(t *testing.T) *slowSource {
	s := &slowSource{requests: map[string]int{}, release: make(chan struct{})}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			Query string `json:"query"`
		}
		body, _ := io.ReadAll(r.Body)
		if json.Unmarshal(body, &q) != nil || slowSourceRows[q.Query] == nil {
			http.Error(w, `{"error":"unknown query"}`, http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.requests[q.Query]++
		s.mu.Unlock()
		if q.Query == "slow" {
			select {
			case <-s.release:
			case <-r.Context().Done():
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"rows": slowSourceRows[q.Query]})
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *slowSource) count(query string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[query]
}

// TestHuntRunSurvivesAKilledVigil: vigil is killed with SIGKILL while one
// query of a run is in flight and two have finished; started again, it
// resumes the same run to completion: the finished queries are not run
// again, the interrupted one is, and no finding is recorded twice.
func TestHuntRunSurvivesAKilledVigil(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		t.Skip("vigil is restarted on the same database: needs TEST_DATABASE_URL")
	}
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tmp.Stop)
	bin := buildVigil(t)
	dbURL := testenv.DatabaseURL(t)
	env := append(os.Environ(), "DATABASE_URL="+dbURL, "TEMPORAL_ADDRESS="+tmp.Server.FrontendHostPort(),
		"TEMPORAL_CONFIG_FILE="+filepath.Join(t.TempDir(), "none.toml"),
		"VIGIL_BOOTSTRAP_ADMIN_KEY="+adminKey, "VIGIL_SECRET_KEY=hunt-kill-secret-key-0123456789",
		"VIGIL_LOG_LEVEL=warn", "VIGIL_TRIAGE_WAIT=1s")
	src := newSlowSource(t)
	v := startVigil(t, bin, "serve", env)
	base := "http://" + v.addr
	call := func(method, path string, body any, want int) map[string]any {
		t.Helper()
		code, out := testenv.CallJSON(t, method, base+path, adminKey, body)
		if code != want {
			t.Fatalf("%s %s: %d %v", method, path, code, out)
		}
		d, _ := out["data"].(map[string]any)
		return d
	}
	call(http.MethodPut, "/api/settings/outbound", map[string]any{"allow_http": true, "allow_hosts": []string{"127.0.0.1"}}, http.StatusOK)
	call(http.MethodPost, "/api/v1/data-sources", map[string]any{"name": "edr", "kind": "custom",
		"config": map[string]any{"url": src.URL}}, http.StatusCreated)
	queries := []map[string]any{}
	for _, q := range []string{"fast-a", "fast-b", "slow"} {
		queries = append(queries, map[string]any{"name": q, "query_type": "custom", "query": q, "severity": "high"})
	}
	h := call(http.MethodPost, "/api/v1/hunts", map[string]any{"name": "survives a kill", "hunt_type": "on_demand",
		"status": "active", "data_sources": []string{"edr"}, "queries": queries}, http.StatusCreated)
	huntID := h["id"].(string)
	run := call(http.MethodPost, "/api/v1/hunts/"+huntID+"/execute", nil, http.StatusAccepted)
	runID, wid := run["run_id"].(string), run["workflow_id"].(string)

	// Kill once both fast queries are done (in the run's history, as its
	// progress says) and the slow one is in flight.
	tc, err := client.Dial(client.Options{HostPort: tmp.Server.FrontendHostPort()})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()
	testenv.Eventually(t, time.Minute, func() bool {
		res, err := tc.QueryWorkflow(ctx, wid, "", huntflow.ProgressQuery)
		var p huntflow.Progress
		return err == nil && res.Get(&p) == nil && p.Done == 2 && src.count("slow") == 1
	}, "the fast queries never finished while the slow one ran")
	if err := v.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = v.cmd.Wait()
	close(src.release)
	startVigil(t, bin, "serve", env)

	st, err := store.Open(ctx, dbURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var r *store.HuntRun
	testenv.Eventually(t, 2*time.Minute, func() bool {
		r, err = st.GetHuntRun(ctx, huntID, runID)
		return err == nil && r.Status != store.HuntRunRunning
	}, "the run did not end after the restart")
	if r.Status != store.HuntRunCompleted || r.TotalFindings != 5 || r.NewFindings != 5 {
		t.Fatalf("run after the restart: status %s (%s), %d findings, %d new", r.Status, r.Error, r.TotalFindings, r.NewFindings)
	}
	if a, b, s := src.count("fast-a"), src.count("fast-b"), src.count("slow"); a != 1 || b != 1 || s < 2 {
		t.Fatalf("queries sent: fast-a %d, fast-b %d, slow %d; want the finished ones once and the interrupted one again", a, b, s)
	}
	fs, err := st.ListRunFindings(ctx, runID)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, f := range fs {
		if seen[f.Fingerprint] || f.SeenCount != 1 {
			t.Fatalf("finding %s recorded twice (seen %d times)", f.Fingerprint, f.SeenCount)
		}
		seen[f.Fingerprint] = true
	}
	if len(fs) != 5 {
		t.Fatalf("%d findings stored, want 5", len(fs))
	}
}
