// Package sentinelone connects Vigil to SentinelOne Singularity: agent
// lookup, network quarantine (disconnect and reconnect) and full disk
// scans through the management console's API v2.1.
package sentinelone

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations name.
const Type = "sentinelone"

const title = "SentinelOne"

// apiPrefix is where the API lives on a console's host.
const apiPrefix = "/web/api/v2.1"

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: title,
		Kinds: []string{connectors.KindEDR},
		Fields: []connectors.Field{
			{Name: "base_url", Description: "your management console URL, for example https://usea1-partners.sentinelone.net", Required: true},
			{Name: "api_token", Description: "API token of a service user", Required: true, Secret: true},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Singularity is a configured SentinelOne connector; it implements
// connectors.EDR and connectors.Tester.
type Singularity struct {
	api *vendorhttp.Client
}

// New builds a connector from cfg without calling SentinelOne.
func New(cfg connectors.Config) (*Singularity, error) {
	if cfg.HTTP == nil {
		return nil, errors.New("sentinelone: no HTTP client")
	}
	base, token := strings.TrimSuffix(cfg.Settings["base_url"], "/"), cfg.Secrets["api_token"]
	if base == "" || token == "" {
		return nil, errors.New("sentinelone: base_url and api_token are required")
	}
	return &Singularity{api: &vendorhttp.Client{Vendor: title, BaseURL: base + apiPrefix, HTTP: cfg.HTTP,
		Auth: vendorhttp.StaticHeader("Authorization", "ApiToken "+token)}}, nil
}

// Test lists one agent: it proves the token and its right to view endpoints.
func (s *Singularity) Test(ctx context.Context) error {
	var out page[agent]
	_, err := s.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/agents",
		Query: url.Values{"limit": {"1"}}, Out: &out})
	return err
}

// page is the shape of SentinelOne's list answers.
type page[T any] struct {
	Data []T `json:"data"`
}

// affected is the answer to an agent action: how many agents it reached.
type affected struct {
	Data struct {
		Affected int `json:"affected"`
	} `json:"data"`
}

// agentAction runs an agents/actions endpoint for one agent and fails
// when it reached none (the agent is gone or outside the token's scope).
func (s *Singularity) agentAction(ctx context.Context, action, agentID string) error {
	var out affected
	_, err := s.api.Do(ctx, vendorhttp.Request{Method: http.MethodPost, Path: "/agents/actions/" + action,
		Body: map[string]any{"filter": map[string]any{"ids": []string{agentID}}, "data": map[string]any{}}, Out: &out})
	if err != nil {
		return err
	}
	if out.Data.Affected == 0 {
		return connectors.Permanentf("%s: %s reached no agent (id %s)", title, action, agentID)
	}
	return nil
}
