// Package actions is the catalog of response action types: what each type
// is called, which parameters it takes, whether it can be reversed, which
// connector performs it and what approval it needs by default.
package actions

import (
	"slices"
	"sort"
)

// Action type names.
const (
	QuarantineEmail = "quarantine_email"
	ReleaseEmail    = "release_email"
	BlockSender     = "block_sender"
	UnblockSender   = "unblock_sender"
	IsolateHost     = "isolate_host"
	UnisolateHost   = "unisolate_host"
	ScanHost        = "scan_host"
	CreateTicket    = "create_ticket"
	NotifyUser      = "notify_user"
)

// Categories group action types by the kind of asset they act on.
const (
	CategoryEmail        = "email"
	CategoryEndpoint     = "endpoint"
	CategoryTicketing    = "ticketing"
	CategoryNotification = "notification"
)

// Connector kinds: the kind of external tool that performs an action type.
const (
	ConnectorEmailGateway = "email_gateway"
	ConnectorEDR          = "edr"
	ConnectorTicketing    = "ticketing"
	ConnectorNotifier     = "notifier"
)

// Parameter types, named after the JSON types a value must have.
const (
	TypeString  = "string"
	TypeInteger = "integer"
	TypeBoolean = "boolean"
	TypeObject  = "object"
	TypeArray   = "array"
)

// String formats a parameter can demand beyond its JSON type.
const (
	// FormatSender accepts an email address or a bare domain.
	FormatSender = "email_or_domain"
	// FormatUser accepts a username or an email address.
	FormatUser = "username_or_email"
)

// DefaultMaxLength bounds string parameters that declare no limit of their
// own, so identifiers and reasons cannot carry unbounded payloads.
const DefaultMaxLength = 1000

// Param describes one parameter of an action type.
type Param struct {
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Required    bool     `json:"required"`
	Description string   `json:"description,omitempty"`
	Enum        []string `json:"enum,omitempty"`
	Default     any      `json:"default,omitempty"`
	// MaxLength limits a string's length in characters; 0 means DefaultMaxLength.
	MaxLength int `json:"max_length,omitempty"`
	// Format names an extra syntax rule for strings (FormatSender, FormatUser).
	Format string `json:"format,omitempty"`
}

// Type describes one action type.
type Type struct {
	Name             string `json:"name"`
	Description      string `json:"description"`
	Category         string `json:"category"`
	SupportsRollback bool   `json:"supports_rollback"`
	RollbackAction   string `json:"rollback_action,omitempty"`
	// DefaultApprovalLevel is the level that must approve the action when no
	// policy says otherwise; "" means it executes at once.
	DefaultApprovalLevel string  `json:"default_approval_level,omitempty"`
	Parameters           []Param `json:"parameters"`
	// Connector is the kind of tool that performs the action (Connector* constants).
	Connector string `json:"connector"`
}

func reasonParam(what string) Param {
	return Param{Name: "reason", Type: TypeString, Description: "why the " + what + " is done; kept in the audit trail"}
}

// catalog is the source of truth; Types and Lookup hand out copies so no
// caller can change it.
var catalog = slices.Concat(coreTypes, identityTypes, []Type{httpRequestType})

