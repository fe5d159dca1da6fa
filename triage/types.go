// Package triage turns raw incident payloads into observables and verdicts.
//
// Everything here is pure and deterministic: the same incident always yields
// the same indicators, verdict, reasoning text and recommended actions. That
// property lets the service replay, cache and audit triage decisions, so the
// package avoids clocks, randomness, I/O and any dependence on map order.
package triage

import (
	"context"
	"time"
)

// Incident is the analyzer's view of an incident.
type Incident struct {
	IncidentType string         `json:"incident_type"`
	Severity     string         `json:"severity"` // low, medium, high, critical
	Source       string         `json:"source"`
	RawData      map[string]any `json:"raw_data"`
	// Intel holds threat-intelligence reputations of the incident's
	// indicators, looked up before analysis; analyzers weigh them as evidence.
	Intel []Reputation `json:"intel,omitempty"`
}

// Reputation is what a threat-intelligence source reports about one
// indicator.
type Reputation struct {
	Type      string    `json:"type"`    // IndicatorHash | IndicatorURL | IndicatorDomain | IndicatorIP
	Value     string    `json:"value"`   // the indicator as looked up
	Verdict   string    `json:"verdict"` // ReputationMalicious | ReputationSuspicious | ReputationClean | ReputationUnknown
	Score     int       `json:"score"`   // 0..100; higher means more likely malicious
	Source    string    `json:"source"`  // name of the intelligence source
	Tags      []string  `json:"tags,omitempty"`
	Simulated bool      `json:"simulated"` // true when the source is offline sample data, not real intelligence
	CheckedAt time.Time `json:"checked_at"`
}

// Indicator types used in Reputation.Type.
const (
	// IndicatorHash is an MD5, SHA-1 or SHA-256 file hash.
	IndicatorHash = "hash"
	// IndicatorURL is a full http or https URL.
	IndicatorURL = "url"
	// IndicatorDomain is a host name.
	IndicatorDomain = "domain"
	// IndicatorIP is an IPv4 or IPv6 address.
	IndicatorIP = "ip"
)

// Reputation verdicts used in Reputation.Verdict.
const (
	// ReputationMalicious means the source has seen the indicator used in attacks.
	ReputationMalicious = "malicious"
	// ReputationSuspicious means the indicator has risky traits but no confirmed abuse.
	ReputationSuspicious = "suspicious"
	// ReputationClean means the source knows the indicator as legitimate.
	ReputationClean = "clean"
	// ReputationUnknown means the source has no meaningful data on the indicator.
	ReputationUnknown = "unknown"
)

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
	// FallbackReason says why a model-based analyzer's answer was not used
	// and this analysis came from its fallback instead; empty otherwise.
	FallbackReason string `json:"fallback_reason,omitempty"`
	// Model names the language model that produced the analysis, if any.
	Model string `json:"model,omitempty"`

	// trail is the rule analyzer's evidence, carried from buildAnalysis to
	// the end of RuleAnalyzer.Analyze so that threat intelligence is scored
	// on the same scale as the type-specific signals. It is always nil
	// outside this package.
	trail *evidence
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
