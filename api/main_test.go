package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// One Temporal dev server, database and worker serve every test in this
// package; tests keep apart by creating their own users and incidents.
var (
	env struct {
		store      *store.Store
		settings   *settings.Service
		temporal   client.Client
		router     *api.Router
		server     *httptest.Server
		adminKey   string
		worker     worker.Worker
		box        *secrets.Box
		dispatcher *dispatch.Dispatcher
	}
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "vigil-api-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	st, cleanup, err := testenv.NewStore(ctx, dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "store:", err)
		return 1
	}
	defer cleanup()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "temporal:", err)
		return 1
	}
	defer tmp.Stop()
	box, err := secrets.NewBox("test-secret-key-0123456789abcdef")
	if err != nil {
		fmt.Fprintln(os.Stderr, "secrets:", err)
		return 1
	}
	env.box = box
	env.settings = settings.NewService(st, box)
	env.worker = app.NewWorker(tmp.Client, st, env.settings, testenv.Logger(), 10*time.Second)
	app.RegisterHunts(env.worker, st, box, nil)
	if err := env.worker.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "worker:", err)
		return 1
	}
	defer func() { env.worker.Stop() }()

	env.store, env.temporal = st, tmp.Client
	if err := app.EnsureBuiltinPlaybooks(ctx, st); err != nil {
		fmt.Fprintln(os.Stderr, "built-in playbooks:", err)
		return 1
	}
	env.adminKey = "test-admin-key-0123456789"
	if _, err := st.BootstrapAdmin(ctx, env.adminKey); err != nil {
		fmt.Fprintln(os.Stderr, "bootstrap:", err)
		return 1
	}
	// The suite makes many requests from one address and a few keys; the
	// limits themselves are tested on routers of their own.
	if _, err := env.settings.Put(ctx, settings.KeyRateLimits,
		[]byte(`{"read_per_minute":100000,"write_per_minute":100000,"triage_per_minute":100000}`), "test"); err != nil {
		fmt.Fprintln(os.Stderr, "settings:", err)
		return 1
	}
	env.dispatcher = dispatch.NewDispatcher(st, &dispatch.Launcher{Store: st, Temporal: tmp.Client}, env.settings, testenv.Logger())
	dctx, stopDispatch := context.WithCancel(ctx)
	defer stopDispatch()
	go env.dispatcher.Run(dctx)
	env.router = newRouter(tmp.Client, 20*time.Second)
	env.server = httptest.NewServer(env.router)
	defer env.server.Close()
	return m.Run()
}

func newRouter(tc client.Client, triageWait time.Duration) *api.Router {
	return api.NewRouter(api.Options{
		Store: env.store, Temporal: tc, Settings: env.settings, Log: testenv.Logger(), Version: "test",
		Connectors: app.NewConnectors(env.store), Secrets: env.box, Dispatcher: env.dispatcher,
		ConnectorConfigs: app.NewConnectorConfigs(env.store, env.settings, nil, testenv.Logger()),
		TriageWait:       triageWait, Notify: app.NewNotifier(env.store, env.settings, ""),
		// Many tests send refused deliveries from one address; the
		// failed-delivery limit is tested on routers of its own.
		WebhookFailuresPerMinute: 100000,
	})
}

// response is a decoded API answer.
type response struct {
	Status int
	Header http.Header
	Body   map[string]any
	Raw    []byte
}

func (r response) data() map[string]any {
	d, _ := r.Body["data"].(map[string]any)
	return d
}

func (r response) errCode() string {
	e, _ := r.Body["error"].(map[string]any)
	code, _ := e["code"].(string)
	return code
}

func (r response) errDetails() map[string]any {
	e, _ := r.Body["error"].(map[string]any)
	d, _ := e["details"].(map[string]any)
	return d
}

// call sends a request to the test server; body may be nil, a string (sent
// as is) or any value (sent as JSON).
func call(t *testing.T, method, path, key string, body any) response {
	t.Helper()
	return callURL(t, env.server.URL, method, path, key, body)
}

func callURL(t *testing.T, base, method, path, key string, body any) response {
	t.Helper()
	return doRequest(t, http.DefaultClient, base, method, path, key, body, nil)
}

// doRequest sends one request with an optional bearer key and headers.
func doRequest(t *testing.T, hc *http.Client, base, method, path, key string, body any, headers map[string]string) response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		rd = bytes.NewReader(mustJSON(b))
	}
	req, err := http.NewRequest(method, base+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := response{Status: res.StatusCode, Header: res.Header, Raw: raw}
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out.Body); err != nil {
			t.Fatalf("%s %s: response is not JSON: %s", method, path, raw)
		}
	}
	checkAgainstDocument(t, method, path, out)
	return out
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func expectStatus(t *testing.T, r response, want int) {
	t.Helper()
	if r.Status != want {
		t.Fatalf("status %d, want %d; body %s", r.Status, want, r.Raw)
	}
}

var userSeq int

// keyFor creates a user of the given role and returns a fresh API key.
func keyFor(t *testing.T, role string) string {
	t.Helper()
	userSeq++
	name := fmt.Sprintf("%s-%s-%d-%d", role, t.Name(), userSeq, time.Now().UnixNano())
	u, err := env.store.CreateUser(context.Background(), store.NewUser{
		Username: name, Email: name + "@example.com", Role: role,
	})
	if err != nil {
		t.Fatal(err)
	}
	_, key, err := env.store.CreateAPIKey(context.Background(), u.ID, "test", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return key
}

// createIncident posts an incident and returns its data.
func createIncident(t *testing.T, key string, body map[string]any) map[string]any {
	t.Helper()
	r := call(t, http.MethodPost, "/api/incidents", key, body)
	expectStatus(t, r, http.StatusCreated)
	return r.data()
}

// intakeBacklog counts intake queue entries still waiting.
func intakeBacklog() (int64, error) {
	return env.store.IntakeBacklog(context.Background(),
		store.IntakeAlert, store.IntakeTriage, store.IntakePlaybook, store.IntakeAutoRun)
}
