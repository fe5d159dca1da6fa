// Package abuseipdb rates IP addresses with AbuseIPDB's API v2 check
// endpoint: the community's abuse confidence score and report count. It is
// an intel.Source for IP addresses; once a response says the daily quota is
// spent, lookups fail fast until the quota resets instead of calling again.
package abuseipdb

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations use and the source name in
// reputations.
const Type = "abuseipdb"

// DefaultBaseURL is AbuseIPDB's API v2 root.
const DefaultBaseURL = "https://api.abuseipdb.com/api/v2"

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: "AbuseIPDB",
		Kinds: []string{connectors.KindIntel},
		Fields: []connectors.Field{
			{Name: "api_key", Required: true, Secret: true, Description: "API v2 key (Account → API)"},
			{Name: "base_url", Default: DefaultBaseURL, Description: "API root"},
			{Name: "max_age_days", Default: "90", Description: "only reports this many days old or newer count (1-365)"},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Connector is a configured AbuseIPDB key; it implements intel.Source and
// connectors.Tester.
type Connector struct {
	api    *vendorhttp.Client
	maxAge string
	quota  *quota
}

// New builds a connector from cfg without calling AbuseIPDB.
func New(cfg connectors.Config) (*Connector, error) {
	key := cfg.Secrets["api_key"]
	if key == "" {
		return nil, connectors.Permanentf("abuseipdb: api_key is required")
	}
	maxAge := cfg.Setting("max_age_days", "90")
	if n, err := strconv.Atoi(maxAge); err != nil || n < 1 || n > 365 {
		return nil, connectors.Permanentf("abuseipdb: max_age_days must be between 1 and 365")
	}
	return &Connector{
		api: &vendorhttp.Client{Vendor: "AbuseIPDB", BaseURL: cfg.Setting("base_url", DefaultBaseURL), HTTP: cfg.HTTP,
			Auth: vendorhttp.StaticHeader("Key", key)},
		maxAge: maxAge, quota: quotaFor(cfg.ID),
	}, nil
}

// Name is the source name reputations carry.
func (c *Connector) Name() string { return Type }

// Simulated is false: answers are AbuseIPDB's.
func (c *Connector) Simulated() bool { return false }

// Test checks 127.0.0.1 (one unit of the daily quota), which proves the key.
func (c *Connector) Test(ctx context.Context) error {
	_, err := c.check(ctx, "127.0.0.1")
	return err
}

// quota remembers, per configured connector and process, until when the
// daily quota is spent, as AbuseIPDB's X-RateLimit-Remaining and
// X-RateLimit-Reset headers announce it. Connectors are rebuilt per use,
// so the state lives outside them.
type quota struct {
	mu         sync.Mutex
	spentUntil time.Time
}

var (
	quotasMu sync.Mutex
	quotas   = map[string]*quota{}
)

func quotaFor(id string) *quota {
	quotasMu.Lock()
	defer quotasMu.Unlock()
	q, ok := quotas[id]
	if !ok {
		q = &quota{}
		quotas[id] = q
	}
	return q
}

// wait is how long the quota stays spent, or 0.
func (q *quota) wait() time.Duration {
	q.mu.Lock()
	defer q.mu.Unlock()
	return time.Until(q.spentUntil)
}

// observe reads the rate-limit headers of an answer.
func (q *quota) observe(remaining, reset string) {
	if remaining != "0" {
		return
	}
	secs, err := strconv.ParseInt(reset, 10, 64)
	if err != nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.spentUntil = time.Unix(secs, 0)
}
