package llm

import (
	"github.com/prometheus/client_golang/prometheus"

	promreg "github.com/vigil-soc/vigil/internal/metrics"
)

// Metrics counts requests to language model providers and the tokens they
// bill. A nil *Metrics is valid and counts nothing.
type Metrics struct {
	requests *prometheus.CounterVec
	tokens   *prometheus.CounterVec
}

// NewMetrics registers llm_requests_total{provider,model} and
// llm_tokens_used_total{provider,type} on reg (type is prompt or
// completion). Collectors already registered on reg by an earlier call are
// reused, so several analyzers in one process share them; a nil reg leaves
// the collectors unregistered.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	return &Metrics{
		requests: promreg.Register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "llm_requests_total",
			Help: "Requests sent to the language model provider, whatever their outcome.",
		}, []string{"provider", "model"})),
		tokens: promreg.Register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "llm_tokens_used_total",
			Help: "Tokens the language model provider reported as used, by prompt or completion.",
		}, []string{"provider", "type"})),
	}
}

func (m *Metrics) request(provider, model string) {
	if m != nil {
		m.requests.WithLabelValues(provider, model).Inc()
	}
}

func (m *Metrics) usage(provider string, u Usage) {
	if m == nil {
		return
	}
	if u.PromptTokens > 0 {
		m.tokens.WithLabelValues(provider, "prompt").Add(float64(u.PromptTokens))
	}
	if u.CompletionTokens > 0 {
		m.tokens.WithLabelValues(provider, "completion").Add(float64(u.CompletionTokens))
	}
}
