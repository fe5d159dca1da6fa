package huntact

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// Metrics counts hunt runs and findings; a nil *Metrics records nothing.
type Metrics struct {
	runs     *prometheus.CounterVec
	findings *prometheus.CounterVec
	duration prometheus.Histogram
}

// NewMetrics registers hunt_runs_total{status}, hunt_findings_total{severity}
// and hunt_run_duration_seconds with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hunt_runs_total",
			Help: "Hunt runs finished, by status."}, []string{"status"}),
		findings: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "hunt_findings_total",
			Help: "Hunt findings recorded (new or seen again), by severity."}, []string{"severity"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "hunt_run_duration_seconds",
			Help: "Duration of finished hunt runs.", Buckets: prometheus.ExponentialBuckets(0.1, 2.5, 10)}),
	}
	for _, c := range []prometheus.Collector{m.runs, m.findings, m.duration} {
		if err := reg.Register(c); err != nil {
			if are, ok := err.(prometheus.AlreadyRegisteredError); ok {
				switch c {
				case m.runs:
					m.runs = are.ExistingCollector.(*prometheus.CounterVec)
				case m.findings:
					m.findings = are.ExistingCollector.(*prometheus.CounterVec)
				default:
					m.duration = are.ExistingCollector.(prometheus.Histogram)
				}
			}
		}
	}
	return m
}

func (m *Metrics) run(status string, d time.Duration) {
	if m == nil {
		return
	}
	m.runs.WithLabelValues(status).Inc()
	m.duration.Observe(d.Seconds())
}

func (m *Metrics) finding(severity string) {
	if m == nil {
		return
	}
	m.findings.WithLabelValues(severity).Inc()
}
