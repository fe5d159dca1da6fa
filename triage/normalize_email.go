package triage

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

func readEmailFields(d *doc, ind Indicators) EmailFields {
	m := readEmail(d, ind)
	if m.sender == "" {
		// Proofpoint, Mimecast and Defender name the sender differently.
		for _, s := range d.strs("senderfromaddress", "senderaddress", "fromaddress", "headerfrom", "fromheader", "sendermailfromaddress", "senderfrom", "srcuser", "fromuseremailaddress", "suser") {
			if addr := firstEmail(s); addr != "" {
				m.sender, m.senderDomain = addr, addr[strings.LastIndexByte(addr, '@')+1:]
				markInternal(&m)
				break
			}
		}
	}
	if m.displayName == "" {
		m.displayName = d.str("senderdisplayname", "fromname", "sendername", "p2senderdisplayname", "fromdisplayname", "displayname")
	}
	if m.replyToDomain == "" {
		if addr := firstEmail(d.str("replytoaddress", "replyto", "senderreplyto", "replytoemails", "replytoaddresses", "replytoemail", "replytoheader")); addr != "" {
			m.replyToDomain = addr[strings.LastIndexByte(addr, '@')+1:]
		}
	}
	f := EmailFields{
		Sender: m.sender, SenderDomain: m.senderDomain, DisplayName: m.displayName, ReplyToDomain: m.replyToDomain,
		Internal: m.internal, SenderAgeDays: -1,
	}
	f.FreeMail = freeMailDomains[registrableDomain(m.senderDomain)]
	f.PaymentLure = containsAnyTerm(d.text, paymentLureTerms...)
	readDefenderAuth(d, m.auth)
	readMailInsights(d, m.auth, &f)
	f.SPF, f.DKIM, f.DMARC = m.auth["spf"], m.auth["dkim"], m.auth["dmarc"]
	f.AuthAligned = authAligned(m.auth)
	f.AuthFailed = f.DMARC == "fail" || f.SPF == "fail" && f.DKIM != "pass" || m.auth["compauth"] == "fail"
	f.SimulationInfrastructure = simulationInfrastructure(d, f.SPF)
	if dir := normKey(d.str("emaildirection", "direction", "antispamdirection", "directionality")); dir == "intraorg" || dir == "internal" {
		f.Internal = true
	}
	if v, ok := d.boolean("isinternal"); ok && v && m.senderDomain != "" {
		f.Internal = true
	}
	if f.Internal && m.senderDomain != "" {
		// Links to the organisation's own tenant are judged against its
		// own domain, which internal mail carries as the sender's.
		m.orgDomains = append(m.orgDomains, registrableDomain(m.senderDomain))
	}
	f.ReplyToKnown = m.replyToDomain != "" && replyToKnown(d)
	f.ReplyToMismatch = repliesDiverted(m, f.ReplyToKnown)
	if f.ReplyToMismatch {
		_, f.ReplyToLookalike = orgLookalike(m.replyToDomain, []string{registrableDomain(m.senderDomain)})
	}
	if n, ok := d.number("senderdomainage", "domainage", "domainagedays", "senderdomainagedays", "domainagedays", "registrationagedays"); ok {
		f.SenderAgeDays = int(n)
	}
	if f.SenderAgeDays < 0 {
		f.SenderAgeDays = ageInDays(d.scalarStrs("senderdomainage", "domainage", "sdrageofdomain", "ageofdomain", "domainagetext"))
	}
	if v, ok := d.boolean("newdomain", "newlyregistereddomain", "isnewdomain", "newlyregistered", "domainnewlyregistered"); ok && v || newDomainDetection(d) {
		f.NewDomain = true
	}
	if f.SenderAgeDays < 0 {
		f.SenderAgeDays = registeredDaysBefore(d)
	}
	if f.SenderAgeDays >= 0 && f.SenderAgeDays < 30 {
		f.NewDomain = true
	}
	if m.senderDomain != "" {
		_, a := brandLookalike(m.senderDomain)
		l, b := orgLookalike(m.senderDomain, m.orgDomains)
		f.Lookalike = a || b && !(l.tenant && f.AuthAligned)
		f.OwnTenantSender = (b && l.tenant || orgTenantOnPlatform(m.senderDomain, m.orgDomains)) && f.AuthAligned
	}
	if v, ok := d.boolean("similardomain", "similarinternaldomain", "similarexternaldomain"); ok && v {
		f.Lookalike = true
	}
	if containsAnyTerm(normKey(lowerJoin(d.strs("threatdetectionmethods", "detectionmethods", "impersonationtype", "impersonationresults"))), "domainimpersonation", "similarinternaldomain", "homoglyph") {
		f.Lookalike = true
	}
	hosts := map[string]bool{}
	for _, l := range m.links {
		u, host, ok := linkHost(l.url)
		if !ok {
			continue
		}
		f.URLs = append(f.URLs, l.url)
		hosts[host] = true
		switch {
		case ownTenantHost(host, m.orgDomains), orgTenantInPath(host, u.Path, m.orgDomains), f.OwnTenantSender && sameBrandDomain(host, m.senderDomain):
			f.OwnTenantLinks++
		case isCustomerContentHost(host):
			f.ContentHostLinks++
		}
	}
	f.LinkHosts = sortedKeys(hosts)
	f.LinksOnSenderDomain = len(hosts) > 0 && m.senderDomain != ""
	for h := range hosts {
		// For the organisation's own mail, its tenant on a service is
		// its own ground too.
		own := sameBrandDomain(h, m.senderDomain) || sendersOwnService(h, m) || f.Internal && ownTenantHost(h, m.orgDomains)
		if !own {
			f.LinksOnSenderDomain = false
		}
		if _, branded := ownerBrand(h); !own && !branded && !ownTenantHost(h, m.orgDomains) {
			f.UnvouchedLinkHosts++
		}
	}
	for _, a := range m.attachments {
		f.Attachments = append(f.Attachments, a.name)
	}
	if len(f.Attachments) == 0 {
		f.Attachments = esaAttachments(d)
	}
	f.ThreatType = emailThreatType(d)
	if threat, confidence, ok := esaThreat(d); ok && (f.ThreatType == "" || f.ThreatType == "clean") {
		f.ThreatType, f.ThreatConfidence = threat, confidence
	}
	readGatewayJudgement(d, &f)
	f.Delivery = emailDelivery(d)
	if v, ok := d.boolean("clicked", "userclicked", "clickallowed", "urlclicked"); ok && v || d.has("clicktime", "clickip") {
		f.Clicked = true
	}
	// Mimecast's URL Protect logs the recipient choosing to go on past
	// its warning page ("userAwarenessAction": "Continue", a user override
	// of Continue, "Warn, User Continued").
	for _, s := range d.scalarStrs("userawarenessaction", "useroverride", "actions") {
		if k := normKey(s); strings.HasPrefix(k, "continue") || strings.Contains(k, "usercontinued") {
			f.Clicked, f.ContinuedPastWarning = true, true
		}
	}
	if v, ok := d.boolean("userreported", "reportedbyuser", "isuserreported"); ok && v || containsAnyTerm(normKey(lowerJoin(d.scalarStrs("eventtype", "reporttype", "source", "type", "alerttype"))), "userreported", "reportedphish", "reportphish", "suspiciousmessagereported") {
		f.UserReported = true
	}
	f.ReportMailbox = reportMailbox(d)
	f.Bulk = m.platform != "" || m.listUnsubscribe || f.ThreatType == "bulk"
	readSenderFamiliarity(d, &f)
	f.CredentialForm = containsAnyTerm(m.content, "<form", "type=\"password\"", "type='password'", "enter your password", "confirm your password")
	if b, ok := ownerBrand(m.senderDomain); ok && m.senderDomain != "" && !f.FreeMail {
		f.SenderBrand = b.name
	}
	if b, ok := displayBrand(m.displayName); ok && m.senderDomain != "" && !brandOwnsHost(b, m.senderDomain) {
		f.DisplayNameBrand = b.name
	}
	f.SenderReputation = senderReputation(d)
	readMessageSignals(d, m, &f)
	readForwarding(d, &f)
	f.EncodedAddressLink = encodedAddressLink(f.URLs)
	f.ConsentLink = consentPhishLink(f.URLs, func(h string) bool {
		return ownTenantHost(h, m.orgDomains) || sameBrandDomain(h, m.senderDomain) && f.Internal
	})
	if f.LaterVerdict && f.MalwareName != "" && (f.ThreatType == "" || f.ThreatType == "clean") {
		// A later verdict naming malware overrides the clean first scan.
		f.ThreatType = "malware"
	}
	if f.LaterVerdict && f.ThreatType == "" {
		// Defender for Office names the later verdict in the alert's
		// title ("... containing malicious URL removed after delivery"),
		// the Management Activity API's alert record in its Name, and
		// the purge itself in its operation (MalwareZap, PhishZap).
		switch title := normKey(lowerJoin(d.scalarStrs("title", "alertname", "alertdisplayname")) + " " + d.str("name") + " " + d.str("op")); {
		case containsAnyTerm(title, "maliciousurl", "phish"):
			f.ThreatType = "phish"
		case containsAnyTerm(title, "malware", "maliciousfile", "maliciousattachment"):
			f.ThreatType = "malware"
		}
	}
	sort.Strings(f.URLs)
	return f
}

