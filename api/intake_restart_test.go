package api_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/testsuite"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// startDevServerAt starts a dev server on a fixed address with a state
// file, so it can be stopped and started again with its history intact.
func startDevServerAt(t *testing.T, hostPort, dbFile string) *testsuite.DevServer {
	t.Helper()
	bin, err := testenv.TemporalBinary()
	if err != nil {
		t.Fatal(err)
	}
	srv, err := testsuite.StartDevServer(context.Background(), testsuite.DevServerOptions{
		ExistingPath: bin, LogLevel: "error", DBFilename: dbFile, ExtraArgs: testenv.DevServerArgs(),
		ClientOptions: &client.Options{HostPort: hostPort, Namespace: "default", Logger: testenv.TemporalLogger()},
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// TestAlertsSurviveTemporalOutage delivers alerts while Temporal is down:
// every one is acknowledged only once durable, and after Temporal returns
// each becomes an incident that is triaged exactly once.
func TestAlertsSurviveTemporalOutage(t *testing.T) {
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	hostPort := ln.Addr().String()
	ln.Close()
	dbFile := filepath.Join(t.TempDir(), "temporal.db")
	srv := startDevServerAt(t, hostPort, dbFile)
	tc, err := client.Dial(client.Options{HostPort: hostPort, Namespace: "default", Logger: testenv.TemporalLogger()})
	if err != nil {
		t.Fatal(err)
	}
	defer tc.Close()

	st := testenv.OpenStore(t)
	svc := settings.NewService(st, nil)
	w := app.NewWorker(tc, st, svc, testenv.Logger(), 5*time.Second)
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	d := dispatch.NewDispatcher(st, &dispatch.Launcher{Store: st, Temporal: tc}, svc, testenv.Logger())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go d.Run(ctx)
	web := httptest.NewServer(api.NewRouter(api.Options{Store: st, Temporal: tc, Settings: svc, Log: testenv.Logger(),
		Secrets: env.box, Dispatcher: d, Connectors: app.NewConnectors(st)}))
	defer web.Close()

	secret := "outage-secret-0123456789"
	sealed, _ := env.box.Seal(secret, "webhook.secret")
	if err := st.PutWebhookSource(ctx, &store.WebhookSource{Source: "edr", SecretEncrypted: sealed, AutoTriage: true}); err != nil {
		t.Fatal(err)
	}
	send := func(i int) response {
		body := strings.Replace(edrAlert, "%s", "outage-"+strconv.Itoa(i), 1)
		ts := time.Now().Unix()
		return doRequest(t, http.DefaultClient, web.URL, http.MethodPost, "/api/webhooks/edr", "", body, map[string]string{
			"X-Webhook-Signature": intake.Sign(secret, ts, []byte(body)), "X-Webhook-Timestamp": strconv.FormatInt(ts, 10),
		})
	}
	expectStatus(t, send(0), http.StatusCreated)

	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	// Until the intake notices the outage alerts are still accepted (their
	// triage waits in the queue); after it, they are queued whole.
	sent, queued := 1, 0
	testenv.Eventually(t, 20*time.Second, func() bool {
		r := send(sent)
		sent++
		switch {
		case r.Status == http.StatusAccepted && r.Body["status"] == "queued" && r.Body["queue_id"] != nil:
			queued++
		case r.Status == http.StatusCreated && r.Body["status"] == "accepted":
		default:
			t.Fatalf("alert %d during the outage: %d %s", sent-1, r.Status, r.Raw)
		}
		return queued >= 3
	}, "alerts were not queued while Temporal was down")

	srv = startDevServerAt(t, hostPort, dbFile)
	defer srv.Stop()
	testenv.Eventually(t, 90*time.Second, func() bool {
		rows, total, err := st.ListIncidents(ctx, store.IncidentFilter{Page: 1, PerPage: 100})
		if err != nil || total != int64(sent) {
			return false
		}
		for _, r := range rows {
			if r.TriagedAt == nil {
				return false
			}
		}
		return true
	}, "not every alert became a triaged incident after Temporal returned")
	var perIncident []struct {
		IncidentID string
		N          int
	}
	st.DB().Model(&store.Triage{}).Select("incident_id, count(*) as n").Group("incident_id").Scan(&perIncident)
	if len(perIncident) != sent {
		t.Fatalf("%d incidents have triage records, want %d", len(perIncident), sent)
	}
	for _, p := range perIncident {
		if p.N != 1 {
			t.Fatalf("incident %s was triaged %d times", p.IncidentID, p.N)
		}
	}
	// The dispatcher marks an entry done only after starting its work, in
	// a shared commit, so on a busy machine the mark can land a moment
	// after the triage workflow has already recorded its verdict.
	testenv.Eventually(t, 30*time.Second, func() bool {
		n, err := st.IntakeBacklog(ctx, store.IntakeAlert, store.IntakeTriage)
		return err == nil && n == 0
	}, "intake entries still queued after every alert was triaged")
}
