package api

import (
	"context"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// unmatchedPath labels requests that matched no route, so hostile URLs
// cannot blow up metric cardinality.
const unmatchedPath = "unmatched"

type httpMetrics struct {
	requests        *prometheus.CounterVec
	duration        *prometheus.HistogramVec
	inFlight        prometheus.Gauge
	webhookReceived *prometheus.CounterVec
	webhookErrors   *prometheus.CounterVec
	healthProbes    *prometheus.CounterVec
	connections     prometheus.Gauge
}

func newHTTPMetrics(reg prometheus.Registerer) *httpMetrics {
	m := &httpMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total",
			Help: "HTTP requests served, by method, route template and status.",
		}, []string{"method", "path", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_request_duration_seconds",
			Help:    "HTTP request latency by method and route template.",
			Buckets: prometheus.DefBuckets,
		}, []string{"method", "path"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "http_requests_in_flight",
			Help: "HTTP requests being served.",
		}),
	}
	m.webhookReceived = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "webhook_received_total",
		Help: "Webhook deliveries received, by source.",
	}, []string{"source"})
	m.webhookErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "webhook_errors_total",
		Help: "Webhook deliveries refused, by source and reason.",
	}, []string{"source", "reason"})
	m.healthProbes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "health_probes_total",
		Help: "Probes of a component made to answer /health and /ready, by component.",
	}, []string{"component"})
	m.connections = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "http_connections_active",
		Help: "Client connections open to the HTTP server.",
	})
	reg.MustRegister(m.requests, m.duration, m.inFlight, m.webhookReceived, m.webhookErrors, m.healthProbes, m.connections)
	return m
}

func (m *httpMetrics) middleware(c *gin.Context) {
	start := time.Now()
	m.inFlight.Inc()
	defer m.inFlight.Dec()
	c.Next()
	path := c.FullPath()
	if path == "" {
		path = unmatchedPath
	}
	m.requests.WithLabelValues(c.Request.Method, path, strconv.Itoa(c.Writer.Status())).Inc()
	m.duration.WithLabelValues(c.Request.Method, path).Observe(time.Since(start).Seconds())
}

func (s *server) metricsHandler() gin.HandlerFunc {
	h := promhttp.HandlerFor(s.opts.Gatherer, promhttp.HandlerOpts{})
	return gin.WrapH(h)
}

// registerKillSwitchMetric exposes kill_switch_active (0 or 1), read from
// the store at scrape time.
func (s *server) registerKillSwitchMetric(reg prometheus.Registerer) {
	reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "kill_switch_active",
		Help: "1 while the kill switch halts all automation, else 0.",
	}, func() float64 {
		ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
		defer cancel()
		if s.killSwitchActive(ctx) {
			return 1
		}
		return 0
	}))
}
