package triage

import (
	"regexp"
	"strings"
)

// Products state their own conclusion about an alert under many names
// (Graph classification and determination, SentinelOne analystVerdict and
// mitigationStatus, Cortex XDR resolution_status, Carbon Black
// determination_value, Trend Vision One investigationResult, Splunk ES
// disposition, Sentinel classificationReason) and in as many vocabularies.
// These readers fold them by meaning.

// verdictKeys are the fields that carry a product's or an analyst's
// conclusion, in order of authority: the product's current disposition
// after a reclassification comes first, an analyst's resolution outranks the
// engine's own confidence, which comes before a bare classification that
// some products use for the threat type ("Malware") whatever the
// confidence. A submission's result (Microsoft's analysis of a reported
// or purged message) and a comment come before all: they are the latest
// look, and a comment speaks only in a conclusion's own words ("False
// positive", "Should not have been blocked"). A scan or sandbox result is
// not among them (see positiveResultKeys).
var verdictKeys = []string{
	"submissionresult", "submissionverdict", "comment",
	"currentdisposition", "currentverdict", "analystverdict", "analystdetermination", "determination", "determinationvalue", "investigationresult",
	"resolutionstatus", "resolutionreason", "dispositionlabel", "closereason", "closurereason",
	"workflowreason", "threatstatus", "confidencelevel", "confidenceindicator", "classification", "classificationreason", "verdict",
	"judgement", "judgment", "judgementstatus", "finalverdict", "threatverdict", "resolution", "disposition",
	"status", "incidentstatus", "riskstate", "riskdetail", "mitigationstatus",
}

// analysedVerdictKeys are the fields only a person's or a detonation's
// review fills: an analyst's verdict, determination or resolution, a
// sandbox result. The engine's own confidence, classification or status
// is what the detection said about itself.
var analysedVerdictKeys = setOf(
	"analystverdict", "analystdetermination", "determination", "determinationvalue", "investigationresult",
	"resolutionstatus", "resolutionreason", "classificationreason", "dispositionlabel", "closereason",
	"closurereason", "workflowreason", "riskstate", "riskdetail", "submissionresult", "submissionverdict", "comment",
)

// positiveResultKeys are the detonation and scan results read when no
// field of verdictKeys states a conclusion, with where each comes from. A
// sandbox finding nothing in one attachment is not the product clearing
// the alert (a QR code, an encrypted document or a link that waits for a
// click all detonate clean), so only positive findings count. A URL
// scan's result is the same: Mimecast logs "clean" for an uncategorised
// page the user went on to past its warning.
var positiveResultKeys = []struct{ key, source string }{
	{"sandboxverdict", "analysed"}, {"detonationverdict", "analysed"}, {"detonationresult", "analysed"},
	{"sandboxresult", "analysed"}, {"scanresult", "engine"}, {"result", "engine"},
}

// vendorVerdict folds the product's own conclusion to malicious,
// suspicious, false_positive or "", and tells whether it came after
// analysis ("analysed": an analyst's resolution, a sandbox detonation, a
// triage classification such as Graph's truePositive) or from the
// detection engine itself ("engine").
func vendorVerdict(d *doc) (verdict, source string) {
	for _, name := range verdictKeys {
		raw := d.conclusion(name)
		if v := vendorVerdictOf(raw); v != "" {
			return v, verdictSource(name, raw)
		}
	}
	// Google disables an account it judges hijacked and files that as
	// an account warning of its own.
	if containsAnyTerm(normKey(lowerJoin(d.scalarStrs("eventname", "name"))), "accountdisabledhijacked") {
		return "malicious", "analysed"
	}
	// Mimecast's attachment and URL protect logs state the scan's
	// outcome as "result" beside the action it triggered: "safe" there
	// is the sandbox clearing the file.
	if d.has("actiontriggered") {
		for _, raw := range d.scalarStrs("result") {
			if v := vendorVerdictOf(raw); v != "" {
				return v, "analysed"
			}
		}
	}
	for _, r := range positiveResultKeys {
		for _, raw := range d.strs(r.key) {
			if v := vendorVerdictOf(raw); v == "malicious" || v == "suspicious" {
				return v, r.source
			}
		}
	}
	return "", ""
}

