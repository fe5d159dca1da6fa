package llm

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
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
		requests: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "llm_requests_total",
			Help: "Requests sent to the language model provider, whatever their outcome.",
		}, []string{"provider", "model"})),
		tokens: register(reg, prometheus.NewCounterVec(prometheus.CounterOpts{
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

// register adds c to reg, or returns the equal collector already there. A
// clash with a different metric of the same name is a programming error and
// panics, as MustRegister would.
func register[C prometheus.Collector](reg prometheus.Registerer, c C) C {
	if reg == nil {
		return c
	}
	err := reg.Register(c)
	if err == nil {
		return c
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if existing, ok := are.ExistingCollector.(C); ok {
			return existing
		}
	}
	panic(fmt.Errorf("register llm metric: %w", err))
}
