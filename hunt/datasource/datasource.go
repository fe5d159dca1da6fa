// Package datasource runs hunt queries against the stores a team keeps its
// logs in: SQL databases (PostgreSQL, MariaDB/MySQL, SQLite files),
// Elasticsearch/OpenSearch, Splunk, Azure Log Analytics and a custom HTTP
// endpoint. Every source answers rows as maps, capped in number.
package datasource

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-soc/vigil/outbound"
)

// Kinds of data source; each runs the query type of the same name.
const (
	KindSQL          = "sql"
	KindSearchIndex  = "search_index"
	KindSIEMSearch   = "siem_search"
	KindLogAnalytics = "log_analytics"
	KindCustom       = "custom"
)

// Kinds lists every kind.
var Kinds = []string{KindSQL, KindSearchIndex, KindSIEMSearch, KindLogAnalytics, KindCustom}

// DefaultMaxRows caps the rows one query returns when the source sets none.
const DefaultMaxRows = 10000

// DefaultTimeout bounds one query when the request sets none.
const DefaultTimeout = 60 * time.Second

// Config describes a source: its kind, its settings and its credentials
// (opened from the sealed column only to build the source).
type Config struct {
	Name        string
	Kind        string
	Settings    map[string]any
	Credentials map[string]string
}

// Request is one query to run over a time window.
type Request struct {
	Query  string
	Params map[string]any
	From   time.Time
	To     time.Time
	// MaxRows caps the rows; zero means the source's cap.
	MaxRows int
	// Timeout bounds the query in the engine; zero means DefaultTimeout.
	Timeout time.Duration
}

// Result is the rows a query matched, at most the cap.
type Result struct {
	Columns   []string         `json:"columns"`
	Rows      []map[string]any `json:"rows"`
	Truncated bool             `json:"truncated"`
}

// Source runs queries against one data store.
type Source interface {
	// Run runs one query; ctx cancels it.
	Run(ctx context.Context, req Request) (Result, error)
	// Test checks that the store answers with the configured credentials.
	Test(ctx context.Context) error
	// Close releases connections.
	Close() error
}

// ConfigError names the setting of a source that is wrong.
type ConfigError struct {
	Field   string
	Message string
}

func (e *ConfigError) Error() string { return e.Field + ": " + e.Message }

// ErrUnsupportedKind is returned for a kind this package does not know.
var ErrUnsupportedKind = errors.New("unsupported data source kind")

// Options carries what every source needs from the process.
type Options struct {
	// StorePaths are files that must never be opened as a SQLite source
	// (Vigil's own store holds keys and sessions).
	StorePaths []string
	// Outbound answers the outbound policy in force (setting outbound),
	// read at each HTTP call; nil means the policy's defaults: https only,
	// no loopback, private, link-local or cloud metadata address.
	Outbound func(context.Context) outbound.Policy
}

// ErrRefused marks a call the outbound policy does not allow; retrying
// cannot help until an admin changes the policy.
var ErrRefused = outbound.ErrRefused

type outboundKey struct{}

// WithOutbound makes the HTTP calls made with ctx take the outbound policy
// from get rather than from Options.Outbound: a caller running several
// queries as one unit (a hunt run) reads the policy once for all of them.
func WithOutbound(ctx context.Context, get func(context.Context) outbound.Policy) context.Context {
	return context.WithValue(ctx, outboundKey{}, get)
}

func (o Options) outbound(ctx context.Context) outbound.Policy {
	if get, ok := ctx.Value(outboundKey{}).(func(context.Context) outbound.Policy); ok {
		return get(ctx)
	}
	if o.Outbound == nil {
		return outbound.Policy{}
	}
	return o.Outbound(ctx)
}

// Open builds the source a config describes.
func Open(cfg Config, opts Options) (Source, error) {
	switch cfg.Kind {
	case KindSQL:
		return openSQL(cfg, opts)
	case KindSearchIndex, KindSIEMSearch, KindLogAnalytics, KindCustom:
		return openHTTP(cfg, opts)
	}
	return nil, fmt.Errorf("%w: %q", ErrUnsupportedKind, cfg.Kind)
}

func (r Request) maxRows(sourceCap int) int {
	n := sourceCap
	if n <= 0 {
		n = DefaultMaxRows
	}
	if r.MaxRows > 0 && r.MaxRows < n {
		n = r.MaxRows
	}
	return n
}

func (r Request) timeout() time.Duration {
	if r.Timeout > 0 {
		return r.Timeout
	}
	return DefaultTimeout
}

// setting reads a string setting.
func setting(m map[string]any, key string) string {
	if v, ok := m[key].(string); ok {
		return v
	}
	return ""
}

// intSetting reads a numeric setting (JSON numbers arrive as float64).
func intSetting(m map[string]any, key string) int {
	switch v := m[key].(type) {
	case float64:
		return int(v)
	case int:
		return v
	}
	return 0
}