// conclusion is the first stated value under name that speaks for the
// alert: a benign reputation of one of its artifacts
// ("file_wildfire_verdict": "BENIGN" on the signed program a loader
// hijacked) or of a parent process is that file's, not the product
// clearing the alert.
//
// Where several values under name disagree (a clean attachment beside a
// phishing link, a click allowed and then blocked once the page was
// judged), a malicious or suspicious one wins: the product saw the threat
// in one part, and the clean part does not clear the whole.
func (d *doc) conclusion(name string) string {
	first := ""
	for _, e := range d.entries {
		if e.key != name || userSupplied(e.scope) {
			continue
		}
		for _, raw := range appendLeafStrings(nil, e.val, 0) {
			if raw = strings.TrimSpace(raw); raw == "" {
				continue
			}
			v := vendorVerdictOf(raw)
			if v == "false_positive" && (artifactScope(e.scope) || messagePartScope(e.scope) && scanFindingClean[normKey(raw)]) {
				break
			}
			if v == "malicious" || v == "suspicious" {
				return raw
			}
			if first == "" {
				first = raw
			}
			break
		}
	}
	return first
}

// userSupplied reports whether scope, an entry's path, ends in a field a
// user filled rather than the product ("user_spam_classification":
// "phishing" when someone reports a message, "userVerdict"): their
// report is why the alert exists, not the product's conclusion on it.
func userSupplied(scope string) bool {
	own := scope[strings.LastIndexByte(scope, '.')+1:]
	return strings.HasPrefix(own, "user") && own != "user"
}

// artifactScope reports whether scope, an entry's path, sits on one of the
// alert's artifacts or on a parent process rather than on what the alert
// is about. An e-mail's attachment or an endpoint alert's own file is the
// subject, so its clean verdict stays the product's word on the alert.
func artifactScope(scope string) bool {
	for _, seg := range strings.Split(scope, ".") {
		if strings.Contains(seg, "artifact") || strings.HasPrefix(seg, "parent") {
			return true
		}
	}
	return false
}

// scanFindingClean are the words a scan engine reports a clean part with,
// as against a person's or the product's resolution of the alert
// ("falsePositive", "cleared").
var scanFindingClean = setOf("clean", "safe", "nothreatsfound", "notathreat", "benign", "noneidentified")

// messagePartScope reports whether scope, an entry's path, sits on one
// part of a message (an attachment, a link, a click on one): a scan
// finding that part clean is not the product clearing the message, whose
// lure may be its text, a QR code or a link that waits for the click.
func messagePartScope(scope string) bool {
	for _, seg := range strings.Split(scope, ".") {
		if containsAnyTerm(seg, "attachment", "url", "link", "click") {
			return true
		}
	}
	return false
}

// verdictSource names where a conclusion read under key came from. A
// classification field is a triage verdict when it holds one (truePositive,
// falsePositive, benignPositive), and the engine's threat type otherwise.
func verdictSource(key, raw string) string {
	if analysedVerdictKeys[key] {
		return "analysed"
	}
	k := normKey(raw)
	if key == "classification" && (strings.HasPrefix(k, "truepositive") || strings.HasPrefix(k, "falsepositive") || strings.HasPrefix(k, "benignpositive") || k == "informationalexpectedactivity") {
		return "analysed"
	}
	return "engine"
}