// readDefenderAuth reads Defender's AuthenticationDetails, a JSON object
// serialised into a string ({"SPF":"pass","DKIM":"pass",...}), which the
// generic lookup sees only as text.
func readDefenderAuth(d *doc, auth map[string]string) {
	for _, s := range d.strs("authenticationdetails") {
		var m map[string]any
		if json.Unmarshal([]byte(s), &m) != nil {
			continue
		}
		for _, k := range sortedKeys(m) {
			v, _ := m[k].(string)
			mech := strings.ToLower(k)
			if _, done := auth[mech]; !done && v != "" {
				auth[mech] = normalizeAuth(strings.ToLower(v))
			}
		}
	}
}

// emailThreatKeys are where mail products state what a message is.
var emailThreatKeys = []string{"attacktype", "threattypes", "threattype", "threats", "result", "classification", "threatclassification", "scanresult", "verdict", "category", "urlcategory", "detectionmethods", "phishscore", "threatstatus", "outbreakfilters", "outbreakfilter", "taxonomy", "reason", "reasonextra", "spyname", "threatnames"}

// emailThreatType folds the gateway's own classification: Defender
// ThreatTypes, Proofpoint classification, Mimecast scan results and
// generic threat fields. Spam and bulk are kept apart from phishing.
func emailThreatType(d *doc) string {
	// "Not spam" (Gmail's spam classification) names no threat.
	text := strings.NewReplacer("notspam", "", "nonspam", "", "notphish", "").Replace(normKey(lowerJoin(d.productScalarStrs(emailThreatKeys...)))) + " " + reclassification(d)
	switch {
	case strings.Contains(text, "malware") || strings.Contains(text, "virus") || strings.Contains(text, "maliciousfile") || strings.Contains(text, "maliciousattachment"):
		return "malware"
	case strings.Contains(text, "maliciousurl") || strings.Contains(text, "maliciouslink"):
		return "phish"
	case strings.Contains(text, "phish") || strings.Contains(text, "credential"):
		return "phish"
	case strings.Contains(text, "impostor") || strings.Contains(text, "impersonation") || strings.Contains(text, "bec"):
		return "impostor"
	case strings.Contains(text, "extortion") || strings.Contains(text, "sextortion"):
		return "extortion"
	case strings.Contains(text, "reconnaissance"):
		return "recon"
	case strings.Contains(text, "spoof") || strings.Contains(text, "scam") || strings.Contains(text, "conversationhijack") || strings.Contains(text, "paymentfraud") || strings.Contains(text, "invoicefraud"):
		return "impostor"
	case strings.Contains(text, "bulk") || strings.Contains(text, "newsletter") || strings.Contains(text, "graymail"):
		return "bulk"
	case strings.Contains(text, "spam"):
		return "spam"
	case strings.Contains(text, "clean") || strings.Contains(text, "nothreat") || text == "none":
		return "clean"
	}
	return ""
}

