package triage

import (
	"regexp"
	"strconv"
	"strings"
)

// Cisco Secure Email Gateway (ESA) consolidated log events name each
// engine's verdict in its own field: ESAASVerdict (anti-spam),
// ESAAVVerdict (anti-virus), ESAAMPVerdict (file reputation),
// ESAOFVerdict with ESAOFRuleName (outbreak filters), ESAGMVerdict
// (graymail); ESASBRS is the sender's SenderBase reputation (-10..10).

var (
	threatLevelRe = regexp.MustCompile(`threat level (\d)`)
	esaResultRe   = regexp.MustCompile(`'result':\s*'([a-z]+)'`)
	esaFileRe     = regexp.MustCompile(`'([^'{}]+\.[a-z0-9]{1,5})':\s*\{`)
)

// esaThreat folds the ESA engine verdicts onto ThreatType's values and the
// outbreak threat level onto ThreatConfidence; ok is false when d carries
// no engine verdict.
func esaThreat(d *doc) (threat, confidence string, ok bool) {
	verdict := func(name string) string { return strings.ToUpper(strings.TrimSpace(d.scalarStr(name))) }
	av, amp, of, as, gm := verdict("esaavverdict"), verdict("esaampverdict"), verdict("esaofverdict"), verdict("esaasverdict"), verdict("esagmverdict")
	if av == "" && amp == "" && of == "" && as == "" {
		return "", "", false
	}
	rule := strings.ToLower(d.scalarStr("esaofrulename"))
	switch {
	case av == "POSITIVE" || amp == "MALICIOUS":
		return "malware", "", true
	case of == "POSITIVE":
		threat = "phish"
		if containsAnyTerm(rule, "malware", "virus") {
			threat = "malware"
		}
		if m := threatLevelRe.FindStringSubmatch(rule); m != nil {
			// Outbreak filters quarantine from level 4 by default and
			// only rewrite links below: a level up to 3 is a caution.
			if n, _ := strconv.Atoi(m[1]); n <= 3 {
				confidence = "low"
			} else {
				confidence = "high"
			}
		}
		return threat, confidence, true
	case as == "POSITIVE":
		return "spam", "", true
	case gm == "POSITIVE":
		return "bulk", "", true
	}
	return "clean", "", true
}

// senderReputation folds a gateway's sender reputation score: Cisco's
// SenderBase score runs from -10 (worst) to +10.
func senderReputation(d *doc) string {
	s := strings.TrimSpace(d.scalarStr("esasbrs", "sbrs", "senderbasereputationscore"))
	n, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil:
		return ""
	case n >= 2:
		return "good"
	case n <= -3:
		return "poor"
	}
	return ""
}

// esaAuthResult reads ESA's SPF verdict, a Python-style dictionary
// ({'mailfrom': {'result': 'Pass'}, ...}) whose first result is the
// envelope sender's.
func esaAuthResult(s string) string {
	if m := esaResultRe.FindStringSubmatch(strings.ToLower(s)); m != nil {
		return normalizeAuth(m[1])
	}
	return ""
}

// esaAttachments reads the file names ESAAttachmentDetails keys its
// per-file scan results by.
func esaAttachments(d *doc) []string {
	var out []string
	for _, s := range d.scalarStrs("esaattachmentdetails") {
		for _, m := range esaFileRe.FindAllStringSubmatch(strings.ToLower(s), maxIndicatorsPerList) {
			out = append(out, strings.TrimSpace(m[1]))
		}
	}
	return out
}
