package triage

import (
	"regexp"
	"strconv"
	"strings"
)

// Sign-in facts that providers and enrichments state in words of their
// own: the owner's report, a token anomaly, an outcome named only in the
// event's wording, an address or device described as the user's own.

// userReportTerms name the owner reporting activity as not theirs.
var userReportTerms = []string{
	"reportsuspiciousactivity", "reportedsuspiciousactivity", "suspiciousactivityreported", "userreportedsuspicious",
	"userreportedfraud", "fraudreportedbyuser", "suspiciousactivityreportedbytheuser",
}

// tokenAnomalyTerms are provider detections about the session's token or cookie;
// an attacker-in-the-middle detection (Entra's attackerinTheMiddle) is a
// session cookie taken by a phishing proxy.
var tokenAnomalyTerms = append([]string{
	"anomaloustoken", "tokenissueranomaly", "tokenlifetimeanomaly", "tokenreplay", "replayedtoken", "tokentheft", "stolentoken",
	// Google signs a user out when it finds their session cookie in use
	// elsewhere (user_signed_out_due_to_suspicious_session_cookie).
	"suspicioussessioncookie",
}, phishingProxyTerms...)

// phishingProxyTerms are the provider detections that tie a session to
// an attacker-in-the-middle phishing proxy.
var phishingProxyTerms = []string{"attackerinthemiddle", "adversaryinthemiddle"}

// readReportsAndTokens reads the owner's own report and token anomalies
// from the event names and risk detections.
func readReportsAndTokens(f *IdentityFields, d *doc) {
	names := normKey(lowerJoin(d.strs("eventtype", "eventname", "riskeventtype", "riskeventtypes", "riskeventtypesv2", "risktype", "displaymessage", "detectiontype", "title", "alertname", "rulename",
		"additionaldetails", "failurereason", "authdetail", "resultreason", "reason", "mfadetail", "authenticationstepresultdetail")))
	if firstSubstring(names, userReportTerms) != "" && !strings.Contains(names, "falsepositive") {
		f.UserReported = true
	}
	if firstSubstring(names+" "+d.compactText(), tokenAnomalyTerms) != "" {
		f.TokenAnomaly = true
	}
	f.PhishingProxy = firstSubstring(names, phishingProxyTerms) != ""
	if f.UserReported {
		f.ReportedNearby = reportedNearby(f.Country, d)
	}
	f.SprayedPassword = containsAnyTerm(normKey(lowerJoin(d.strs("riskeventtype", "riskeventtypes", "riskeventtypesv2"))), "passwordspray")
}

// readOutcomeWording fills an outcome the structured fields left open
// from how the event names it ("Successful login", USER_LOGGED_INTO_APP,
// "Invalid username or password"), and a hosting network from an ASN
// field that holds the network's kind instead of its number.
// sharedAddressRe counts the organisation's other users seen on the address.
var sharedAddressRe = regexp.MustCompile(`(?:used|seen) by (\d+) other users`)

// negatedSuccess turns a negated success phrase, in normKey form, into
// the failure it states.
var negatedSuccess = strings.NewReplacer("unsuccessful", "failed", "nosuccessful", "failed", "notsuccessful", "failed")

func readOutcomeWording(f *IdentityFields, d *doc) {
	if f.Result == "" {
		// "Unsuccessful login" and "no successful authentication" say
		// the opposite of the success phrase they contain.
		words := negatedSuccess.Replace(normKey(lowerJoin(d.scalarStrs("description", "eventtypename", "eventtype", "event", "message", "displaymessage", "name"))))
		switch {
		case containsAnyTerm(words, "successfullogin", "loginsuccessful", "loginsucceeded", "successfulsignin", "signinsucceeded", "loggedinto", "loggedin", "authenticationsucceeded", "successfulauthentication"):
			f.Result = "success"
		case containsAnyTerm(words, "failedlogin", "loginfailed", "invalidusernameorpassword", "incorrectpassword", "wrongpassword", "failedauthentication", "authenticationfailed"):
			f.Result = "failure"
		}
	}
	if !f.Hosting && f.ASN != "" && strings.Trim(asnText(f.ASN), "0123456789") != "" {
		if firstSubstring(strings.ToLower(f.ASN), hostingProviders) != "" {
			f.Hosting = true
		}
	}
	// The provider's own risk reasons name the network (OneLogin's
	// "IP belongs to a hosting provider (Hetzner Online GmbH, FI)").
	// An address the reasons say many of the organisation's users sign
	// in from ("used by 214 other users in this account") is its own
	// egress, a virtual desktop pool or an office.
	if reasons := lowerJoin(d.scalarStrs("riskreasons", "riskreason", "riskdetail")); reasons != "" {
		f.Hosting = f.Hosting || affirmedPhrase(reasons, "hosting provider", "data center", "datacenter", "hosting network") != "" || firstSubstring(reasons, hostingProviders) != ""
		if m := sharedAddressRe.FindStringSubmatch(reasons); m != nil {
			if n, _ := strconv.Atoi(m[1]); n >= 10 {
				f.KnownNetwork = true
			}
		}
	}
}

