// Package app assembles Vigil from its configuration: the store, the
// Temporal client and worker, and the HTTP server.
package app

import (
	"cmp"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"go.temporal.io/sdk/contrib/envconfig"

	"github.com/vigil-soc/vigil/internal/reqid"
)

// Config is every setting Vigil reads, from the environment or flags.
type Config struct {
	HTTPAddr          string        // VIGIL_HTTP_ADDR
	DatabaseURL       string        // DATABASE_URL; empty: SQLite ./data/vigil.db
	TemporalAddress   string        // TEMPORAL_ADDRESS
	TemporalNamespace string        // TEMPORAL_NAMESPACE
	BootstrapAdminKey string        // VIGIL_BOOTSTRAP_ADMIN_KEY
	LogFormat         string        // VIGIL_LOG_FORMAT: text or json
	LogLevel          string        // VIGIL_LOG_LEVEL: debug, info, warn, error
	MaxBodyBytes      int64         // VIGIL_MAX_BODY_BYTES
	TriageWait        time.Duration // VIGIL_TRIAGE_WAIT
	ActionWait        time.Duration // VIGIL_ACTION_WAIT
	ShutdownTimeout   time.Duration // VIGIL_SHUTDOWN_TIMEOUT
	AutoMigrate       bool          // VIGIL_AUTO_MIGRATE
	SecretKey         string        // VIGIL_SECRET_KEY: encrypts secrets in settings
	SecureCookies     bool          // VIGIL_COOKIE_SECURE
	TrustedProxies    []string      // VIGIL_TRUSTED_PROXIES: comma-separated addresses or CIDRs
	PublicURL         string        // VIGIL_PUBLIC_URL: where operators reach Vigil; run details link there
	TemporalUIURL     string        // VIGIL_TEMPORAL_UI_URL: the Temporal Web UI the dashboard links to
	// TemporalProfile is the Temporal client profile from the SDK's
	// environment configuration (TEMPORAL_CONFIG_FILE, TEMPORAL_PROFILE,
	// TEMPORAL_API_KEY, TEMPORAL_TLS_*); TemporalAddress and
	// TemporalNamespace override its address and namespace.
	TemporalProfile envconfig.ClientConfigProfile
	PayloadKeys     string // VIGIL_PAYLOAD_KEYS: id:base64key,...; the first encrypts
	WorkerHTTPAddr  string // VIGIL_WORKER_HTTP_ADDR: /metrics, /live, /ready of `vigil worker`
	RedisURL        string // VIGIL_REDIS_URL: shared rate limit counters (redis://host:port/db)
	RedisPrefix     string // key prefix in Redis; "vigil:ratelimit"
}

