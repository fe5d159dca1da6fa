// Package urlhaus rates indicators with abuse.ch's URLhaus API: URLs by
// the URL lookup, domains and IP addresses by the host lookup, and MD5 or
// SHA-256 file hashes by the payload lookup. Every query is a form POST
// carrying the abuse.ch Auth-Key header. It is an intel.Source.
package urlhaus

import (
	"context"
	"errors"
	"net/url"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations use and the source name in
// reputations.
const Type = "urlhaus"

// DefaultBaseURL is the URLhaus API root.
const DefaultBaseURL = "https://urlhaus-api.abuse.ch/v1"

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: "URLhaus (abuse.ch)",
		Kinds: []string{connectors.KindIntel},
		Fields: []connectors.Field{
			{Name: "auth_key", Required: true, Secret: true, Description: "abuse.ch Auth-Key (auth.abuse.ch → Optional → API keys)"},
			{Name: "base_url", Default: DefaultBaseURL, Description: "API root"},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Connector is a configured abuse.ch key; it implements intel.Source and
// connectors.Tester.
type Connector struct{ api *vendorhttp.Client }

// New builds a connector from cfg without calling URLhaus.
func New(cfg connectors.Config) (*Connector, error) {
	key := cfg.Secrets["auth_key"]
	if key == "" {
		return nil, connectors.Permanentf("urlhaus: auth_key is required")
	}
	return &Connector{api: &vendorhttp.Client{Vendor: "URLhaus", BaseURL: cfg.Setting("base_url", DefaultBaseURL),
		HTTP: cfg.HTTP, Auth: vendorhttp.StaticHeader("Auth-Key", key)}}, nil
}

// Name is the source name reputations carry.
func (c *Connector) Name() string { return Type }

// Simulated is false: answers are URLhaus's.
func (c *Connector) Simulated() bool { return false }

// Test looks up a harmless URL, which proves the key.
func (c *Connector) Test(ctx context.Context) error {
	var out answer
	return c.query(ctx, "/url/", url.Values{"url": {"https://example.com/"}}, &out)
}

// answer is the envelope every URLhaus lookup shares.
type answer struct {
	QueryStatus string `json:"query_status"`
}

func (a answer) status() string { return a.QueryStatus }

// query posts form to path and decodes the answer into out. URLhaus
// reports most failures in query_status with HTTP 200; those become the
// same error kinds a status code would.
func (c *Connector) query(ctx context.Context, path string, form url.Values, out interface{ status() string }) error {
	_, err := c.api.Do(ctx, vendorhttp.Request{Method: "POST", Path: path, Body: form, Out: out})
	var ve *vendorhttp.Error
	if errors.As(err, &ve) && ve.Kind == vendorhttp.ErrPermission {
		// abuse.ch answers a refused Auth-Key with 401 or 403; there are
		// no scopes, so either means the key is wrong.
		ve.Kind = vendorhttp.ErrAuth
	}
	if err != nil {
		return err
	}
	switch s := out.status(); s {
	case "ok", "no_results":
		return nil
	case "unknown_auth_key":
		return &vendorhttp.Error{Vendor: "URLhaus", Kind: vendorhttp.ErrAuth, Detail: s, Permanent: true}
	default:
		return &vendorhttp.Error{Vendor: "URLhaus", Kind: vendorhttp.ErrVendor, Detail: "query_status " + s, Permanent: true}
	}
}
