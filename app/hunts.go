package app

import (
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/worker"

	"github.com/vigil-soc/vigil/hunt/datasource"
	"github.com/vigil-soc/vigil/hunt/huntact"
	"github.com/vigil-soc/vigil/hunt/huntflow"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// RegisterHunts adds the hunt run workflow and its activities to a worker.
func RegisterHunts(w worker.Worker, st *store.Store, box *secrets.Box, storePaths []string) {
	w.RegisterWorkflow(huntflow.Run)
	w.RegisterActivity(&huntact.Activities{Store: st, Secrets: box,
		Sources: datasource.Options{StorePaths: storePaths}, Metrics: huntact.NewMetrics(prometheus.DefaultRegisterer)})
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
