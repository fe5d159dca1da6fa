package notify

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/vigil-soc/vigil/store"
)

// Metrics counts notification outcomes; a nil *Metrics records nothing.
type Metrics struct {
	sent     *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

// NewMetrics registers notifications_sent_total and
// notification_delivery_seconds with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	m := &Metrics{
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "notifications_sent_total",
			Help: "Notification delivery attempts by channel type and outcome (sent, failed, pending = will retry)."},
			[]string{"channel_type", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "notification_delivery_seconds",
			Help:    "Time from an event's delivery being queued to its being sent.",
			Buckets: []float64{0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800}}, []string{"channel_type"}),
	}
	registerOrReuse(reg, &m.sent)
	registerOrReuse(reg, &m.duration)
	return m
}

// registerOrReuse registers c, or adopts the collector already registered
// under its name (a worker and an API in one process share the registry).
func registerOrReuse[T prometheus.Collector](reg prometheus.Registerer, c *T) {
	if err := reg.Register(*c); err != nil {
		if are, ok := err.(prometheus.AlreadyRegisteredError); ok {
			if existing, ok := are.ExistingCollector.(T); ok {
				*c = existing
			}
		}
	}
}

func (m *Metrics) observe(channelType, status string, since time.Duration) {
	if m == nil {
		return
	}
	m.sent.WithLabelValues(channelType, status).Inc()
	if status == store.DeliverySent {
		m.duration.WithLabelValues(channelType).Observe(since.Seconds())
	}
}

// RegisterPending adds notifications_pending{channel_id}, read from the
// store at each scrape.
func RegisterPending(reg prometheus.Registerer, st *store.Store) {
	desc := prometheus.NewDesc("notifications_pending", "Deliveries waiting to be sent, per channel.", []string{"channel_id"}, nil)
	_ = reg.Register(pendingCollector{desc: desc, st: st})
}

type pendingCollector struct {
	desc *prometheus.Desc
	st   *store.Store
}

func (p pendingCollector) Describe(ch chan<- *prometheus.Desc) { ch <- p.desc }

func (p pendingCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	counts, err := p.st.PendingDeliveries(ctx)
	if err != nil {
		return
	}
	for id, n := range counts {
		ch <- prometheus.MustNewConstMetric(p.desc, prometheus.GaugeValue, float64(n), id)
	}
}