func emailDelivery(d *doc) string {
	text := normKey(lowerJoin(d.strs("deliveryaction", "latestdeliveryaction", "deliverylocation", "act", "action", "route", "policyaction", "finalaction")))
	for _, a := range [][2]string{{"quarantin", "quarantined"}, {"block", "blocked"}, {"reject", "blocked"}, {"hld", "quarantined"}, {"junk", "junked"}, {"replaced", "replaced"}, {"deliver", "delivered"}, {"inbox", "delivered"}, {"acc", "delivered"}} {
		if strings.Contains(text, a[0]) {
			return a[1]
		}
	}
	return ""
}

// registeredDaysBefore reads a sender-domain registration date
// (domainRegistered, domainCreated) and returns its age in days at the
// time of the alert, or -1 when either date is missing.
func registeredDaysBefore(d *doc) int {
	reg, ok := parseTime(d.str("domainregistered", "domaincreated", "domaincreationdate", "senderdomaincreated", "registrationdate"))
	if !ok {
		return -1
	}
	at, ok := mailTime(d)
	if !ok || at.Before(reg) {
		return -1
	}
	return int(at.Sub(reg).Hours() / 24)
}

// paymentLureTerms are the requests business e-mail compromise exists for.
var paymentLureTerms = []string{
	"gift card", "giftcard", "itunes card", "bank account details", "banking details", "change bank", "new bank account",
	"updated remittance", "remittance details", "wire transfer", "wire the", "direct deposit", "payroll account",
	"change of bank", "iban", "payment details have changed", "bank details", "payment details", "banking information",
}

