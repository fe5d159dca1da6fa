package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"
	tlog "go.temporal.io/sdk/log"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/dispatch"
	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/llm"
	"github.com/vigil-soc/vigil/notify"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/policy"
	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/triage"
	"github.com/vigil-soc/vigil/web"
	"github.com/vigil-soc/vigil/workflows"
)

// Version is the running build's version, set at link time.
var Version = "0.1.0-dev"

// Mode selects which parts of Vigil a process runs.
type Mode string

// Process modes.
const (
	ModeServe  Mode = "serve"  // API and worker in one process
	ModeAPI    Mode = "api"    // HTTP API only
	ModeWorker Mode = "worker" // Temporal worker only
)

// OpenStore opens the database and applies pending migrations when asked.
func OpenStore(ctx context.Context, cfg Config, log *slog.Logger) (*store.Store, error) {
	st, err := store.Open(ctx, cfg.DatabaseURL, log)
	if err != nil {
		return nil, err
	}
	if cfg.AutoMigrate {
		applied, err := st.Migrate(ctx)
		if err != nil {
			_ = st.Close()
			return nil, err
		}
		if len(applied) > 0 {
			log.Info("database migrated", "applied_versions", applied)
		}
	}
	return st, nil
}

// DialTemporal connects to Temporal, retrying until it answers or ctx ends,
// so Vigil can start while the server is still coming up.
func DialTemporal(ctx context.Context, cfg Config, log *slog.Logger) (client.Client, error) {
	opts := client.Options{
		HostPort:  cfg.TemporalAddress,
		Namespace: cfg.TemporalNamespace,
		Logger:    tlog.NewStructuredLogger(log),
	}
	delay := 250 * time.Millisecond
	for {
		c, err := client.DialContext(ctx, opts)
		if err == nil {
			return c, nil
		}
		log.Warn("temporal not reachable yet", "address", cfg.TemporalAddress, "err", err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("connect to temporal at %s: %w", cfg.TemporalAddress, err)
		case <-time.After(delay):
		}
		delay = min(delay*2, 5*time.Second)
	}
}

// NewConnectors builds the response tool connectors: the simulated set,
// which keeps its state in the store, until vendor connectors are
// configured.
func NewConnectors(st *store.Store) connectors.Set { return simulated.New(st) }

// NewNotifier builds the notification service: channels sealed with the
// settings' box, the stored outbound policy, links to publicURL, and
// metrics in the process-wide registry.
func NewNotifier(st *store.Store, svc *settings.Service, publicURL string) *notify.Service {
	n := &notify.Service{Store: st, Links: notify.Links{PublicURL: publicURL}, Policy: notify.PolicyFromStore(st),
		Metrics: notify.NewMetrics(prometheus.DefaultRegisterer)}
	if svc != nil {
		n.Secrets = svc.Box()
	}
	notify.RegisterPending(prometheus.DefaultRegisterer, st)
	return n
}

// NewWorker builds a worker with every workflow and activity registered.
func NewWorker(c client.Client, st *store.Store, svc *settings.Service, log *slog.Logger, stopTimeout time.Duration) worker.Worker {
	return NewWorkerLinking(c, st, svc, log, stopTimeout, runview.Links{})
}

// NewWorkerLinking is NewWorker whose runs link to their incident at
// links' public address in the Temporal UI.
func NewWorkerLinking(c client.Client, st *store.Store, svc *settings.Service, log *slog.Logger, stopTimeout time.Duration, links runview.Links) worker.Worker {
	w := worker.New(c, workflows.TaskQueue, worker.Options{WorkerStopTimeout: stopTimeout})
	w.RegisterWorkflow(workflows.Triage)
	w.RegisterWorkflow(workflows.Action)
	w.RegisterWorkflow(workflows.KillSwitch)
	w.RegisterWorkflow(workflows.Playbook)
	w.RegisterWorkflow(workflows.NotifyChannel)
	// Worker metrics join the process-wide registry that /metrics serves.
	reg := prometheus.DefaultRegisterer
	w.RegisterActivity(&activities.Activities{
		Store: st,
		Analyzer: &llm.Analyzer{Config: llm.ConfigFromSettings(svc), Fallback: triage.NewRuleAnalyzer(),
			Metrics: llm.NewMetrics(reg)},
		Enricher:   intel.NewEnricher(st, intel.NewSimulated(), reg),
		Policy:     policy.NewEngine(st),
		Connectors: NewConnectors(st),
		Settings:   svc,
		Notifier:   activities.LogNotifier{Log: log},
		Links:      links,
		Notify:     NewNotifier(st, svc, links.PublicURL),
	})
	return w
}

