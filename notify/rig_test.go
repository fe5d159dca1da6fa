package notify_test

import (
	"context"
	"fmt"
	"github.com/vigil-soc/vigil/outbound"
	"os"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// The delivery tests share one Temporal dev server, started on first use;
// each test has its own database, worker and relay, and they run one
// after another (they share the task queue).
var temporalOnce struct {
	sync.Once
	t   *testenv.Temporal
	err error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if temporalOnce.t != nil {
		temporalOnce.t.Stop()
	}
	os.Exit(code)
}

func temporalClient(t *testing.T) client.Client {
	temporalOnce.Do(func() {
		temporalOnce.t, temporalOnce.err = testenv.StartTemporal(context.Background())
	})
	if temporalOnce.err != nil {
		t.Fatal(temporalOnce.err)
	}
	return temporalOnce.t.Client
}

// rig is Vigil's notification path on real dependencies: a store, a worker
// running the channel workflows and a relay draining the outbox.
type rig struct {
	t        *testing.T
	st       *store.Store
	tc       client.Client
	settings *settings.Service
	svc      *notify.Service
	w        worker.Worker
	cancel   context.CancelFunc
	done     chan struct{}
}

func newRig(t *testing.T) *rig {
	box, err := secrets.NewBox("test-secret-key-0123456789abcdef")
	if err != nil {
		t.Fatal(err)
	}
	st := testenv.OpenStore(t)
	if _, err := st.PutSetting(context.Background(), outbound.Setting,
		map[string]any{"allow_http": true, "allow_hosts": []any{"127.0.0.1"}}, "test"); err != nil {
		t.Fatal(err)
	}
	svc := settings.NewService(st, box)
	r := &rig{t: t, st: st, tc: temporalClient(t), settings: svc, svc: app.NewNotifier(st, svc, "https://vigil.example")}
	r.start()
	t.Cleanup(r.stop)
	return r
}

// start runs a worker and a relay, as a Vigil process would.
func (r *rig) start() {
	r.w = app.NewWorker(r.tc, r.st, r.settings, testenv.Logger(), 5*time.Second)
	if err := r.w.Start(); err != nil {
		r.t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.done = cancel, make(chan struct{})
	relay := dispatch.NewRelay(r.st, r.tc, testenv.Logger())
	go func() { defer close(r.done); relay.Run(ctx) }()
}

// stop ends the worker and the relay, as a stopped process would.
func (r *rig) stop() {
	if r.w == nil {
		return
	}
	r.cancel()
	<-r.done
	r.w.Stop()
	r.w = nil
}

func (r *rig) channel(name, typ string, in notify.ChannelInput, config map[string]any) *store.NotificationChannel {
	in.Name, in.ChannelType, in.Config = &name, &typ, config
	ch, err := r.svc.CreateChannel(context.Background(), in, "test")
	if err != nil {
		r.t.Fatalf("create channel %s: %v", name, err)
	}
	return ch
}

func (r *rig) incident(title, severity string) *store.Incident {
	inc, err := r.st.CreateIncident(context.Background(), store.NewIncident{Title: title, IncidentType: "phishing",
		Source: "email_gateway", Severity: severity, CreatedBy: "test"})
	if err != nil {
		r.t.Fatal(err)
	}
	return inc
}

func (r *rig) deliveries(channelID string) []store.NotificationDelivery {
	rows, _, err := r.st.ListDeliveries(context.Background(), store.DeliveryFilter{ChannelID: channelID}, store.Page{})
	if err != nil {
		r.t.Fatal(err)
	}
	return rows
}

// waitEnded waits until the channel has n deliveries and none is pending.
func (r *rig) waitEnded(channelID string, n int, timeout time.Duration) []store.NotificationDelivery {
	var rows []store.NotificationDelivery
	testenv.Eventually(r.t, timeout, func() bool {
		rows = r.deliveries(channelID)
		if len(rows) < n {
			return false
		}
		for _, d := range rows {
			if d.Status == store.DeliveryPending {
				return false
			}
		}
		return true
	}, "channel %s: want %d ended deliveries, have %v", channelID, n, summary(rows))
	return rows
}

// waitRouted waits until the outbox is empty.
func (r *rig) waitRouted() {
	testenv.Eventually(r.t, 30*time.Second, func() bool {
		q, err := r.st.QueuedEvents(context.Background(), 1)
		return err == nil && len(q) == 0
	}, "outbox not drained")
}

func summary(rows []store.NotificationDelivery) string {
	counts := map[string]int{}
	for _, d := range rows {
		counts[d.Status]++
	}
	return fmt.Sprint(counts)
}
