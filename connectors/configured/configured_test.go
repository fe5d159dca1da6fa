package configured_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ulule/limiter/v3/drivers/store/memory"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/configured"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/outbound"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// peerEDR is a test vendor whose EDR calls go to a local peer that
// accepts one bearer token.
type peerEDR struct {
	connectors.EDR // unused operations panic if called
	client         *vendorhttp.Client
}

func (p *peerEDR) Isolate(ctx context.Context, key, hostID, _ string) (connectors.Result, error) {
	var out map[string]any
	_, err := p.client.Do(ctx, vendorhttp.Request{Method: http.MethodPost, Path: "/contain/" + hostID,
		Header: http.Header{"Idempotency-Key": {key}}, Out: &out})
	if err != nil {
		return connectors.Result{}, err
	}
	return connectors.Result{Success: true, Message: "contained", Output: out}, nil
}

func (p *peerEDR) Test(ctx context.Context) error {
	_, err := p.client.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/whoami"})
	return err
}

var peerCalls atomic.Int32

func init() {
	connectors.Register(connectors.Vendor{
		Type: "peer-edr", Title: "Peer EDR", Kinds: []string{connectors.KindEDR},
		Fields: []connectors.Field{
			{Name: "base_url", Required: true},
			{Name: "region", Default: "eu"},
			{Name: "token", Required: true, Secret: true},
		},
		New: func(cfg connectors.Config) (any, error) {
			token := cfg.Secrets["token"]
			return &peerEDR{client: &vendorhttp.Client{Vendor: "Peer EDR", BaseURL: cfg.Settings["base_url"], HTTP: cfg.HTTP,
				Auth: func(_ context.Context, r *http.Request) error {
					r.Header.Set("Authorization", "Bearer "+token)
					return nil
				}}}, nil
		},
	})
}