// Run starts the parts of Vigil that mode selects and blocks until ctx is
// cancelled; then it drains in-flight HTTP requests and lets the worker
// finish its current tasks before returning.
func Run(ctx context.Context, cfg Config, mode Mode, log *slog.Logger) error {
	st, err := OpenStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := EnsureBuiltinPlaybooks(ctx, st); err != nil {
		return err
	}
	if cfg.BootstrapAdminKey != "" {
		revoked, err := st.BootstrapAdmin(ctx, cfg.BootstrapAdminKey)
		if err != nil {
			return fmt.Errorf("bootstrap admin: %w", err)
		}
		if revoked {
			log.Warn("VIGIL_BOOTSTRAP_ADMIN_KEY was revoked and stays revoked; set a new key")
		}
	}
	box, err := NewSecrets(cfg)
	if err != nil {
		return err
	}
	if box == nil {
		log.Warn("VIGIL_SECRET_KEY is not set: webhook secrets and the LLM key cannot be stored")
	}
	svc := settings.NewService(st, box)
	tc, err := DialTemporal(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer tc.Close()

	var w worker.Worker
	if mode == ModeServe || mode == ModeWorker {
		if err := EnsureSearchAttributes(ctx, tc, cfg.TemporalNamespace, log); err != nil {
			return err
		}
		w = NewWorkerLinking(tc, st, svc, log, cfg.ShutdownTimeout, runview.Links{PublicURL: cfg.PublicURL})
		if err := w.Start(); err != nil {
			return fmt.Errorf("start worker: %w", err)
		}
		log.Info("worker started", "task_queue", workflows.TaskQueue, "namespace", cfg.TemporalNamespace)
		// Stop waits for running activities up to WorkerStopTimeout.
		defer w.Stop()
	}
	if mode == ModeWorker {
		<-ctx.Done()
		log.Info("shutting down worker")
		return nil
	}
	return serveHTTP(ctx, cfg, st, svc, box, tc, log)
}

// NewSecrets builds the box that seals stored secrets; nil (without
// VIGIL_SECRET_KEY) means secrets cannot be stored.
func NewSecrets(cfg Config) (*secrets.Box, error) {
	if cfg.SecretKey == "" {
		return nil, nil
	}
	b, err := secrets.NewBox(cfg.SecretKey)
	if err != nil {
		return nil, fmt.Errorf("VIGIL_SECRET_KEY: %w", err)
	}
	return b, nil
}

func serveHTTP(ctx context.Context, cfg Config, st *store.Store, svc *settings.Service, box *secrets.Box, tc client.Client, log *slog.Logger) error {
	launcher := &dispatch.Launcher{Store: st, Temporal: tc, Links: runview.Links{PublicURL: cfg.PublicURL}}
	dispatcher := dispatch.NewDispatcher(st, launcher, svc, log)
	dispatchCtx, stopDispatch := context.WithCancel(context.WithoutCancel(ctx))
	dispatchDone := make(chan struct{})
	relay := dispatch.NewRelay(st, tc, log)
	go func() { defer close(dispatchDone); dispatcher.Run(dispatchCtx) }()
	relayDone := make(chan struct{})
	go func() { defer close(relayDone); relay.Run(dispatchCtx) }()
	defer func() { stopDispatch(); <-dispatchDone; <-relayDone }()
	// The default registry already carries the Go and process collectors,
	// and the worker's metrics in serve mode.
	reg := prometheus.DefaultRegisterer
	router := api.NewRouter(api.Options{
		Store: st, Temporal: tc, Log: log, Version: Version,
		Settings: svc, MaxBodyBytes: cfg.MaxBodyBytes, TriageWait: cfg.TriageWait, ActionWait: cfg.ActionWait,
		Connectors: NewConnectors(st), Secrets: box, Dispatcher: dispatcher,
		SecureCookies: cfg.SecureCookies, TrustedProxies: cfg.TrustedProxies, PublicURL: cfg.PublicURL,
		Registerer: reg, Gatherer: prometheus.DefaultGatherer,
		Notify: NewNotifier(st, svc, cfg.PublicURL),
	})
	// The dashboard shares the engine and sends every read and write to
	// the API's handler, so the API's checks decide each of them.
	web.New(web.Options{API: router, TemporalUIURL: cfg.TemporalUIURL,
		TemporalNamespace: cfg.TemporalNamespace, Log: log}).Mount(router.Engine)
	srv := &http.Server{
		Handler:           router,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", cfg.HTTPAddr, err)
	}
	log.Info("api listening", "url", "http://"+ln.Addr().String(), "dashboard", "http://"+ln.Addr().String()+"/", "version", Version)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down: draining in-flight requests", "timeout", cfg.ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("drain http server: %w", err)
	}
	return nil
}

// EnsureBuiltinPlaybooks installs the built-in playbooks that are missing.
// An existing one is left as it is: operators may have disabled it or
// saved versions of their own.
func EnsureBuiltinPlaybooks(ctx context.Context, st *store.Store) error {
	for _, p := range playbook.Builtins() {
		if _, err := st.PlaybookByName(ctx, p.Name); err == nil {
			continue
		} else if !errors.Is(err, store.ErrNotFound) {
			return err
		}
		text, _ := playbook.BuiltinYAML(p.Name)
		meta := store.PlaybookMeta{Name: p.Name, Description: p.Description,
			TriggerIncidentType: p.Triggers.IncidentType, AutoRun: p.Triggers.AutoRun}
		if _, err := st.CreatePlaybook(ctx, meta, string(text), "system", true); err != nil && !errors.Is(err, store.ErrConflict) {
			return fmt.Errorf("install built-in playbook %q: %w", p.Name, err)
		}
	}
	return nil
}
