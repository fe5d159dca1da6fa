package triage

import (
	"regexp"
	"slices"
	"strings"
)

// DataFields describe a data-loss or insider-risk alert: what sensitive
// data went where, and in what circumstances.
type DataFields struct {
	User string `expr:"user" json:"user,omitempty"`
	// Destination is where the data went: a recipient address, a cloud
	// app instance, a device.
	Destination string `expr:"destination" json:"destination,omitempty"`
	// Matches is the largest count of sensitive items matched.
	Matches int `expr:"matches" json:"matches,omitempty"`
	// Personal is set when the data went to a personal destination: a
	// consumer mailbox, a personal cloud instance, removable media.
	Personal bool `expr:"personal" json:"personal,omitempty"`
	// Sanctioned is set when the destination is internal only or on the
	// policy's allow list of business partners.
	Sanctioned bool `expr:"sanctioned" json:"sanctioned,omitempty"`
	Encrypted  bool `expr:"encrypted" json:"encrypted,omitempty"`
	// Override is set when the user overrode a block or warning.
	Override bool `expr:"override" json:"override,omitempty"`
	// PersonalReason is set when the user's own justification names a
	// personal purpose ("personal backup", "my own copy").
	PersonalReason bool `expr:"personal_reason" json:"personal_reason,omitempty"`
	// Departing is set when HR context says the user resigned, is leaving
	// or was terminated.
	Departing bool `expr:"departing" json:"departing,omitempty"`
	// TestCardsOnly is set when the payload shows the matched card
	// numbers and every one is a processor's published test number.
	TestCardsOnly bool `expr:"test_cards_only" json:"test_cards_only,omitempty"`
	// SyntheticData is set when every social security number shown is
	// one that cannot be issued (reserved or advertising ranges), or the
	// file is described as generated test data.
	SyntheticData bool `expr:"synthetic_data" json:"synthetic_data,omitempty"`
	// FileHost is set when the destination is an anonymous or personal
	// file-transfer host (MEGA, file.io, WeTransfer and the like).
	FileHost bool `expr:"file_host" json:"file_host,omitempty"`
	// GenAI is set when the destination is a generative-AI chat service.
	GenAI bool `expr:"gen_ai" json:"gen_ai,omitempty"`
	// Unsanctioned is set when the product or policy names the
	// destination app or instance unsanctioned.
	Unsanctioned bool `expr:"unsanctioned" json:"unsanctioned,omitempty"`
	// PublicLink is set when the file was shared to anyone with the link
	// or published on the web.
	PublicLink bool `expr:"public_link" json:"public_link,omitempty"`
	// BusinessPartner is set when the context names the destination as a
	// contracted provider or partner of the organisation.
	BusinessPartner bool `expr:"business_partner" json:"business_partner,omitempty"`
	// BusinessJustified is set when the user's justification for an
	// override names a business purpose or a case, ticket or request
	// reference, and no personal one.
	BusinessJustified bool `expr:"business_justified" json:"business_justified,omitempty"`
}

