package triage

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// readGatewayJudgement reads how sure the gateway is of its own verdict and
// what its impersonation checks found: Defender's ConfidenceLevel (a JSON
// object serialised into a string, {"Phish":"Low"}), Proofpoint's 0-100
// phish, malware and impostor scores, and Mimecast's impersonation
// identifiers. A verdict the gateway itself rates low is a hint, not a
// finding.
func readGatewayJudgement(d *doc, f *EmailFields) {
	for _, s := range d.scalarStrs("confidencelevel") {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) != nil {
			continue
		}
		for k, v := range m {
			level, _ := v.(string)
			if level == "" || !strings.EqualFold(k, f.ThreatType) && !(f.ThreatType == "" && !strings.EqualFold(k, "spam")) {
				continue
			}
			f.ThreatConfidence = strings.ToLower(level)
			if f.ThreatType == "" {
				f.ThreatType = emailThreatOf(k)
			}
		}
	}
	scores := map[string]string{"phishscore": "phish", "malwarescore": "malware", "impostorscore": "impostor"}
	best, bestType := -1.0, ""
	for key, typ := range scores {
		if n, ok := d.number(key); ok && n > best {
			best, bestType = n, typ
		}
	}
	switch {
	case best >= 80:
		if f.ThreatType == "" || f.ThreatType == "clean" || bestType == "impostor" && f.ThreatType != "malware" {
			f.ThreatType = bestType
		}
		if f.ThreatType == bestType {
			f.ThreatConfidence = "high"
		}
	case best >= 0 && best < 50 && f.ThreatConfidence == "":
		f.ThreatConfidence = "low"
	}
	if f.ThreatConfidence == "" && f.ThreatType != "" && f.ThreatType != "clean" {
		f.ThreatConfidence = verdictConfidence(d)
	}
	readGatewayInsights(d, f)
	ids := normKey(lowerJoin(d.scalarStrs("identifiers", "impersonationidentifiers")))
	if containsAnyTerm(ids, "internalusername", "internaluser", "vipname") {
		// The recipient's own name on their personal mailbox is someone
		// mailing themselves, not an impostor of a colleague.
		f.NameIsRecipient = impersonatesOnlyRecipient(d)
		f.ImpersonatedInternal = !f.NameIsRecipient
	}
	if containsAnyTerm(ids, "similarinternaldomain", "similarexternaldomain", "homoglyph") {
		f.Lookalike = true
	}
	// Newly observed is new to the organisation's mail, not newly
	// registered: a first contact.
	if containsAnyTerm(ids, "newlyregistereddomain") {
		f.NewDomain = true
	}
	if containsAnyTerm(ids, "newlyobserveddomain") {
		f.FirstContact = true
	}
	if containsAnyTerm(ids, "replyaddressmismatch") {
		f.ReplyToMismatch = true
	}
}

// emailThreatOf folds one vendor threat name onto ThreatType's values.
func emailThreatOf(name string) string {
	n := strings.ToLower(name)
	switch {
	case strings.Contains(n, "malware"):
		return "malware"
	case strings.Contains(n, "phish"):
		return "phish"
	case strings.Contains(n, "spam"):
		return "spam"
	}
	return ""
}

// sameBrandDomain reports whether host belongs to the same registrable
// domain as sender, or to a sibling domain of the same name under another
// suffix (docusign.net and docusign.com), which brands use for their mail
// and web sites alike. Customer-content hosts never count: anyone can
// publish under them.
func sameBrandDomain(host, sender string) bool {
	if isCustomerContentHost(host) {
		return false
	}
	h, s := registrableDomain(host), registrableDomain(sender)
	if h == "" || s == "" {
		return false
	}
	if h == s {
		return true
	}
	name := secondLevel(host)
	return len(name) >= 4 && name == secondLevel(sender)
}

var registeredDaysAgoRe = regexp.MustCompile(`registered (\d{1,4}) days? ago|(\d{1,4})[- ]days?[- ]old domain`)

// readGatewayInsights reads the sentences e-mail suites give as their
// reasons (Abnormal's summaryInsights and similar lists): a look-alike of a
// known domain, the sender domain's age, a free-mail reply-to.
func readGatewayInsights(d *doc, f *EmailFields) {
	text := lowerJoin(d.scalarStrs("summaryinsights", "insights", "reasons", "detectionreasons", "signals"))
	if text == "" {
		return
	}
	if containsAnyTerm(text, "lookalike domain", "look-alike domain", "lookalike of", "impersonates the domain", "similar to the domain") {
		f.Lookalike = true
	}
	if m := registeredDaysAgoRe.FindStringSubmatch(text); m != nil {
		days, _ := strconv.Atoi(m[1] + m[2])
		if f.SenderAgeDays < 0 || days < f.SenderAgeDays {
			f.SenderAgeDays = days
		}
		f.NewDomain = f.NewDomain || days < 30
	}
}

// verdictConfidence reads a 0-100 confidence a gateway attaches to its
// verdict (Check Point's anti-phishing confidence and its kin): below 50
// the gateway itself doubts the verdict, from 80 it is sure.
func verdictConfidence(d *doc) string {
	n, ok := d.number("confidence", "verdictconfidence", "confidencescore")
	switch {
	case !ok || n < 0 || n > 100:
		return ""
	case n < 50:
		return "low"
	case n >= 80:
		return "high"
	}
	return ""
}

// impersonatesOnlyRecipient reports an impersonation hit whose matched
// internal people (Mimecast's similarDomain, "Name <address>") are all
// among the message's recipients.
func impersonatesOnlyRecipient(d *doc) bool {
	recipients := map[string]bool{}
	for _, s := range d.strs(recipientKeys...) {
		for _, a := range emailRe.FindAllString(strings.ToLower(s), 20) {
			recipients[a] = true
		}
	}
	matched := 0
	for _, s := range d.strs("similardomain") {
		for _, a := range emailRe.FindAllString(strings.ToLower(s), 20) {
			if !recipients[a] {
				return false
			}
			matched++
		}
	}
	return matched > 0
}
