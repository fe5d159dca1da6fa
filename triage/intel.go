package triage

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Threat-intelligence weights. A malicious reputation is independent
// evidence that someone already saw the indicator in an attack: at the tier
// floor it weighs about as much as a credential-harvesting link, at score 100
// as much as a look-alike sender. A suspicious reputation only says the
// indicator has risky traits, so it weighs like a URL shortener.
const (
	intelMaliciousMinScore = 70
	intelMaliciousFloor    = 0.25
	intelMaliciousCeiling  = 0.40
	intelSuspiciousWeight  = 0.10
	// Further indicators in a tier add little: a URL, its domain and its IP
	// address are usually one piece of attacker infrastructure, not three
	// independent findings.
	intelExtraWeight   = 0.05
	intelMaliciousCap  = 0.45
	intelSuspiciousCap = 0.15
	// intelNamed bounds how many indicators a reasoning sentence names; the
	// rest are counted, so a long list cannot swamp the explanation.
	intelNamed = 3
)

// applyIntel weighs threat-intelligence reputations after the type-specific
// rules have run. The intel signals join the same evidence trail, so the net
// score, thresholds and confidence stay on one scale. Intelligence can only
// raise concern: clean verdicts earn no credit, because attackers routinely
// host on reputable infrastructure, and the class never drops below the
// type-specific one. When the class changes, category and actions are
// re-derived with the same tables the type-specific analyzers use.
func applyIntel(kind string, a Analysis, reps []Reputation) Analysis {
	if len(reps) == 0 {
		return a
	}
	return rescore(kind, a, func(ev *evidence) bool { return addIntelSignals(ev, reps) },
		func(from, to string, _ *evidence) string {
			if classRank(to) < classRank(from) {
				return from
			}
			return to
		}, escalate)
}

// addIntelSignals adds at most one signal per tier and reports whether any
// reputation was relevant.
func addIntelSignals(ev *evidence, reps []Reputation) bool {
	malicious, suspicious := intelTiers(reps)
	if len(malicious) > 0 {
		span := float64(malicious[0].Score-intelMaliciousMinScore) / float64(100-intelMaliciousMinScore)
		w := intelMaliciousFloor + (intelMaliciousCeiling-intelMaliciousFloor)*span
		w = math.Min(intelMaliciousCap, w+intelExtraWeight*float64(len(malicious)-1))
		ev.add(round2(w), "threat intelligence rates %s", describeReputations(malicious))
		ev.intelMalicious = true
	}
	if len(suspicious) > 0 {
		w := math.Min(intelSuspiciousCap, intelSuspiciousWeight+intelExtraWeight*float64(len(suspicious)-1))
		ev.add(round2(w), "threat intelligence rates %s", describeReputations(suspicious))
	}
	return len(malicious)+len(suspicious) > 0
}

// intelTiers splits reputations into the malicious tier (a malicious verdict
// scoring at least 70) and the suspicious tier (a suspicious verdict, or a
// malicious one the source itself scores low). Each indicator counts once,
// with its highest-scoring reputation, and each tier is ordered by score,
// then type and value, so the reasoning never depends on input order.
func intelTiers(reps []Reputation) (malicious, suspicious []Reputation) {
	relevant := make([]Reputation, 0, len(reps))
	for _, r := range reps {
		if r.Verdict != ReputationMalicious && r.Verdict != ReputationSuspicious {
			continue
		}
		// Intelligence sources rate the anti-virus test file malicious so
		// that detection can be checked; it is harmless by design.
		if r.Type == IndicatorHash && testFileHashes[strings.ToLower(r.Value)] {
			continue
		}
		r.Score = min(100, max(0, r.Score))
		relevant = append(relevant, r)
	}
	sort.Slice(relevant, func(i, j int) bool {
		a, b := relevant[i], relevant[j]
		switch {
		case a.Score != b.Score:
			return a.Score > b.Score
		case a.Type != b.Type:
			return a.Type < b.Type
		case a.Value != b.Value:
			return a.Value < b.Value
		case a.Verdict != b.Verdict:
			return a.Verdict < b.Verdict
		}
		return a.Source < b.Source
	})
	seen := make(map[[2]string]bool, len(relevant))
	for _, r := range relevant {
		key := [2]string{r.Type, r.Value}
		if seen[key] {
			continue
		}
		seen[key] = true
		if r.Verdict == ReputationMalicious && r.Score >= intelMaliciousMinScore {
			malicious = append(malicious, r)
		} else {
			suspicious = append(suspicious, r)
		}
	}
	return malicious, suspicious
}

// describeReputations renders "domain x malicious (score 92, source s), ...".
// Values come from payloads and sources from configuration, so both pass
// through truncate like any other untrusted text.
func describeReputations(reps []Reputation) string {
	parts := make([]string, 0, intelNamed)
	for i, r := range reps {
		if i == intelNamed {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s %s (score %d, source %s)",
			truncate(r.Type, 10), truncate(r.Value, 100), r.Verdict, r.Score, truncate(r.Source, 40)))
	}
	s := strings.Join(parts, ", ")
	if extra := len(reps) - intelNamed; extra > 0 {
		s += fmt.Sprintf(" and %d more indicator(s) likewise", extra)
	}
	return s
}

// reclassify applies the kind's thresholds to the extended evidence.
func reclassify(kind string, ev *evidence) string {
	switch kind {
	case kindPhishing:
		return phishingThresholds.classify(ev)
	case kindMalware:
		if class := malwareThresholds.classify(ev); class != ClassMalicious || !ev.unwantedOnly {
			return class
		}
		return ClassSuspicious
	case kindLogin:
		return loginThresholds.classify(ev)
	}
	if ev.rules {
		return genericRuleThresholds.classify(ev)
	}
	// Without rule evidence the generic analyzer never claims malicious or
	// benign (see generic.go).
	if ev.score() >= genericSuspiciousScore {
		return ClassSuspicious
	}
	return ClassUnknown
}

// classRank orders classifications by concern.
func classRank(class string) int {
	switch class {
	case ClassBenign:
		return 0
	case ClassSuspicious:
		return 2
	case ClassMalicious:
		return 3
	}
	return 1
}

// escalate returns the category and actions for a class that threat
// intelligence raised. The action tables mirror the type-specific analyzers
// (TestEscalateMatchesAnalyzers keeps them in step). A category that
// described legitimate activity is replaced by the kind's generic one; a
// specific technique (credential_phishing, ransomware) is kept.
func escalate(kind, class, category string) (string, []string) {
	switch kind {
	case kindPhishing:
		if category == "newsletter" || category == "legitimate_email" {
			category = "phishing"
		}
		switch class {
		case ClassMalicious:
			return category, actions(ActionQuarantineEmail, ActionBlockSender, ActionNotifyUser, ActionCreateTicket)
		case ClassSuspicious:
			return category, actions(ActionQuarantineEmail, ActionCreateTicket)
		}
	case kindMalware:
		if category == "false_positive" || category == "benign_software" || (category == "pup" && class == ClassMalicious) {
			category = "malware"
		}
		switch class {
		case ClassMalicious:
			return category, actions(ActionIsolateHost, ActionScanHost, ActionCreateTicket)
		case ClassSuspicious:
			return category, actions(ActionScanHost, ActionCreateTicket)
		}
	case kindLogin:
		if class == ClassMalicious {
			return "account_compromise", actions(ActionNotifyUser, ActionCreateTicket)
		}
		if category == "legitimate_login" {
			category = "suspicious_login"
		}
	}
	return category, actions(ActionCreateTicket)
}
