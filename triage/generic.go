package triage

import "strings"

// genericSuspiciousScore is the score at which an untyped alert is worth a
// closer look. Without a type-specific model there is no evidence strong
// enough for "malicious", and no evidence of legitimacy for "benign", so the
// generic analyzer only ever answers suspicious or unknown.
const genericSuspiciousScore = 0.25

var genericSeverityWeight = [...]float64{-0.05, 0, 0.10, 0.20, 0.30}

func analyzeGeneric(inc Incident, ind Indicators) Analysis {
	ev := &evidence{label: "Generic"}
	if sev, rank := incidentSeverity(inc, newDoc(inc.RawData)); rank >= 0 && genericSeverityWeight[rank] != 0 {
		ev.addContext(genericSeverityWeight[rank], "reported severity is %s", sev)
	}
	switch n := indicatorCount(ind); {
	case n >= 5:
		ev.addContext(0.10, "%d observables (URLs, domains, IPs, hashes, e-mails) give material to investigate", n)
	case n >= 1:
		ev.addContext(0.05, "%d observable(s) extracted for enrichment", n)
	}
	if h := preferredHash(ind.Hashes); h != "" {
		ev.addContext(0.05, "file hash %s can be checked against threat intelligence", h)
	}
	class := ClassUnknown
	if ev.score() >= genericSuspiciousScore {
		class = ClassSuspicious
	}
	return buildAnalysis(ev, class, genericCategory(inc.IncidentType), []string{ActionCreateTicket})
}

// genericCategory turns a free-form incident type into a stable snake_case
// category, since it is echoed into reports and metrics labels.
func genericCategory(t string) string {
	var b strings.Builder
	pendingSep := false
	for _, r := range strings.ToLower(t) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if pendingSep && b.Len() > 0 {
				b.WriteByte('_')
			}
			pendingSep = false
			b.WriteRune(r)
			if b.Len() >= 64 {
				break
			}
		} else {
			pendingSep = true
		}
	}
	if b.Len() == 0 {
		return "uncategorized"
	}
	return b.String()
}