var (
	// benignDeterminations are conclusions that the activity is not a
	// threat: a false positive, expected or sanctioned activity, a test.
	benignDeterminations = setOf(
		"falsepositive", "benignpositive", "benigntruepositive", "informationalexpectedactivity", "notmalicious",
		"lineofbusinessapplication", "benign", "clean", "falsealarm", "cleared", "securitytesting", "authorizedtest",
		"safe", "notathreat", "nothreatsfound", "securitypersonnel", "confirmedactivity", "confirmeduseractivity",
		"expectedactivity", "markedasbenign", "suspiciousbutexpected", "incorrectalertlogic", "inaccuratedata",
	)
	// maliciousDeterminations are conclusions that the activity is a
	// real threat.
	maliciousDeterminations = setOf(
		"truepositive", "malicious", "malware", "phish", "phishing", "ransomware", "compromisedaccount",
		"multistagedattack", "maliciouspayload", "attack", "apt", "malicioususeractivity",
		"confirmedcompromised", "adminconfirmedsignincompromised", "adminconfirmedusercompromised",
	)
	suspiciousDeterminations = setOf("suspicious", "suspiciousactivity", "unwantedsoftware")
)

// vendorVerdictOf folds one stated conclusion.
func vendorVerdictOf(s string) string {
	k := normKey(s)
	// Cortex XDR prefixes its resolutions ("resolved_false_positive",
	// "STATUS_040_RESOLVED_FALSE_POSITIVE").
	if rest, ok := strings.CutPrefix(k, "status"); ok {
		k = strings.TrimLeft(rest, "0123456789")
	}
	k = strings.TrimPrefix(k, "resolved")
	switch {
	case k == "":
		return ""
	// Microsoft's result for an admin or user submission, filed in the
	// alert's submission fields or its automation comment: "Should not
	// have been blocked (False positive)", "Should have been blocked".
	case strings.Contains(k, "shouldnothavebeenblocked"):
		return "false_positive"
	case strings.Contains(k, "shouldhavebeenblocked"):
		return "malicious"
	case benignDeterminations[k]:
		return "false_positive"
	case maliciousDeterminations[k]:
		return "malicious"
	case suspiciousDeterminations[k]:
		return "suspicious"
	}
	// Labels that carry a reason after the class: Splunk ES "True
	// Positive - Suspicious Activity", "Benign Positive - Suspicious But
	// Expected", "False Positive - Inaccurate Data".
	switch {
	case strings.HasPrefix(k, "falsepositive"), strings.HasPrefix(k, "benignpositive"), strings.HasPrefix(k, "benigntruepositive"):
		return "false_positive"
	case strings.HasPrefix(k, "truepositive"):
		return "malicious"
	}
	// Splunk ES stores the disposition by its code.
	switch k {
	case "disposition1":
		return "malicious"
	case "disposition2", "disposition3", "disposition4":
		return "false_positive"
	}
	return ""
}

// actionKeys are the fields that say what a product did about the
// activity.
var actionKeys = []string{
	"action", "actiontaken", "actions", "deliveryaction", "latestdeliveryaction", "mitigationstatus",
	"remediationstatus", "patterndisposition", "patterndispositiondescription", "disposition", "act",
	"detectionstatus", "policyaction", "finalaction", "route", "sensoraction", "actionpretty", "actionresult",
	"responseaction", "enforcementaction", "utmaction", "threataction",
}

// actionWords fold action vocabularies to one word, tried in order:
// firewalls drop, reset or sinkhole; EDRs terminate, clean or roll back.
var actionWords = [][2]string{
	{"quarantin", "quarantined"}, {"prevent", "blocked"}, {"block", "blocked"}, {"reject", "blocked"},
	{"deny", "blocked"}, {"denied", "blocked"}, {"drop", "blocked"}, {"resetboth", "blocked"},
	{"resetclient", "blocked"}, {"resetserver", "blocked"}, {"sinkhole", "blocked"},
	{"remediat", "remediated"}, {"mitigated", "remediated"}, {"kill", "remediated"}, {"terminat", "remediated"},
	{"cleaned", "remediated"}, {"rollback", "remediated"}, {"junk", "junked"}, {"hld", "quarantined"},
	{"hold", "quarantined"}, {"deliver", "delivered"}, {"allow", "allowed"}, {"permit", "allowed"},
	{"acc", "delivered"},
}