// coreTypes act on mail, endpoints, tickets and people.
var coreTypes = []Type{
	{
		Name: QuarantineEmail, Description: "Move an email out of the recipient's mailbox into quarantine.",
		Category: CategoryEmail, SupportsRollback: true, RollbackAction: ReleaseEmail, Connector: ConnectorEmailGateway,
		Parameters: []Param{
			{Name: "message_id", Type: TypeString, Required: true, Description: "email gateway message identifier"},
			reasonParam("quarantine"),
		},
	},
	{
		Name: ReleaseEmail, Description: "Release a quarantined email back to the recipient.",
		// Releasing may deliver the phish after all: another analyst confirms.
		Category: CategoryEmail, Connector: ConnectorEmailGateway, DefaultApprovalLevel: "analyst",
		Parameters: []Param{
			{Name: "message_id", Type: TypeString, Required: true, Description: "email gateway message identifier"},
			reasonParam("release"),
		},
	},
	{
		Name: BlockSender, Description: "Block all mail from a sender address or domain.",
		Category: CategoryEmail, SupportsRollback: true, RollbackAction: UnblockSender, Connector: ConnectorEmailGateway,
		Parameters: []Param{
			{Name: "sender", Type: TypeString, Required: true, Format: FormatSender, MaxLength: 254,
				Description: "email address or domain to block"},
			reasonParam("block"),
		},
	},
	{
		Name: UnblockSender, Description: "Lift a block on a sender address or domain.",
		// Lifting a block reopens a channel an attacker used: another analyst confirms.
		Category: CategoryEmail, Connector: ConnectorEmailGateway, DefaultApprovalLevel: "analyst",
		Parameters: []Param{
			{Name: "sender", Type: TypeString, Required: true, Format: FormatSender, MaxLength: 254,
				Description: "email address or domain to unblock"},
			reasonParam("unblock"),
		},
	},
	{
		Name: IsolateHost, Description: "Cut a host off the network except for the EDR management channel.",
		Category: CategoryEndpoint, SupportsRollback: true, RollbackAction: UnisolateHost,
		DefaultApprovalLevel: "senior", Connector: ConnectorEDR,
		Parameters: []Param{
			{Name: "host_id", Type: TypeString, Required: true, Description: "EDR host identifier"},
			reasonParam("isolation"),
		},
	},
	{
		Name: UnisolateHost, Description: "Reconnect an isolated host to the network.",
		// Reconnecting a contained host is as dangerous as isolating it.
		Category: CategoryEndpoint, Connector: ConnectorEDR, DefaultApprovalLevel: "senior",
		Parameters: []Param{
			{Name: "host_id", Type: TypeString, Required: true, Description: "EDR host identifier"},
			reasonParam("reconnection"),
		},
	},
	{
		Name: ScanHost, Description: "Start a malware scan on a host; results are retrieved separately.",
		Category: CategoryEndpoint, Connector: ConnectorEDR,
		Parameters: []Param{
			{Name: "host_id", Type: TypeString, Required: true, Description: "EDR host identifier"},
			{Name: "scan_type", Type: TypeString, Enum: []string{"quick", "full"}, Default: "quick",
				Description: "quick scans common locations, full scans the whole disk"},
		},
	},
	{
		Name: CreateTicket, Description: "Open a ticket in the ticketing system.",
		Category: CategoryTicketing, Connector: ConnectorTicketing,
		Parameters: []Param{
			{Name: "title", Type: TypeString, Required: true, MaxLength: 200, Description: "ticket summary"},
			{Name: "description", Type: TypeString, MaxLength: 10000, Description: "ticket body"},
			{Name: "priority", Type: TypeString, Enum: []string{"low", "medium", "high", "critical"}, Default: "medium"},
		},
	},
	{
		Name: NotifyUser, Description: "Send a message to a user.",
		Category: CategoryNotification, Connector: ConnectorNotifier,
		Parameters: []Param{
			{Name: "user", Type: TypeString, Required: true, Format: FormatUser, MaxLength: 254,
				Description: "username or email address"},
			{Name: "message", Type: TypeString, Required: true, MaxLength: 2000},
			{Name: "channel", Type: TypeString, Enum: []string{"email", "chat"}, Default: "email"},
		},
	},
}

// byName indexes catalog; built once because the catalog never changes.
var byName = index(catalog)

func index(types []Type) map[string]int {
	m := make(map[string]int, len(types))
	for i, t := range types {
		m[t.Name] = i
	}
	return m
}

// Types returns every action type sorted by name. The slice and everything
// in it is a fresh copy the caller may modify.
func Types() []Type {
	out := make([]Type, len(catalog))
	for i, t := range catalog {
		out[i] = t.clone()
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup returns a copy of the named action type.
func Lookup(name string) (Type, bool) {
	i, ok := byName[name]
	if !ok {
		return Type{}, false
	}
	return catalog[i].clone(), true
}

// Param returns the named parameter of t.
func (t Type) Param(name string) (Param, bool) {
	for _, p := range t.Parameters {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

func (t Type) clone() Type {
	params := make([]Param, len(t.Parameters))
	for i, p := range t.Parameters {
		if p.Enum != nil {
			p.Enum = append([]string(nil), p.Enum...)
		}
		params[i] = p
	}
	t.Parameters = params
	return t
}
