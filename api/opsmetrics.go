package api

import (
	"context"
	"net"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/vigil-soc/vigil/actions"
	"github.com/vigil-soc/vigil/store"
)

// opsCollector reads the service-wide metrics from the store at scrape
// time, so every API process reports the same numbers for the work of all
// of them. Every label takes its values from a closed set: severities,
// statuses, action types of the registry, intake kinds, component names.
type opsCollector struct {
	s                                  *server
	incidents, inProgress, actions     *prometheus.Desc
	pending, triageDur, actionDur      *prometheus.Desc
	queue, healthy, poolOpen, poolIdle *prometheus.Desc
	poolWaiting, poolClosed            *prometheus.Desc
}

func newOpsCollector(s *server) *opsCollector {
	d := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, labels, nil)
	}
	return &opsCollector{s: s,
		incidents:   d("vigil_incidents_total", "Incidents in the store, by severity and status.", "severity", "status"),
		inProgress:  d("vigil_incidents_in_progress", "Incidents not yet resolved."),
		actions:     d("vigil_actions_total", "Response actions in the store, by action type and status.", "action_type", "status"),
		pending:     d("vigil_pending_approvals", "Actions waiting for an approver."),
		triageDur:   d("vigil_triage_duration_seconds", "Duration of completed triage runs, from the request (an automated run: from its queueing with the incident) to the stored verdict."),
		actionDur:   d("vigil_action_duration_seconds", "Time from an action's request to its execution."),
		queue:       d("mq_messages_pending", "Intake queue entries waiting for the dispatcher, by topic (alert, triage, playbook).", "topic"),
		healthy:     d("component_healthy", "1 when the component answers its health probe, else 0.", "component"),
		poolOpen:    d("db_pool_connections_total", "Open database connections, in use or idle."),
		poolIdle:    d("db_pool_connections_idle", "Idle database connections."),
		poolWaiting: d("db_pool_connections_waiting", "Connection requests that waited for a free connection, since start."),
		poolClosed: d("db_pool_connections_closed_total", "Database connections the pool closed for being idle or old, since start; "+
			"a steady rise means connections are reopened under load."),
	}
}

func (o *opsCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{o.incidents, o.inProgress, o.actions, o.pending, o.triageDur, o.actionDur,
		o.queue, o.healthy, o.poolOpen, o.poolIdle, o.poolWaiting, o.poolClosed} {
		ch <- d
	}
}

func (o *opsCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	gauge := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v, labels...)
	}
	if db, err := o.s.store.DB().DB(); err == nil {
		ps := db.Stats()
		gauge(o.poolOpen, float64(ps.OpenConnections))
		gauge(o.poolIdle, float64(ps.Idle))
		gauge(o.poolWaiting, float64(ps.WaitCount))
		ch <- prometheus.MustNewConstMetric(o.poolClosed, prometheus.CounterValue,
			float64(ps.MaxIdleClosed+ps.MaxIdleTimeClosed+ps.MaxLifetimeClosed))
	}
	for name, c := range o.s.detailedHealth(ctx).Components {
		v := 0.0
		if c.Status == statusHealthy || c.Status == "active" || c.Status == "inactive" || c.Status == statusNotConfigured {
			v = 1
		}
		gauge(o.healthy, v, name)
	}
	st, err := o.s.store.OpsStats(ctx)
	if err != nil {
		o.s.log.Warn("metrics: store statistics unavailable", "err", err)
		return
	}
	var open float64
	for _, c := range st.Incidents {
		gauge(o.incidents, float64(c.N), c.A, c.B)
		if c.B != store.StatusResolved {
			open += float64(c.N)
		}
	}
	gauge(o.inProgress, open)
	// Every known type and status is reported, zero included, so a
	// dashboard's series exist before the first action; types no longer
	// in the catalog still show with what the store holds.
	counts := map[[2]string]int64{}
	for _, t := range actions.Types() {
		for _, status := range store.ActionStatuses {
			counts[[2]string{t.Name, status}] = 0
		}
	}
	for _, c := range st.Actions {
		counts[[2]string{c.A, c.B}] += c.N
	}
	for k, n := range counts {
		gauge(o.actions, float64(n), k[0], k[1])
	}
	gauge(o.pending, float64(st.PendingApprovals))
	for topic, n := range st.IntakeBacklog {
		gauge(o.queue, float64(n), topic)
	}
	ch <- prometheus.MustNewConstHistogram(o.triageDur, st.TriageDuration.Count, st.TriageDuration.Sum, st.TriageDuration.Buckets)
	ch <- prometheus.MustNewConstHistogram(o.actionDur, st.ActionDuration.Count, st.ActionDuration.Sum, st.ActionDuration.Buckets)
}

// connState counts open client connections for http_connections_active;
// the HTTP server calls it on every connection state change.
func (m *httpMetrics) connState(_ net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		m.connections.Inc()
	case http.StateClosed, http.StateHijacked:
		m.connections.Dec()
	}
}

// opsMetrics answers GET /api/metrics: the numbers a dashboard shows.
func (s *server) opsMetrics(c *gin.Context) (reply, error) {
	st, err := s.store.OpsStats(c)
	if err != nil {
		return reply{}, err
	}
	bySeverity, byStatus := map[string]int64{}, map[string]int64{}
	var total int64
	for _, ic := range st.Incidents {
		bySeverity[ic.A] += ic.N
		byStatus[ic.B] += ic.N
		total += ic.N
	}
	actionsByType, actionsByStatus := map[string]int64{}, map[string]int64{}
	for _, a := range st.Actions {
		actionsByType[a.A] += a.N
		actionsByStatus[a.B] += a.N
	}
	var meanTriage, automation *float64
	if st.TriageDuration.Count > 0 {
		v := st.TriageDuration.Sum / float64(st.TriageDuration.Count)
		meanTriage = &v
	}
	if done := actionsByStatus[store.ActionCompleted]; done > 0 {
		v := float64(st.AutoCompleted) / float64(done)
		automation = &v
	}
	var depth int64
	for _, n := range st.IntakeBacklog {
		depth += n
	}
	return ok(gin.H{
		"incidents": gin.H{"total": total, "by_severity": bySeverity, "by_status": byStatus,
			"open": byStatus[store.StatusOpen], "triaged": byStatus[store.StatusTriaged]},
		"mean_time_to_triage_seconds": meanTriage,
		"triages_completed":           st.TriageDuration.Count,
		"pending_approvals":           st.PendingApprovals,
		"actions":                     gin.H{"by_type": actionsByType, "by_status": actionsByStatus},
		"automation_rate":             automation,
		"intake_queue_depth":          depth,
		"intake_queue":                st.IntakeBacklog,
	}), nil
}