var ageWithUnitRe = regexp.MustCompile(`(\d{1,5})\s*(day|week|month|year)s?\b`)

// ageInDays reads a domain age written with its unit ("2 days",
// "15 years"), as Cisco's sender-domain reputation and several gateways
// report it; -1 when none of values reads as one.
func ageInDays(values []string) int {
	for _, v := range values {
		m := ageWithUnitRe.FindStringSubmatch(strings.ToLower(v))
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		switch m[2] {
		case "week":
			n *= 7
		case "month":
			n *= 30
		case "year":
			n *= 365
		}
		return n
	}
	return -1
}

// readSenderFamiliarity reads what the gateway knows about the sender
// beyond authentication: whether the recipient has heard from it before,
// whether an attachment was beyond inspection, whether the sending
// account itself is reported taken over.
func readSenderFamiliarity(d *doc, f *EmailFields) {
	if v, ok := d.boolean("firsttimesender", "firstcontact", "isfirstcontact", "firsttimecontact", "firstseensender"); ok && v {
		f.FirstContact = true
	} else if containsAnyTerm(d.text, "first time you've received email from", "first-time sender", "first time sender", "never corresponded") {
		f.FirstContact = true
	}
	if len(f.Attachments) > 0 {
		if v, ok := d.boolean("encrypted", "isencrypted", "passwordprotected", "ispasswordprotected"); ok && v {
			f.UnscannableAttachment = true
		} else if containsAnyTerm(d.text, "unscannable", "password-protected", "password protected", "encrypted attachment", "encrypted archive", "password for the document", "password for the file", "password to open", "passwort für das dokument", "das passwort") {
			f.UnscannableAttachment = true
		}
	}
	if v, ok := d.boolean("containsqrcode", "hasqrcode", "qrcode", "qrcodedetected", "isqrcode"); ok && v {
		f.QRCode = true
	} else if containsAnyTerm(d.text, "qr code", "qr-code", "qrcode") {
		f.QRCode = true
	}
	f.SenderCompromised = containsAnyTerm(productText(d), "compromised vendor", "compromised supplier", "compromised account", "account shows signs of compromise", "vendor email compromise", "account takeover")
}

// reclassification reads an alert type that reports a verdict changed
// after delivery (Google's "Phishing reclassification", "Malware
// reclassification"): the new verdict is the threat type.
func reclassification(d *doc) string {
	var out []string
	for _, t := range d.scalarStrs("type", "alerttype") {
		if strings.Contains(strings.ToLower(t), "reclassification") {
			out = append(out, normKey(t))
		}
	}
	return strings.Join(out, " ")
}

// sendersOwnService reports a link host that belongs to the service the
// sender itself sent through or is: the bulk-mail platform that carried
// the message (its tracking and list pages), or the brand that owns the
// sender domain.
func sendersOwnService(host string, m emailMessage) bool {
	if isCustomerContentHost(host) || m.senderDomain == "" {
		return false
	}
	if m.platform != "" && bulkMailDomains[registrableDomain(host)] == m.platform {
		return true
	}
	hb, ok := ownerBrand(host)
	sb, sok := ownerBrand(m.senderDomain)
	return ok && sok && hb.name == sb.name
}

// markInternal sets internal once the sender is known late: a recipient
// domain equal to the sender's makes the mail internal, and that domain
// is no organisation the sender could imitate.
func markInternal(m *emailMessage) {
	senderReg := registrableDomain(m.senderDomain)
	var orgs []string
	for _, o := range m.orgDomains {
		if o == senderReg {
			m.internal = true
			continue
		}
		orgs = append(orgs, o)
	}
	m.orgDomains = orgs
}

// newDomainDetectionRe is a product's detection named for a newly
// registered sender domain ("Sender domain registered within 30 days").
var newDomainDetectionRe = regexp.MustCompile(`\b(sender )?domain (was )?(registered|created) (within|in the last|less than) \d+ days|\bnewly[ -]registered (sender )?domain`)

// newDomainDetection reports a detection the product fired, or an insight
// it lists, that names the sender domain newly registered; one about a
// link's domain ("Link: newly registered domain") is not the sender's.
func newDomainDetection(d *doc) bool {
	for _, s := range d.scalarStrs("flaggedrulesname", "rulesname", "rulename", "detectionname", "summaryinsights", "insights") {
		low := strings.ToLower(s)
		if newDomainDetectionRe.MatchString(low) && !containsAnyTerm(low, "link", "url") {
			return true
		}
	}
	return false
}