// vendorAction folds what the product did to one word.
func vendorAction(d *doc) string {
	text := normKey(lowerJoin(d.strs(actionKeys...)))
	for _, a := range actionWords {
		if strings.Contains(text, a[0]) && !strings.Contains(text, "not"+a[0]) && !strings.Contains(text, "failed") {
			return a[1]
		}
	}
	if dispositionFlagged(d) {
		return "blocked"
	}
	return ""
}

// dispositionFlags are the flags EDRs set on a detection when they stopped
// it (CrowdStrike pattern_disposition_details: killed, quarantine_file,
// blocked_execution, process_blocked, operation_blocked).
var dispositionFlags = []string{"kill", "quarantin", "block", "prevent"}

// dispositionFlagged reports a true flag of a disposition or mitigation
// object whose name says the activity was stopped.
func dispositionFlagged(d *doc) bool {
	for _, e := range d.entries {
		b, ok := e.val.(bool)
		if !ok || !b || !containsAnyTerm(e.scope, "disposition", "mitigation") {
			continue
		}
		if containsAnyTerm(e.key, "fail", "not", "would", "unsupported", "disabled") {
			continue
		}
		if firstSubstring(e.key, dispositionFlags) != "" {
			return true
		}
	}
	return false
}

// changeReferenceRe finds a change-management record's identifier in the
// alert: a ServiceNow or Jira change number (CHG0041187, CHG-7720,
// CR-20251030) or a change ticket, request or record named with a number.
var changeReferenceRe = regexp.MustCompile(`(?i)\b(chg-?\d{3,}|cr-\d{4,})\b|\bchange (?:ticket|request|record)\s*(?:#|no\.?|number|id)?\s*:?\s*[a-z]{0,6}-?\d{3,}`)

// changeReference returns the first change-management reference in the
// payload (see changeReferenceRe), or "": analysts and SOAR enrichment
// note the change an alert's activity was approved under.
func changeReference(d *doc) string {
	// The substring gate keeps the regexp off the many payloads that
	// cannot match.
	// A previous sign-in's or the baseline's ticket was that event's
	// change, not this one's.
	text := d.ownText()
	if containsAnyTerm(text, "chg", "cr-", "change ticket", "change request", "change record") {
		if ref := changeReferenceRe.FindString(text); ref != "" {
			return ref
		}
	}
	return changeRecordField(d)
}

// changeRecordKeys name the objects and fields enrichment files a change
// record under.
var changeRecordKeys = []string{"changerecord", "changeticket", "changerequest", "changemanagement"}

// changeRecordField returns what a change-record field or object holds
// when it names one (a pull request, a ticket), or "": a record whose
// identifier has no ticket number ("pullRequest": "org/repo#214 ...")
// is still one. Fields that say there is none do not count.
func changeRecordField(d *doc) string {
	for _, e := range d.entries {
		s, ok := e.val.(string)
		if !ok || e.aside || !containsAnyTerm(e.scope, changeRecordKeys...) {
			continue
		}
		if saysNoRecord(s) {
			continue
		}
		return truncate(strings.TrimSpace(s), 80)
	}
	return ""
}

// saysNoRecord reports a change-record or ticket value that says there is
// none, or none that counts: empty, "none found", "n/a", "missing",
// "not approved", "rejected".
func saysNoRecord(v string) bool {
	v = strings.ToLower(strings.TrimSpace(v))
	switch v {
	case "", "none", "no", "n/a", "null":
		return true
	}
	for _, p := range []string{"none ", "not found", "missing", "no ", "not ", "rejected", "unapproved"} {
		if strings.HasPrefix(v, p) {
			return true
		}
	}
	return false
}

// decoyPhrases name deception bait in an alert: the accounts and tokens
// deception programmes plant (Defender for Identity honeytokens,
// InsightIDR honey users, canary tokens) exist only to be found.
var decoyPhrases = []string{"honey user", "honeyuser", "honeytoken", "honey token", "honey account", "honeypot account", "decoy account", "decoy user", "decoy credential", "canarytoken", "canary token", "canary account", "deception account"}