// ConfigFromEnv reads the configuration from the environment, with defaults
// for anything unset.
func ConfigFromEnv() (Config, error) {
	c := Config{
		HTTPAddr:          envOr("VIGIL_HTTP_ADDR", "127.0.0.1:8080"),
		DatabaseURL:       os.Getenv("DATABASE_URL"),
		BootstrapAdminKey: os.Getenv("VIGIL_BOOTSTRAP_ADMIN_KEY"),
		LogFormat:         envOr("VIGIL_LOG_FORMAT", "text"),
		LogLevel:          envOr("VIGIL_LOG_LEVEL", "info"),
		SecretKey:         os.Getenv("VIGIL_SECRET_KEY"),
		TrustedProxies:    splitList(os.Getenv("VIGIL_TRUSTED_PROXIES")),
		PublicURL:         strings.TrimRight(os.Getenv("VIGIL_PUBLIC_URL"), "/"),
		TemporalUIURL:     strings.TrimRight(envOr("VIGIL_TEMPORAL_UI_URL", "http://127.0.0.1:8233"), "/"),
		PayloadKeys:       os.Getenv("VIGIL_PAYLOAD_KEYS"),
		WorkerHTTPAddr:    envOr("VIGIL_WORKER_HTTP_ADDR", "127.0.0.1:8081"),
		RedisURL:          os.Getenv("VIGIL_REDIS_URL"),
		RedisPrefix:       "vigil:ratelimit",
	}
	var err error
	if c.TemporalProfile, err = loadTemporalProfile(); err != nil {
		return c, err
	}
	c.TemporalAddress = cmp.Or(c.TemporalProfile.Address, "127.0.0.1:7233")
	c.TemporalNamespace = cmp.Or(c.TemporalProfile.Namespace, "default")
	if _, err = c.PayloadCodec(); err != nil {
		return c, err
	}
	if c.MaxBodyBytes, err = envInt("VIGIL_MAX_BODY_BYTES", 1<<20); err != nil {
		return c, err
	}
	if c.TriageWait, err = envDuration("VIGIL_TRIAGE_WAIT", 10*time.Second); err != nil {
		return c, err
	}
	if c.ActionWait, err = envDuration("VIGIL_ACTION_WAIT", 10*time.Second); err != nil {
		return c, err
	}
	if c.ShutdownTimeout, err = envDuration("VIGIL_SHUTDOWN_TIMEOUT", 30*time.Second); err != nil {
		return c, err
	}
	if c.AutoMigrate, err = envBool("VIGIL_AUTO_MIGRATE", true); err != nil {
		return c, err
	}
	if c.SecureCookies, err = envBool("VIGIL_COOKIE_SECURE", false); err != nil {
		return c, err
	}
	return c, nil
}

// NewLogger builds the process logger: text for people, JSON for machines.
func (c Config) NewLogger() (*slog.Logger, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(c.LogLevel)); err != nil {
		return nil, fmt.Errorf("VIGIL_LOG_LEVEL: %w", err)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch strings.ToLower(c.LogFormat) {
	case "json":
		return slog.New(reqid.Handler{Handler: slog.NewJSONHandler(os.Stderr, opts)}), nil
	case "text", "":
		return slog.New(reqid.Handler{Handler: slog.NewTextHandler(os.Stderr, opts)}), nil
	}
	return nil, fmt.Errorf("VIGIL_LOG_FORMAT must be text or json, not %q", c.LogFormat)
}

func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok && v != "" {
		return v
	}
	return def
}

func envInt(name string, def int64) (int64, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%s must be a positive integer, not %q", name, v)
	}
	return n, nil
}

func envDuration(name string, def time.Duration) (time.Duration, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%s must be a positive duration such as 10s, not %q", name, v)
	}
	return d, nil
}

func envBool(name string, def bool) (bool, error) {
	v := os.Getenv(name)
	if v == "" {
		return def, nil
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		return false, fmt.Errorf("%s must be true or false, not %q", name, v)
	}
	return b, nil
}

func splitList(v string) []string {
	var out []string
	for _, part := range strings.Split(v, ",") {
		if part = strings.TrimSpace(part); part != "" {
			out = append(out, part)
		}
	}
	return out
}

// CheckDatabaseURL refuses a DATABASE_URL that is neither a PostgreSQL URL
// nor a SQLite file path, rather than creating a file named after it.
func CheckDatabaseURL(u string) error {
	switch {
	case u == "", strings.HasPrefix(u, "postgres://"), strings.HasPrefix(u, "postgresql://"),
		strings.HasPrefix(u, "file:"):
		return nil
	}
	if scheme, _, ok := strings.Cut(u, ":"); ok && len(scheme) > 1 && isScheme(scheme) {
		return fmt.Errorf("DATABASE_URL must be a postgres:// URL or a SQLite file path, not a %s: URL", scheme)
	}
	return nil
}

// isScheme reports whether s looks like a URL scheme (RFC 3986: a letter,
// then letters, digits, +, - or .).
func isScheme(s string) bool {
	for i, r := range s {
		letter := (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || !strings.ContainsRune("0123456789+-.", r)) {
			return false
		}
	}
	return true
}
