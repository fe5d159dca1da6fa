package triage

import "strings"

// genericRuleThresholds apply to alerts outside the three main families once
// at least one rule has given evidence; without any, the generic analyzer
// still only answers suspicious or unknown.
var genericRuleThresholds = thresholds{malicious: 0.70, suspicious: 0.25, benign: -0.25, maxPositiveForBenign: 0.30}

// analysisKind picks the analyzer: the family detected from the payload
// wins over the caller's incident type, which is often generic ("alert")
// and sometimes wrong (a sign-in forwarded as "phishing").
func analysisKind(incidentType string, f Fields) string {
	if k := shapeKind(f.Shape); k != "" {
		return k
	}
	return incidentKind(incidentType)
}

// applyRules adds the fired rules to the analysis' evidence and classifies
// again on the kind's thresholds. Unlike threat intelligence, rules can move
// the verdict either way: benign evidence weighs as much as malicious.
func applyRules(kind string, a Analysis, f Fields, hits []ruleHit) Analysis {
	if len(hits) == 0 {
		return a
	}
	return rescore(kind, a, func(ev *evidence) bool {
		for _, h := range hits {
			ev.addGrouped(h.rule.Group, h.rule.Weight, "%s", h.describe())
			ev.signals[len(ev.signals)-1].dualUse = h.rule.DualUse
			ev.resolved = ev.resolved || h.rule.Resolves
			ev.explained = ev.explained || h.rule.Explains
			ev.exercise = ev.exercise || h.rule.Explains && h.rule.Group == testingGroup
			ev.keptOpen = ev.keptOpen || h.rule.KeepsOpen
			ev.unwantedOnly = ev.unwantedOnly && h.rule.Weight < strongRuleWeight
		}
		ev.rules = true
		return true
	}, func(_, to string, ev *evidence) string { return guardBehaviour(f, ev, guardCritical(f, ev, to)) }, recategorize)
}

// strongRuleWeight is the weight from which a rule's finding stands on its
// own: it lifts the cap on an alert whose only detection is a potentially
// unwanted program.
const strongRuleWeight = 0.3

// rescore adds evidence to the analysis' trail, classifies again on the
// kind's thresholds, lets settle adjust the new class, and rewrites the
// verdict; recat derives category and actions when the class changed. Text
// the type-specific analyzer appended after the verdict line (affected
// host, isolation advice) is kept as is. An analysis without a trail, or
// whose reasoning was rewritten since buildAnalysis wrote it, cannot be
// re-scored and is returned unchanged, as is one add declines.
func rescore(kind string, a Analysis, add func(*evidence) bool, settle func(from, to string, ev *evidence) string,
	recat func(kind, class, category string) (string, []string)) Analysis {
	ev := a.trail
	if ev == nil {
		return a
	}
	from := a.Verdict.Classification
	prefix := ev.reasoning(from)
	if !strings.HasPrefix(a.Verdict.Reasoning, prefix) {
		return a
	}
	suffix := a.Verdict.Reasoning[len(prefix):]
	if !add(ev) {
		return a
	}
	to := settle(from, reclassify(kind, ev), ev)
	a.Verdict.Classification = to
	a.Verdict.Confidence = confidence(to, ev.score())
	a.Verdict.Reasoning = ev.reasoning(to) + suffix
	if to != from {
		a.Verdict.Category, a.RecommendedActions = recat(kind, to, a.Verdict.Category)
	}
	return a
}

// testingGroup is the rule group of authorised security tests (see
// Rule.Group): exercise hosts, simulations, sanctioned tests.
const testingGroup = "security_testing"

// nearConclusive is the weight from which a single finding names the
// attack itself (DCSync of the directory's secrets, a vault-managed
// password used without a checkout): whatever the alert's severity, the
// wording alone does not close it.
const nearConclusive = 0.6

// guardCritical keeps a critical alert with any real malicious evidence
// (a finding; its reported rating is context, see signal.context),
// and any alert with a near-conclusive finding or a rule that keeps it
// open (see Rule.KeepsOpen) that no rule resolved, out of the benign
// class: wrongly closing one costs far more than reviewing it.
// The one exception is a rule of testingGroup that explains every red flag
// (see Rule.Explains): a host or account designated for a red-team
// exercise, or a simulation sent through its own route, raises critical
// alerts by design. Other explaining rules (a stale password after the
// account's own change) still leave a critical alert open.
func guardCritical(f Fields, ev *evidence, class string) string {
	redFlag := f.Severity >= 4 && ev.strongestFinding() >= 0.2 || (ev.strongest() >= nearConclusive || ev.keptOpen) && !ev.resolved
	if class == ClassBenign && redFlag && !ev.exercise {
		return ClassSuspicious
	}
	return class
}

// guardBehaviour keeps an alert whose processes did something hostile (see
// EndpointBehaviour.Hostile) out of the benign class unless a rule judged
// the red flags themselves: evidence about who ran it or where (a known
// device, an administrator, a signed binary) does not explain away what
// the process did.
func guardBehaviour(f Fields, ev *evidence, class string) string {
	if class == ClassBenign && f.Endpoint.Behaviour.Hostile != "" && !ev.resolved {
		return ClassSuspicious
	}
	return class
}

// recategorize returns category and actions for a class the rules moved
// to. Raised classes reuse escalate; lowered ones get the kind's benign
// category and no containment.
func recategorize(kind, class, category string) (string, []string) {
	switch class {
	case ClassBenign:
		switch kind {
		case kindPhishing:
			return "legitimate_email", []string{}
		case kindMalware:
			return "benign_software", []string{}
		case kindLogin:
			return "legitimate_login", []string{}
		}
		return category, []string{}
	case ClassUnknown:
		return category, actions(ActionCreateTicket)
	}
	return escalate(kind, class, category)
}
