package connectors

import (
	"context"

	"github.com/vigil-soc/vigil/actions"
)

// Health statuses, as GET /api/connectors/health reports them.
const (
	StatusHealthy   = "healthy"
	StatusDegraded  = "degraded"
	StatusUnhealthy = "unhealthy"
)

// Health is one connector's health.
type Health struct {
	Name      string `json:"name"`
	Type      string `json:"type"`
	Status    string `json:"status"`
	Message   string `json:"message,omitempty"`
	Simulated bool   `json:"simulated"`
}

// HealthChecker is implemented by connectors that can check their own
// health (reach the vendor API, validate credentials). It is optional so
// that a connector without such a probe can still be plugged in.
type HealthChecker interface {
	CheckHealth(ctx context.Context) Health
}

// Health reports every connector kind in a fixed order: email gateway, EDR,
// ticketing, notifier, identity. An unset kind is unhealthy ("not configured"); a
// connector that cannot check itself is reported healthy with a message
// saying so, since nothing indicates otherwise.
func (s Set) Health(ctx context.Context) []Health {
	out := make([]Health, 0, 5)
	for _, c := range s.members() {
		out = append(out, check(ctx, c.kind, c.impl))
	}
	return out
}

// HealthOf checks one connector, named by its Health name or its kind
// (for POST /api/connectors/{id}/test).
func (s Set) HealthOf(ctx context.Context, id string) (Health, bool) {
	for _, c := range s.members() {
		h := check(ctx, c.kind, c.impl)
		if id == c.kind || id == h.Name {
			return h, true
		}
	}
	return Health{}, false
}

type member struct {
	kind string
	impl any
}

// members lists the set's connectors; a nil field converts to a nil any,
// which check reports as not configured.
func (s Set) members() []member {
	return []member{
		{actions.ConnectorEmailGateway, s.Email},
		{actions.ConnectorEDR, s.EDR},
		{actions.ConnectorTicketing, s.Ticketing},
		{actions.ConnectorNotifier, s.Notifier},
		{actions.ConnectorIdentity, s.Identity},
	}
}

func check(ctx context.Context, kind string, impl any) Health {
	if impl == nil {
		return Health{Name: kind, Type: kind, Status: StatusUnhealthy, Message: "not configured"}
	}
	hc, ok := impl.(HealthChecker)
	if !ok {
		return Health{Name: kind, Type: kind, Status: StatusHealthy, Message: "no health check available"}
	}
	h := hc.CheckHealth(ctx)
	if h.Type == "" {
		h.Type = kind
	}
	if h.Name == "" {
		h.Name = kind
	}
	return h
}
