package settings

import (
	"net/url"
	"strings"
)

// Setting keys.
const (
	KeyGeneral    = "general"
	KeyRateLimits = "rate_limits"
	KeyLLM        = "llm"
	KeyOutbound   = "outbound"
)

// Keys lists every setting key in display order.
func Keys() []string { return []string{KeyGeneral, KeyRateLimits, KeyLLM, KeyOutbound, KeyPackages} }

// General holds instance-wide behaviour.
type General struct {
	// InstanceName labels this deployment in the UI and in notifications.
	InstanceName string `json:"instance_name"`
	// AllowSelfApproval lets a requester approve their own action; off by
	// default so every action gets a second pair of eyes.
	AllowSelfApproval bool `json:"allow_self_approval"`
	// ApprovalExpiryHours is how long a pending approval stays actionable.
	ApprovalExpiryHours int `json:"approval_expiry_hours"`
	// SessionIdleMinutes ends a login session after this much inactivity.
	SessionIdleMinutes int `json:"session_idle_minutes"`
	// SessionAbsoluteHours ends a login session this long after sign-in,
	// however active it is.
	SessionAbsoluteHours int `json:"session_absolute_hours"`
	// DedupWindowMinutes folds a repeat alert into the open incident it
	// duplicates when it arrives within this window; 0 turns that off.
	DedupWindowMinutes int `json:"dedup_window_minutes"`
}

// DefaultGeneral is the General setting used until one is written.
func DefaultGeneral() General {
	return General{
		InstanceName:         "Vigil",
		ApprovalExpiryHours:  72,
		SessionIdleMinutes:   30,
		SessionAbsoluteHours: 12,
		DedupWindowMinutes:   10,
	}
}

func (g *General) validate(errs fieldErrors) {
	errs.length("instance_name", g.InstanceName, 1, 100)
	errs.intRange("approval_expiry_hours", g.ApprovalExpiryHours, 1, 2160)
	errs.intRange("session_idle_minutes", g.SessionIdleMinutes, 5, 1440)
	errs.intRange("session_absolute_hours", g.SessionAbsoluteHours, 1, 720)
	errs.intRange("dedup_window_minutes", g.DedupWindowMinutes, 0, 1440)
}

// RateLimits caps requests per caller per minute by kind of endpoint.
type RateLimits struct {
	// ReadPerMinute applies to requests that only read.
	ReadPerMinute int `json:"read_per_minute"`
	// WritePerMinute applies to requests that change state.
	WritePerMinute int `json:"write_per_minute"`
	// TriagePerMinute applies to triage requests, which are the costliest.
	TriagePerMinute int `json:"triage_per_minute"`
}

// DefaultRateLimits is the RateLimits setting used until one is written.
func DefaultRateLimits() RateLimits {
	return RateLimits{ReadPerMinute: 100, WritePerMinute: 20, TriagePerMinute: 10}
}

func (r *RateLimits) validate(errs fieldErrors) {
	errs.intRange("read_per_minute", r.ReadPerMinute, 1, 100000)
	errs.intRange("write_per_minute", r.WritePerMinute, 1, 100000)
	errs.intRange("triage_per_minute", r.TriagePerMinute, 1, 100000)
}

// LLM configures the language model used to assist triage.
type LLM struct {
	// Enabled turns LLM assistance on; it then needs BaseURL and Model.
	Enabled bool `json:"enabled"`
	// Provider names the API dialect the client speaks.
	Provider string `json:"provider"`
	// BaseURL is the provider's API root.
	BaseURL string `json:"base_url"`
	// Model is the model name sent with each request.
	Model string `json:"model"`
	// APIKey is the plaintext credential. It never takes part in JSON
	// encoding, so an LLM value logged or returned by mistake cannot leak
	// it: callers see Mask and the store holds only the sealed form.
	APIKey string `json:"-"`
	// TimeoutSeconds bounds one request to the provider.
	TimeoutSeconds int `json:"timeout_seconds"`
}

// DefaultLLM is the LLM setting used until one is written.
func DefaultLLM() LLM {
	return LLM{Provider: "openai-compatible", TimeoutSeconds: 30}
}

func (l *LLM) validate(errs fieldErrors) {
	errs.length("provider", l.Provider, 1, 64)
	errs.length("model", l.Model, 0, 200)
	if l.BaseURL != "" && !isHTTPURL(l.BaseURL) {
		errs.add("base_url", "must be an absolute http or https URL")
	}
	errs.intRange("timeout_seconds", l.TimeoutSeconds, 1, 300)
	if l.Enabled {
		if l.BaseURL == "" {
			errs.add("base_url", "is required when enabled")
		}
		if strings.TrimSpace(l.Model) == "" {
			errs.add("model", "is required when enabled")
		}
	}
}

// Outbound is the policy for requests Vigil makes to addresses its users
// configure (notification channels): https only, and no loopback,
// link-local, private or cloud-metadata address, unless allowed here.
type Outbound struct {
	// AllowHTTP permits plain http URLs.
	AllowHTTP bool `json:"allow_http"`
	// AllowHosts are host names or addresses (optionally host:port) that
	// may be reached even when they resolve to an internal address.
	AllowHosts []string `json:"allow_hosts"`
	// HTTPRequestHosts are the only hosts (optionally host:port) the
	// generic http_request action may call; empty denies every call.
	HTTPRequestHosts []string `json:"http_request_hosts"`
}

func (o *Outbound) validate(errs fieldErrors) {
	validateHosts("allow_hosts", o.AllowHosts, errs)
	validateHosts("http_request_hosts", o.HTTPRequestHosts, errs)
}

// validateHosts checks a list of host names or addresses with optional port.
func validateHosts(field string, hosts []string, errs fieldErrors) {
	if len(hosts) > 100 {
		errs.add(field, "at most 100 hosts")
	}
	for _, h := range hosts {
		if h == "" || len(h) > 261 || strings.ContainsAny(h, "/?#@ ") {
			errs.add(field, "each entry is a host name or address, optionally with :port, without scheme or path")
			return
		}
	}
}

func isHTTPURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// shape is a pointer to one of the setting structs.
type shape interface {
	validate(errs fieldErrors)
}

// newShape returns the defaults for key, ready to be overlaid with stored
// or submitted values.
func newShape(key string) (shape, bool) {
	switch key {
	case KeyGeneral:
		g := DefaultGeneral()
		return &g, true
	case KeyRateLimits:
		r := DefaultRateLimits()
		return &r, true
	case KeyLLM:
		l := DefaultLLM()
		return &l, true
	case KeyOutbound:
		return &Outbound{AllowHosts: []string{}, HTTPRequestHosts: []string{}}, true
	case KeyPackages:
		return &Packages{TrustedKeys: []string{}}, true
	}
	return nil, false
}
