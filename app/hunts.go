package app

import (
	"context"
	"errors"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/hunt"
	"github.com/vigil-soc/vigil/hunt/huntact"
	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// RegisterHunts adds the hunt run workflow and its activities to a worker.
func RegisterHunts(w worker.Worker, st *store.Store, box *secrets.Box, storePaths []string) {
	w.RegisterWorkflow(huntflow.Run)
	w.RegisterActivity(&huntact.Activities{Store: st, Secrets: box,
		Sources: hunt.SourceOptions(st, storePaths), Metrics: huntact.NewMetrics(prometheus.DefaultRegisterer)})
}

// StorePaths are Vigil's own SQLite files, which no hunt data source may
// open; none on PostgreSQL.
func StorePaths(cfg Config) []string {
	switch {
	case cfg.DatabaseURL == "":
		return []string{store.DefaultSQLitePath}
	case strings.HasPrefix(cfg.DatabaseURL, "postgres://") || strings.HasPrefix(cfg.DatabaseURL, "postgresql://"):
		return nil
	}
	return []string{cfg.DatabaseURL}
}

// StartTriggeredHunts is the relay's hook for new incidents: it starts the
// active triggered hunts the incident matches (once per hunt and incident).
func StartTriggeredHunts(st *store.Store, tc client.Client) func(context.Context, *store.NotificationEvent) error {
	return func(ctx context.Context, ev *store.NotificationEvent) error {
		inc, err := st.GetIncident(ctx, ev.IncidentID)
		if errors.Is(err, store.ErrNotFound) {
			return nil // deleted since; nothing to hunt for
		}
		if err != nil {
			return err
		}
		_, err = huntflow.StartTriggeredHunts(ctx, tc, st, workflows.TaskQueue, huntflow.IncidentTrigger(inc))
		return err
	}
}
