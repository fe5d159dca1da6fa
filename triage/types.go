// Package triage turns raw incident payloads into observables and verdicts.
//
// Everything here is pure and deterministic: the same incident always yields
// the same indicators, verdict, reasoning text and recommended actions. That
// property lets the service replay, cache and audit triage decisions, so the
// package avoids clocks, randomness, I/O and any dependence on map order.
package triage

import "context"

// Incident is the analyzer's view of an incident.
type Incident struct {
	IncidentType string         `json:"incident_type"`
	Severity     string         `json:"severity"` // low, medium, high, critical
	Source       string         `json:"source"`
	RawData      map[string]any `json:"raw_data"`
}

// Indicators are observables extracted from an incident's raw data; every
// list is sorted and deduplicated, and never nil (empty slice) so JSON shows [].
type Indicators struct {
	URLs    []string `json:"urls"`
	Domains []string `json:"domains"`
	IPs     []string `json:"ips"`
	Hashes  []string `json:"hashes"` // md5/sha1/sha256 hex, lowercased
	Emails  []string `json:"emails"` // lowercased
}

// Verdict is the outcome of analysis.
type Verdict struct {
	Classification string  `json:"classification"` // malicious | suspicious | benign | unknown
	Confidence     float64 `json:"confidence"`     // 0..1, two decimals
	Category       string  `json:"category"`
	Reasoning      string  `json:"reasoning"`
}

// Analysis is a verdict plus the recommended response action type names and
// the analyzer name.
type Analysis struct {
	Verdict            Verdict  `json:"verdict"`
	RecommendedActions []string `json:"recommended_actions"` // never nil
	Analyzer           string   `json:"analyzer"`            // "builtin" for the rule analyzer
}

// Analyzer produces an Analysis for an incident and its indicators.
type Analyzer interface {
	Analyze(ctx context.Context, inc Incident, ind Indicators) (Analysis, error)
}

// Classification values used in Verdict.Classification.
const (
	// ClassMalicious means the evidence is strong enough to act without a human first.
	ClassMalicious = "malicious"
	// ClassSuspicious means the evidence warrants containment and human review.
	ClassSuspicious = "suspicious"
	// ClassBenign means the evidence points to legitimate activity.
	ClassBenign = "benign"
	// ClassUnknown means there is not enough evidence either way.
	ClassUnknown = "unknown"
)

// BuiltinAnalyzerName is the Analysis.Analyzer value reported by RuleAnalyzer.
const BuiltinAnalyzerName = "builtin"

// Response action type names an analyzer may recommend. Downstream workflow
// code maps each name to a concrete executor, so analyzers must never invent
// names outside this set.
const (
	// ActionQuarantineEmail removes a message from recipients' mailboxes.
	ActionQuarantineEmail = "quarantine_email"
	// ActionBlockSender blocks further mail from the sender address or domain.
	ActionBlockSender = "block_sender"
	// ActionIsolateHost cuts a host off the network via the EDR.
	ActionIsolateHost = "isolate_host"
	// ActionUnisolateHost reverses a previous host isolation.
	ActionUnisolateHost = "unisolate_host"
	// ActionScanHost triggers a full EDR/AV scan of a host.
	ActionScanHost = "scan_host"
	// ActionCreateTicket opens a case in the ticketing system for an analyst.
	ActionCreateTicket = "create_ticket"
	// ActionNotifyUser contacts the affected user.
	ActionNotifyUser = "notify_user"
)

// actionOrder is the canonical order used when reporting recommendations
// (containment first, then follow-up), so output order never depends on which
// rule fired first. It is an array so callers cannot reorder it.
var actionOrder = [...]string{
	ActionQuarantineEmail,
	ActionBlockSender,
	ActionIsolateHost,
	ActionUnisolateHost,
	ActionScanHost,
	ActionCreateTicket,
	ActionNotifyUser,
}

// KnownActions returns every valid action name in canonical order. It returns
// a fresh slice each time so callers may modify it freely.
func KnownActions() []string {
	out := make([]string, len(actionOrder))
	copy(out, actionOrder[:])
	return out
}

// IsKnownAction reports whether name is one of KnownActions.
func IsKnownAction(name string) bool {
	for _, a := range actionOrder {
		if a == name {
			return true
		}
	}
	return false
}
