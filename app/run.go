package app

import (
	"context"
	"errors"
	"fmt"
	"github.com/vigil-soc/vigil/outbound"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/activities"
	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/configured"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/content"
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
	if err := CheckDatabaseURL(cfg.DatabaseURL); err != nil {
		return nil, err
	}
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

// NewConnectors builds the response tool connectors: the simulated set,
// which keeps its state in the store, until vendor connectors are
// configured.
func NewConnectors(st *store.Store) connectors.Set { return simulated.New(st) }

// NewNotifier builds the notification service: channels sealed with the
// settings' box, the stored outbound policy, links to publicURL, and
// metrics in the process-wide registry.
func NewNotifier(st *store.Store, svc *settings.Service, publicURL string) *notify.Service {
	n := &notify.Service{Store: st, Links: notify.Links{PublicURL: publicURL}, Policy: outbound.FromStore(st),
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
	return NewWorkerWith(c, st, svc, log, stopTimeout, links, NewConnectorConfigs(st, svc, nil, log))
}

// NewWorkerWith is NewWorkerLinking whose actions and threat-intel
// lookups go through the connectors conns builds from the stored
// configuration.
func NewWorkerWith(c client.Client, st *store.Store, svc *settings.Service, log *slog.Logger, stopTimeout time.Duration,
	links runview.Links, conns *configured.Service) worker.Worker {
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
		Enricher:     intel.NewEnricher(st, conns.IntelSource(), reg),
		Policy:       policy.NewEngine(st),
		Connectors:   conns.Simulated,
		ConnectorSet: conns.Set,
		Settings:     svc,
		Notifier:     activities.LogNotifier{Log: log},
		Links:        links,
		Notify:       NewNotifier(st, svc, links.PublicURL),
	})
	return w
}

// Run starts the parts of Vigil that mode selects and blocks until ctx is
// cancelled; then it drains in-flight HTTP requests and lets the worker
// finish its current tasks before returning.
func Run(ctx context.Context, cfg Config, mode Mode, log *slog.Logger) error {
	log.Info("garbage collector", "settings", TuneGC().String())
	st, err := OpenStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := EnsureBuiltinPlaybooks(ctx, st); err != nil {
		return err
	}
	if res, err := content.EnsureBuiltin(ctx, st, Version); err != nil {
		return err
	} else if res != nil {
		log.Info("built-in content installed", "package", content.BuiltinName, "version", content.BuiltinVersion,
			"imported", res.Imported, "unchanged_or_kept", res.Skipped)
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

	// The API starts workflows that carry the search attributes, so it
	// checks them too: a missing one would otherwise fail every start.
	if err := EnsureSearchAttributes(ctx, tc, cfg.TemporalNamespace, log); err != nil {
		return err
	}
	// Vendor quotas are counted where the API's rate limits are: in
	// Redis when configured, so every worker shares them.
	quota, closeQuota, err := RateLimitStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeQuota()
	conns := NewConnectorConfigs(st, svc, quota, log)
	var w worker.Worker
	if mode == ModeServe || mode == ModeWorker {
		w = NewWorkerWith(tc, st, svc, log, cfg.ShutdownTimeout, runview.Links{PublicURL: cfg.PublicURL}, conns)
		RegisterHunts(w, st, box, StorePaths(cfg))
		if err := w.Start(); err != nil {
			return fmt.Errorf("start worker: %w", err)
		}
		log.Info("worker started", "task_queue", workflows.TaskQueue, "namespace", cfg.TemporalNamespace)
		// Stop waits for running activities up to WorkerStopTimeout.
		defer w.Stop()
	}
	if mode == ModeWorker {
		return serveWorkerHTTP(ctx, cfg, st, tc, log)
	}
	return serveHTTP(ctx, cfg, st, svc, box, tc, conns, log)
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

func serveHTTP(ctx context.Context, cfg Config, st *store.Store, svc *settings.Service, box *secrets.Box, tc client.Client,
	conns *configured.Service, log *slog.Logger) error {
	launcher := &dispatch.Launcher{Store: st, Temporal: tc, Links: runview.Links{PublicURL: cfg.PublicURL}}
	dispatcher := dispatch.NewDispatcher(st, launcher, svc, log)
	dispatcher.IntelCache = intel.NewEnricher(st, conns.IntelSource(), prometheus.DefaultRegisterer)
	dispatchCtx, stopDispatch := context.WithCancel(context.WithoutCancel(ctx))
	dispatchDone := make(chan struct{})
	relay := dispatch.NewRelay(st, tc, log)
	relay.OnIncidentCreated = StartTriggeredHunts(st, tc)
	go func() { defer close(dispatchDone); dispatcher.Run(dispatchCtx) }()
	relayDone := make(chan struct{})
	go func() { defer close(relayDone); relay.Run(dispatchCtx) }()
	defer func() { stopDispatch(); <-dispatchDone; <-relayDone }()
	// The API's own series go to a registry of this run (a process may run
	// more than once, as tests do); /metrics serves it together with the
	// default registry, which carries the Go and process collectors, the
	// Temporal SDK's series and the worker's metrics in serve mode.
	reg := prometheus.NewRegistry()
	opts := api.Options{
		Store: st, Temporal: tc, Log: log, Version: Version, Commit: Commit,
		Settings: svc, MaxBodyBytes: cfg.MaxBodyBytes, TriageWait: cfg.TriageWait, ActionWait: cfg.ActionWait,
		Connectors: conns.Simulated, ConnectorConfigs: conns, Secrets: box, Dispatcher: dispatcher,
		SecureCookies: cfg.SecureCookies, TrustedProxies: cfg.TrustedProxies, PublicURL: cfg.PublicURL,
		Registerer: reg, Gatherer: prometheus.Gatherers{reg, prometheus.DefaultGatherer}, StorePaths: StorePaths(cfg),
		CodecAllowedOrigin: urlOrigin(cfg.TemporalUIURL),
		Notify:             NewNotifier(st, svc, cfg.PublicURL),
	}
	if codec, err := cfg.PayloadCodec(); err != nil {
		return err
	} else if codec != nil {
		opts.PayloadCodec = codec
	}
	limits, closeLimits, err := RateLimitStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeLimits()
	opts.RateLimitStore = limits
	router := api.NewRouter(opts)
	// The dashboard shares the engine and sends every read and write to
	// the API's handler, so the API's checks decide each of them.
	web.New(web.Options{API: router, TemporalUIURL: cfg.TemporalUIURL,
		TemporalNamespace: cfg.TemporalNamespace, PublicURL: cfg.PublicURL, Log: log}).Mount(router.Engine)
	srv := &http.Server{
		Handler:           router,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		ConnState:         router.ConnState,
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

// urlOrigin is the origin (scheme://host[:port]) of a URL, or "".
func urlOrigin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}
