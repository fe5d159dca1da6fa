package triage

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Okta states its own risk judgement in the System Log's debug data: a
// "risk" text such as "{reasons=Anomalous Location, level=HIGH}" or, in
// logOnlySecurityData, a JSON object with a risk level and a behaviors
// map, and ThreatInsight's threatSuspected flag for a request from an
// address it tracks as hostile.

var oktaRiskLevelRe = regexp.MustCompile(`level\s*[=:]\s*"?(high|medium|low|none)`)

// readOktaRisk reads Okta's risk level and ThreatInsight verdict.
func readOktaRisk(f *IdentityFields, cur *doc) {
	for _, s := range cur.scalarStrs("risk") {
		if m := oktaRiskLevelRe.FindStringSubmatch(strings.ToLower(s)); m != nil && severityRank(m[1]) > severityRank(f.RiskLevel) {
			f.RiskLevel = m[1]
		}
	}
	if v, ok := cur.boolean("threatsuspected"); ok && v && severityRank(f.RiskLevel) < severityRank("medium") {
		f.RiskLevel = "medium"
	}
}

// oktaBehaviorText is Okta's behaviour detections as one text, whether they
// arrive as "{New Device=POSITIVE, ...}" or as a JSON object of the same
// pairs (logOnlySecurityData).
func oktaBehaviorText(cur *doc) string {
	var parts []string
	for _, v := range cur.values("behaviors") {
		switch t := v.(type) {
		case string:
			parts = append(parts, t)
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				parts = append(parts, fmt.Sprintf("%s=%v", k, t[k]))
			}
		}
	}
	return strings.Join(parts, ", ")
}

// oktaZoneExcluded are words in the name of a network zone that lists
// addresses to block or distrust rather than the organisation's own;
// oktaZoneExcludedWords count only as whole words ("Tor exits", not
// "Toronto office").
var (
	oktaZoneExcluded      = []string{"block", "deny", "denied", "anonym", "proxy", "dynamic", "threat", "suspicious", "untrusted", "banned", "sanction"}
	oktaZoneExcludedWords = setOf("tor", "bad", "risk", "risky")
)

// oktaNetworkZone returns the name of the network zone Okta matched the
// client's address to (client.zone), or "" when there is none or the
// zone is a block list. Zones are defined by the organisation's admins
// for its offices, egress gateways and VPNs; Okta writes "null" when the
// address is in none.
func oktaNetworkZone(cur *doc) string {
	for _, c := range cur.maps("client") {
		zone, _ := c["zone"].(string)
		zone = strings.TrimSpace(zone)
		if zone == "" || strings.EqualFold(zone, "null") {
			continue
		}
		lower := strings.ToLower(zone)
		if firstSubstring(lower, oktaZoneExcluded) != "" || slices.ContainsFunc(strings.FieldsFunc(lower, func(r rune) bool { return r > 127 || !isAlnum(byte(r)) }), func(w string) bool { return oktaZoneExcludedWords[w] }) {
			continue
		}
		return zone
	}
	return ""
}