// readFamiliarity reads the enrichment that says the address or device is
// the user's own: an address flagged as seen for the user before or seen
// on many recent days, a device described as company-owned or managed.
func readFamiliarity(f *IdentityFields, d *doc) {
	if usualAddress(f.SourceIP, d) {
		f.KnownNetwork = true
	}
	for _, e := range d.entries {
		if containsAnyTerm(e.key, "device", "country", "countr", "city", "location", "app") {
			continue
		}
		if b, ok := e.val.(bool); ok && b && strings.Contains(e.key, "seen") && containsAnyTerm(e.key, "before", "previously", "foruser") {
			f.KnownNetwork = true
		}
		if n, ok := asNumber(e.val); ok && strings.HasPrefix(e.key, "daysseen") && n >= 10 {
			f.KnownNetwork = true
		}
	}
	for _, m := range d.strs("management", "managementstate", "managementtype", "ownership", "deviceownership", "managedby") {
		m = strings.ToLower(m)
		if strings.Contains(m, "unmanaged") || strings.Contains(m, "not managed") || strings.Contains(m, "personal") || strings.Contains(m, "byod") {
			f.DeviceUnmanaged = true
			continue
		}
		if strings.Contains(m, "managed") || strings.Contains(m, "company-owned") || strings.Contains(m, "corporate-owned") || strings.Contains(m, "company owned") {
			f.DeviceManaged = true
		}
	}
}

// reportedNearby reports whether the place of the activity a user
// disowned, as the report's own fields give it (Okta's
// suspiciousActivityEventCountry, or a location line naming the
// country), lies in reporterCountry, where the user reported from. A
// report that names no place for the activity is not nearby.
func reportedNearby(reporterCountry string, d *doc) bool {
	home := strings.ToLower(strings.TrimSpace(reporterCountry))
	if home == "" {
		return false
	}
	for _, e := range d.entries {
		if !strings.HasPrefix(e.key, "suspiciousactivity") || !containsAnyTerm(e.key, "country", "location") {
			continue
		}
		if place, ok := e.val.(string); ok && place != "" {
			return strings.EqualFold(strings.TrimSpace(place), home) || strings.HasSuffix(strings.ToLower(place), ", "+home)
		}
	}
	return false
}

// usualAddressWords name a list of the addresses an account usually or
// knowingly signs in from, as normKey folds its key (usualPublicIPs,
// known_ips, baseline_source_addresses).
var usualAddressWords = []string{"usual", "known", "baseline", "typical", "trusted", "frequent"}

// readVirtualDesktop reads a session whose operating system is a
// multi-session edition of Windows, licensed only for Azure Virtual
// Desktop: the organisation's own virtual desktop pool, whose Azure
// address is its egress however far it sits from the user's laptop.
func readVirtualDesktop(f *IdentityFields, d *doc) {
	for _, s := range d.scalarStrs("operatingsystem", "os", "osversion", "deviceos", "platform") {
		if strings.Contains(strings.ToLower(s), "multi-session") {
			f.CorporateEgress, f.KnownNetwork = true, true
			return
		}
	}
}

// readCognitoFeedback reads Amazon Cognito's advanced security record of
// a sign-in: the user's own feedback on the event ("Invalid" from the
// user is "this was not me") and a password Cognito found among
// compromised credentials.
func readCognitoFeedback(f *IdentityFields, d *doc) {
	for _, m := range d.maps("eventfeedback") {
		feedback := newDoc(m)
		if strings.EqualFold(feedback.str("feedbackvalue"), "invalid") && strings.EqualFold(feedback.str("provider"), "user") {
			f.UserReported = true
		}
	}
	if v, ok := d.boolean("compromisedcredentialsdetected"); ok && v {
		f.LeakedCredentials = true
	}
}

// readDenyListedAddress reads Auth0's UntrustedIP assessment: an address
// found on a deny list whose category is anonymisers (FireHOL's) is an
// anonymising network.
func readDenyListedAddress(f *IdentityFields, d *doc) {
	for _, m := range d.maps("untrustedip") {
		if code, _ := m["code"].(string); code != "found_on_deny_list" {
			continue
		}
		details, _ := m["details"].(map[string]any)
		if category, _ := details["category"].(string); containsAnyTerm(strings.ToLower(category), "anonymi", "proxy") {
			f.Anonymizer = true
		}
	}
}

// unusualAddressWords contain a usual word and say the opposite (Auth0's
// UntrustedIP assessment, an unknown_ips list).
var unusualAddressWords = []string{"untrusted", "nottrusted", "unknown", "notknown", "unusual", "atypical", "infrequent"}

// usualAddress reports whether ip is among the addresses the payload
// lists as the account's usual ones.
func usualAddress(ip string, d *doc) bool {
	if ip == "" {
		return false
	}
	for _, e := range d.entries {
		if !containsAnyTerm(e.key, usualAddressWords...) || !containsAnyTerm(e.key, "ip", "address") || containsAnyTerm(e.key, "country", "city") || containsAnyTerm(e.key, unusualAddressWords...) {
			continue
		}
		for _, s := range appendLeafStrings(nil, e.val, 0) {
			if strings.TrimSpace(s) == ip {
				return true
			}
		}
	}
	return false
}
