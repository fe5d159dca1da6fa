package connectors

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
)

// Connector kinds a vendor type can serve; a configured connector of that
// type can be chosen for the actions (or lookups) of each kind it lists.
const (
	KindEmailGateway = "email_gateway"
	KindEDR          = "edr"
	KindIdentity     = "identity"
	KindTicketing    = "ticketing"
	KindNotifier     = "notifier"
	KindIntel        = "threat_intel"
	KindHTTP         = "http"
)

// Config is one configured connector as its vendor's constructor receives
// it. Secrets are already unsealed; they must never appear in a Result, an
// error message, a log line or anything else that reaches a workflow
// history.
type Config struct {
	// ID is the connector's configured id (for example "crowdstrike-prod").
	ID string
	// Type is the vendor type it was registered under (for example "crowdstrike").
	Type string
	// Settings holds the non-secret fields the vendor's Fields declare.
	Settings map[string]string
	// Secrets holds the secret fields the vendor's Fields declare.
	Secrets map[string]string
	// HTTP is the client every call must go through: it enforces the
	// outbound policy and timeouts. Constructors must not build their own.
	HTTP *http.Client
	// Limit, when set, waits until the vendor quota named key allows one
	// more call; perMinute is the quota, shared by every worker process
	// (VirusTotal's public tier: 4). nil means no shared limit applies.
	Limit func(ctx context.Context, key string, perMinute int) error
}

// Setting returns the named setting, or def when it is empty.
func (c Config) Setting(name, def string) string {
	if v := c.Settings[name]; v != "" {
		return v
	}
	return def
}

// Field describes one setting or secret a vendor type needs, for validation
// on write and for the dashboard's form.
type Field struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
	// Secret fields are write-only: sealed at rest, never returned.
	Secret bool `json:"secret"`
	// Default is used when the field is left empty.
	Default string `json:"default,omitempty"`
}

// Vendor is a connector type: what it serves, what it needs and how to
// build it.
type Vendor struct {
	// Type is the name configurations refer to, for example "crowdstrike".
	Type string `json:"type"`
	// Title is the product's name as people know it.
	Title string `json:"title"`
	// Kinds lists the connector kinds it implements (KindEDR, ...); New's
	// value implements the matching interface for each (EDR, EmailGateway,
	// Identity, Ticketing, Notifier, or intel.Source for KindIntel).
	Kinds  []string `json:"kinds"`
	Fields []Field  `json:"fields"`
	// New builds a connector from a validated configuration. It must not
	// call the vendor: building is cheap and happens per use.
	New func(cfg Config) (any, error) `json:"-"`
}

var (
	registryMu sync.RWMutex
	registry   = map[string]Vendor{}
)

// Register makes a vendor type available to configurations. Vendor
// packages call it from init; registering a type twice panics, since two
// packages claiming one name is a build mistake.
func Register(v Vendor) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if v.Type == "" || v.New == nil || len(v.Kinds) == 0 {
		panic("connectors: Register needs a type, kinds and a constructor")
	}
	if _, dup := registry[v.Type]; dup {
		panic(fmt.Sprintf("connectors: vendor type %q registered twice", v.Type))
	}
	registry[v.Type] = v
}

// LookupVendor returns the registered vendor type named typ.
func LookupVendor(typ string) (Vendor, bool) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	v, ok := registry[typ]
	return v, ok
}

// Vendors lists the registered vendor types by name.
func Vendors() []Vendor {
	registryMu.RLock()
	defer registryMu.RUnlock()
	out := make([]Vendor, 0, len(registry))
	for _, v := range registry {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Type < out[j].Type })
	return out
}

// Tester is implemented by connectors that can prove their configuration
// with one harmless authenticated call (read the current token's identity,
// list one host). The error says in plain words what failed; see
// vendorhttp's ErrAuth, ErrPermission and ErrNetwork.
type Tester interface {
	Test(ctx context.Context) error
}