func newPeer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peerCalls.Add(1)
		switch {
		case r.Header.Get("Authorization") != "Bearer good-token":
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":"invalid token"}`))
		case r.URL.Path == "/whoami":
			_, _ = w.Write([]byte(`{"user":"svc"}`))
		case strings.HasPrefix(r.URL.Path, "/contain/"):
			_, _ = w.Write([]byte(`{"host_id":"` + strings.TrimPrefix(r.URL.Path, "/contain/") + `","status":"isolated"}`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newService(t *testing.T, st *store.Store) *configured.Service {
	box, err := secrets.NewBox("a passphrase long enough for tests")
	if err != nil {
		t.Fatal(err)
	}
	pol := outbound.Policy{AllowHTTP: true, AllowHosts: []string{"127.0.0.1"}}
	return &configured.Service{Store: st, Box: box, Simulated: simulated.New(st), SimulatedIntel: intel.NewSimulated(),
		Policy: func(context.Context) outbound.Policy { return pol }}
}

func TestPutValidatesAndSealsSecrets(t *testing.T) {
	st := testenv.OpenStore(t)
	svc := newService(t, st)
	ctx := context.Background()
	var verr *configured.ValidationError
	_, _, err := svc.Put(ctx, "edr-1", configured.Input{Type: "peer-edr", Settings: map[string]string{"token": "x", "bogus": "y"}}, "admin")
	if !errors.As(err, &verr) || verr.Fields["settings.base_url"] == "" || verr.Fields["secrets.token"] == "" ||
		verr.Fields["settings.token"] == "" || verr.Fields["settings.bogus"] == "" {
		t.Fatalf("err %v", err)
	}
	if _, _, err := svc.Put(ctx, "edr-1", configured.Input{Type: "nope"}, "admin"); !errors.As(err, &verr) || verr.Fields["type"] == "" {
		t.Fatalf("unknown type: %v", err)
	}
	if _, _, err := svc.Put(ctx, "Bad Id", configured.Input{Type: "peer-edr"}, "admin"); !errors.As(err, &verr) || verr.Fields["id"] == "" {
		t.Fatalf("bad id: %v", err)
	}
	if _, _, err := svc.Put(ctx, "edr-1", configured.Input{Type: "peer-edr", Serves: []string{"ticketing"},
		Settings: map[string]string{"base_url": "https://x"}, Secrets: map[string]string{"token": "t"}}, "admin"); !errors.As(err, &verr) || verr.Fields["serves"] == "" {
		t.Fatalf("serves: %v", err)
	}
	v, created, err := svc.Put(ctx, "edr-1", configured.Input{Type: "peer-edr",
		Settings: map[string]string{"base_url": "https://edr.example"}, Secrets: map[string]string{"token": "top-secret"}}, "admin")
	if err != nil || !created {
		t.Fatalf("put: %v %v", created, err)
	}
	if strings.Join(v.Serves, ",") != "edr" || strings.Join(v.SecretsSet, ",") != "token" || v.Simulated {
		t.Fatalf("view %+v", v)
	}
	row, err := st.GetConnectorConfig(ctx, "edr-1")
	if err != nil || strings.Contains(row.SecretsEncrypted, "top-secret") || row.SecretsEncrypted == "" {
		t.Fatalf("stored %+v %v", row, err)
	}
	// A write without the secret keeps it; a second connector may not take the kind.
	if _, created, err := svc.Put(ctx, "edr-1", configured.Input{Type: "peer-edr",
		Settings: map[string]string{"base_url": "https://edr2.example"}}, "admin"); err != nil || created {
		t.Fatalf("update: %v %v", created, err)
	}
	var conflict *configured.ConflictError
	_, _, err = svc.Put(ctx, "edr-2", configured.Input{Type: "peer-edr",
		Settings: map[string]string{"base_url": "https://x"}, Secrets: map[string]string{"token": "t"}}, "admin")
	if !errors.As(err, &conflict) || conflict.ServedBy != "edr-1" {
		t.Fatalf("conflict: %v", err)
	}
}

func TestSetRoutesConfiguredKindsAndFallsBackToSimulated(t *testing.T) {
	st := testenv.OpenStore(t)
	peer := newPeer(t)
	writer, reader := newService(t, st), newService(t, st)
	ctx := context.Background()

	// Nothing configured: every kind is simulated and says so.
	set, err := reader.Set(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err := set.Execute(ctx, actions.IsolateHost, "a-1", map[string]any{"host_id": "h-1"})
	if err != nil || !strings.HasPrefix(res.Message, "[simulated]") || res.Output["simulated"] != true {
		t.Fatalf("simulated isolate: %+v %v", res, err)
	}

	if _, _, err := writer.Put(ctx, "edr-1", configured.Input{Type: "peer-edr",
		Settings: map[string]string{"base_url": peer.URL}, Secrets: map[string]string{"token": "good-token"}}, "admin"); err != nil {
		t.Fatal(err)
	}
	// Another process's cache notices the write within CheckTTL.
	time.Sleep(configured.CheckTTL)
	set, err = reader.Set(ctx)
	if err != nil {
		t.Fatal(err)
	}
	res, err = set.Execute(ctx, actions.IsolateHost, "a-2", map[string]any{"host_id": "h-2"})
	if err != nil || res.Message != "contained" || res.Output["host_id"] != "h-2" {
		t.Fatalf("vendor isolate: %+v %v", res, err)
	}
	// Kinds the vendor does not serve stay simulated.
	res, err = set.Execute(ctx, actions.CreateTicket, "a-3", map[string]any{"title": "t"})
	if err != nil || !strings.HasPrefix(res.Message, "[simulated]") {
		t.Fatalf("ticket: %+v %v", res, err)
	}
	health, err := reader.Health(ctx)
	if err != nil || health[1].Name != "edr-1" || health[1].Simulated || !health[0].Simulated {
		t.Fatalf("health %+v %v", health, err)
	}
	list, err := reader.List(ctx)
	if err != nil || len(list) != 2 || list[1].ID != configured.SimulatedID || strings.Contains(strings.Join(list[1].Serves, ","), "edr") {
		t.Fatalf("list %+v %v", list, err)
	}

	// Deleting it returns the kind to the simulated EDR.
	if err := writer.Delete(ctx, "edr-1"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(configured.CheckTTL)
	set, _ = reader.Set(ctx)
	res, err = set.Execute(ctx, actions.IsolateHost, "a-4", map[string]any{"host_id": "h-4"})
	if err != nil || !strings.HasPrefix(res.Message, "[simulated]") {
		t.Fatalf("after delete: %+v %v", res, err)
	}
}

func TestTestReportsAuthFailureInPlainWords(t *testing.T) {
	st := testenv.OpenStore(t)
	peer := newPeer(t)
	svc := newService(t, st)
	ctx := context.Background()
	if _, _, err := svc.Put(ctx, "edr-1", configured.Input{Type: "peer-edr",
		Settings: map[string]string{"base_url": peer.URL}, Secrets: map[string]string{"token": "wrong"}}, "admin"); err != nil {
		t.Fatal(err)
	}
	before := peerCalls.Load()
	h, err := svc.Test(ctx, "edr-1")
	if err != nil || h.Status != connectors.StatusUnhealthy || !strings.Contains(h.Message, "authentication failed") ||
		strings.Contains(h.Message, "wrong") {
		t.Fatalf("health %+v %v", h, err)
	}
	if n := peerCalls.Load() - before; n != 1 {
		t.Fatalf("a refused credential was tried %d times", n)
	}
	if _, _, err := svc.Put(ctx, "edr-1", configured.Input{Type: "peer-edr",
		Settings: map[string]string{"base_url": peer.URL}, Secrets: map[string]string{"token": "good-token"}}, "admin"); err != nil {
		t.Fatal(err)
	}
	if h, err := svc.Test(ctx, "edr-1"); err != nil || h.Status != connectors.StatusHealthy {
		t.Fatalf("good token: %+v %v", h, err)
	}
	// An address the outbound policy refuses is a network failure.
	svc.Policy = func(context.Context) outbound.Policy { return outbound.Policy{AllowHTTP: true} }
	svc.Invalidate()
	if h, _ := svc.Test(ctx, "edr-1"); h.Status != connectors.StatusUnhealthy || !strings.Contains(h.Message, "network") {
		t.Fatalf("refused address: %+v", h)
	}
}

func TestQuotaWaitsForTheNextWindow(t *testing.T) {
	limit := connectors.Quota(memory.NewStore())
	ctx := context.Background()
	for i := 0; i < 4; i++ {
		if err := limit(ctx, "vt", 4); err != nil {
			t.Fatal(err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if err := limit(short, "vt", 4); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("fifth call in a minute: %v", err)
	}
}
