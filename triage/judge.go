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
	ev := a.trail
	if ev == nil || len(hits) == 0 {
		return a
	}
	from := a.Verdict.Classification
	prefix := ev.reasoning(from)
	if !strings.HasPrefix(a.Verdict.Reasoning, prefix) {
		return a
	}
	suffix := a.Verdict.Reasoning[len(prefix):]
	for _, h := range hits {
		ev.add(h.rule.Weight, "%s", h.describe())
		ev.resolved = ev.resolved || h.rule.Resolves
	}
	ev.rules = true
	to := reclassify(kind, ev)
	to = guardCritical(f, ev, to)
	a.Verdict.Classification = to
	a.Verdict.Confidence = confidence(to, ev.score())
	a.Verdict.Reasoning = ev.reasoning(to) + suffix
	if to != from {
		a.Verdict.Category, a.RecommendedActions = recategorize(kind, to, a.Verdict.Category)
	}
	return a
}

// guardCritical keeps a critical alert with any real malicious evidence out
// of the benign class: wrongly closing one costs far more than reviewing it.
func guardCritical(f Fields, ev *evidence, class string) string {
	if class == ClassBenign && f.Severity >= 4 && ev.strongest() >= 0.2 {
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
