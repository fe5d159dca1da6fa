// Package virustotal rates indicators with VirusTotal API v3: files by
// hash, URLs, domains and IP addresses, from the engines' last analysis.
// It is an intel.Source; calls wait for the shared per-minute quota when
// the framework provides one, since the public tier allows 4 a minute
// across every worker using the key.
package virustotal

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations use; also the quota key and the
// source name in reputations.
const Type = "virustotal"

// DefaultBaseURL is VirusTotal's API v3 root.
const DefaultBaseURL = "https://www.virustotal.com/api/v3"

// publicQuota is the public API's requests per minute.
const publicQuota = 4

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: "VirusTotal",
		Kinds: []string{connectors.KindIntel},
		Fields: []connectors.Field{
			{Name: "api_key", Required: true, Secret: true, Description: "API key (profile menu → API key)"},
			{Name: "base_url", Default: DefaultBaseURL, Description: "API root"},
			{Name: "requests_per_minute", Default: strconv.Itoa(publicQuota),
				Description: "quota shared by every worker: 4 on the public tier, your contract's on a premium one"},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Connector is a configured VirusTotal key; it implements intel.Source
// and connectors.Tester.
type Connector struct {
	api       *vendorhttp.Client
	limit     func(ctx context.Context, key string, perMinute int) error
	perMinute int
}

// New builds a connector from cfg without calling VirusTotal.
func New(cfg connectors.Config) (*Connector, error) {
	key := cfg.Secrets["api_key"]
	if key == "" {
		return nil, connectors.Permanentf("virustotal: api_key is required")
	}
	perMinute, err := strconv.Atoi(cfg.Setting("requests_per_minute", strconv.Itoa(publicQuota)))
	if err != nil || perMinute <= 0 {
		return nil, connectors.Permanentf("virustotal: requests_per_minute must be a positive number")
	}
	return &Connector{
		api: &vendorhttp.Client{Vendor: "VirusTotal", BaseURL: cfg.Setting("base_url", DefaultBaseURL), HTTP: cfg.HTTP,
			Auth: vendorhttp.StaticHeader("x-apikey", key),
			// A 429 means the minute's or the day's quota is spent; trying
			// again within the same call only spends more of it.
			Attempts: 1},
		limit: cfg.Limit, perMinute: perMinute,
	}, nil
}

// Name is the source name reputations carry.
func (c *Connector) Name() string { return Type }

// Simulated is false: answers are VirusTotal's.
func (c *Connector) Simulated() bool { return false }

// Test looks up example.com: one quota unit, and it proves the key.
func (c *Connector) Test(ctx context.Context) error {
	_, err := c.object(ctx, "/domains/example.com")
	return err
}

// get performs one GET within the shared quota.
func (c *Connector) get(ctx context.Context, path string, out any) error {
	if c.limit != nil {
		if err := c.limit(ctx, Type, c.perMinute); err != nil {
			return err
		}
	}
	_, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: path, Out: out})
	var ve *vendorhttp.Error
	if errors.As(err, &ve) && ve.Status == 429 && ve.RetryAfter == 0 {
		// QuotaExceededError carries no Retry-After; the per-minute window
		// is the shortest wait that can help.
		ve.RetryAfter = time.Minute
	}
	return err
}