// readDataFields fills DataFields from Purview, Netskope, Google Workspace
// rule and insider-risk payloads (keys taken from their documented
// schemas), best effort for others.
func readDataFields(d *doc) DataFields {
	f := DataFields{
		User:        d.str("userprincipalname", "resourceowneremail", "actor", "user", "email", "triggeringuseremail", "userid"),
		Destination: d.str("recipientemailaddress", "recipient", "recipients", "resourcerecipients", "destination", "instanceid", "targetdomain", "destinationdomain", "to"),
	}
	if f.Destination == "" {
		f.Destination = d.str("site", "url")
	}
	for _, m := range d.maps("sensitiveinfotypes", "sensitiveinfotypedata", "sensitiveinformation", "matches", "detections") {
		if n, ok := newDoc(m).number("count", "matchcount"); ok && int(n) > f.Matches {
			f.Matches = int(n)
		}
	}
	if n, ok := d.number("dlprulecount", "dlpdicthitcount", "detectormatchcount", "matchcount", "sensitivecount", "filecount", "recordcount"); ok && int(n) > f.Matches {
		f.Matches = int(n)
	}
	// Google's DLP rule events list each matched detector with its count.
	for _, v := range d.values("matchedcount") {
		if n, ok := asNumber(v); ok && int(n) > f.Matches {
			f.Matches = int(n)
		}
	}
	dest := strings.ToLower(f.Destination)
	destDomain := dest
	if i := strings.LastIndexByte(dest, '@'); i >= 0 {
		destDomain = dest[i+1:]
	}
	destDomain = registrableDomain(destDomain)
	instance := normKey(d.str("instancetype", "destinationtype", "accounttype"))
	f.Personal = freeMailDomains[destDomain] || instance == "personal" ||
		containsAnyTerm(normKey(lowerJoin(d.strs("riskindicators", "destinationcategory", "exfiltrationvector", "activity", "destination", "operation"))), "removablemedia", "usb", "personalcloud", "personalemail")
	for _, allowed := range d.strs("recipientdomainallowlist", "alloweddomains", "allowlisteddomains", "sanctioneddomains") {
		if destDomain != "" && registrableDomain(strings.ToLower(strings.TrimSpace(allowed))) == destDomain {
			f.Sanctioned = true
		}
	}
	// The app's or instance's tag, single or listed (Netskope's
	// "app_tags": ["Sanctioned"]).
	if instance == "corporate" || instance == "business" || slices.ContainsFunc(d.scalarStrs("appinstancetag", "instancetag", "apptag", "appclass", "apptags", "instancetags"), func(tag string) bool { return normKey(tag) == "sanctioned" }) {
		f.Sanctioned = true
	}
	// An instance named for the organisation (meridianfreight for
	// meridianfreight.com) that the data went to is its own tenant; a
	// download's instance is where the data came from, not where it went.
	download := containsAnyTerm(normKey(d.str("activity", "operation")), "download")
	if org := secondLevel(strings.ToLower(emailDomain(f.User))); org != "" && !download {
		for _, id := range d.scalarStrs("instanceid", "instance", "instancename") {
			label, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(id)), ".")
			if normKey(label) == normKey(org) {
				f.Sanctioned = true
			}
		}
	}
	if scope := normKey(d.str("sharingscope", "visibility", "sharedwith")); strings.HasPrefix(scope, "internal") || scope == "private" || scope == "domain" {
		f.Sanctioned = true
	}
	if userDomain := registrableDomain(strings.ToLower(emailDomain(f.User))); userDomain != "" && destDomain == userDomain {
		f.Sanctioned = true
	}
	readDataDestination(&f, d, destDomain)
	if companyDevice(d) {
		// Removable media the organisation issued and registered is its
		// own storage, not a personal destination.
		f.Personal, f.Sanctioned = false, true
	}
	f.Sanctioned = f.Sanctioned && !f.Personal
	f.Encrypted = d.str("encryption", "encryptionstatus", "messageencryption") != "" && !containsAnyTerm(normKey(d.str("encryption", "encryptionstatus")), "none", "notencrypted")
	if v, ok := d.boolean("encrypted", "isencrypted", "hardwareencrypted", "deviceencrypted"); ok && v {
		f.Encrypted = true
	}
	if v, ok := d.boolean("useroverride", "overridden", "override", "overriddenbyuser"); ok && v {
		f.Override = true
	}
	// Purview's audit record states an override as its exception's reason.
	for _, m := range d.maps("exceptioninfo") {
		if normKey(newDoc(m).str("reason")) == "override" {
			f.Override = true
		}
	}
	justification := d.str("overridejustification", "justification", "userjustification")
	reason := normKey(justification)
	// The user's own subject line ("personal backup") says the same when
	// the mail goes to their own consumer mailbox.
	own := reason + " " + normKey(d.str("subject"))
	f.PersonalReason = containsAnyTerm(own, "personal", "myown", "private", "backup") && !containsAnyTerm(own, "business")
	f.BusinessJustified = !f.PersonalReason && (containsAnyTerm(reason, "business") || businessReferenceRe.MatchString(justification))
	f.Departing = departingUser(d)
	f.TestCardsOnly = onlyTestCards(d.text)
	return f
}

// businessReferenceRe finds a case, ticket, request or change reference in
// a justification ("case DSP-2025-118734", "ticket HR-PAY-0042",
// "CHG0041127").
var businessReferenceRe = regexp.MustCompile(`(?i)\b(case|ticket|ref|request|change|po|invoice)\b[\s:#.-]{0,3}(?:[a-z]{1,8}-){0,3}\d{3,}|\b(chg|inc|ritm|req|sr)\d{5,}\b`)

// emailDomain returns the part after the last '@', or "".
func emailDomain(addr string) string {
	if i := strings.LastIndexByte(addr, '@'); i >= 0 {
		return addr[i+1:]
	}
	return ""
}

// hrNegationRe finds an HR status that denies a departure ("active, no
// resignation on file", "not leaving").
var hrNegationRe = regexp.MustCompile(`\b(no|not|none|without|never)\b[^,;.]{0,30}\b(resign|depart|leav|termin|notice)`)

// departingUser reports a user who has resigned, been terminated or is
// serving notice: an HR status or risk flag saying so (and not denying
// it), or a departure, termination, notice or last-day date.
func departingUser(d *doc) bool {
	for _, s := range d.strs("hrcontext", "hrflags", "riskindicators", "userrisk", "departuredate", "employmentstatus", "employeestatus", "hrstatus", "userhrstatus") {
		low := strings.ToLower(s)
		if hrNegationRe.MatchString(low) {
			continue
		}
		if containsAnyTerm(normKey(low), "resign", "departing", "leaver", "termination", "terminated", "noticeperiod") {
			return true
		}
	}
	return d.str("departuredate", "terminationdate", "lastworkingday", "lastday", "noticegiven", "noticedate", "resignationdate") != ""
}

// companyDevice reports removable media the payload shows the organisation
// issued: an asset register or device-control entry naming it a company
// or corporate asset, company-issued, or an approved device.
func companyDevice(d *doc) bool {
	removable := containsAnyTerm(normKey(lowerJoin(d.strs("destination", "destinationtype", "devicetype", "exfiltrationvector", "channel", "operation", "activity", "bustype"))), "removable", "usb", "externalssd", "externaldrive")
	return removable && affirmedPhrase(d.text, "company asset", "company-issued", "company issued", "corporate-issued", "corporate asset", "company-owned", "corporate-owned", "organisation-owned", "organization-owned", "approved removable device", "allowlisted device") != ""
}
