package triage

import (
	"math"
	"net/netip"
	"regexp"
	"strings"
)

// legacyClients are client apps and protocols that authenticate with a bare
// password and so cannot be challenged for MFA (Entra clientAppUsed values,
// Okta and Google protocol names, generic wording).
var legacyClients = []string{
	"exchangeactivesync", "imap", "pop3", "pop", "smtp", "authenticatedsmtp", "otherclients",
	"exchangewebservices", "mapioverhttp", "offlineaddressbook", "autodiscover", "legacy",
	"basicauth", "basicauthentication", "lesssecureapp", "ntlm", "exchangeonlinepowershell",
	"reportingwebservices", "universaloutlook", "outlookanywhere", "bav2ropc",
}

// hostingProviders are ISP or ASN organisation names of hosting and cloud
// providers: people sign in from homes, offices and mobile carriers, so a
// sign-in from a data centre usually means a script, proxy or VPS.
var hostingProviders = []string{
	"amazon", "aws", "digitalocean", "ovh", "hetzner", "linode", "akamai connected cloud", "vultr", "choopa",
	"m247", "leaseweb", "contabo", "google cloud", "microsoft azure", "alibaba", "tencent cloud",
	"oracle cloud", "scaleway", "datacamp", "hostinger", "ionos", "colocrossing", "hosting", "datacenter",
	"data center", "vps", "server", "cloud",
}

// readIdentityFields reads the identity fields of one sign-in payload.
func readIdentityFields(raw map[string]any) IdentityFields {
	return readSignInFields(signInDocs(raw))
}

// networkOwner is name unless it is an opaque identifier: a directory's
// `organization` is often its own tenant id (JumpCloud's 24 hex digits, a
// UUID), not the network the sign-in came from.
func networkOwner(name string) string {
	if len(name) >= 16 && isHexString(strings.ReplaceAll(name, "-", "")) {
		return ""
	}
	return name
}

// readSignInFields reads the identity fields from a sign-in already
// indexed by signInDocs.
func readSignInFields(cur, prev *doc) IdentityFields {
	f := IdentityFields{
		User:      cur.firstOf("userprincipalname", "alternateid", "username", "user", "email", "upn", "accountname", "principal", "login", "actor"),
		SourceIP:  sourceAddress(cur),
		Country:   cur.str(countryKeys...),
		City:      cur.str("city", "cityname"),
		ASN:       cur.str("asn", "asnumber", "autonomoussystemnumber", "asnnumber", "accessingasn"),
		ISP:       networkOwner(cur.firstOf("isp", "asorg", "asnorg", "asorganization", "autonomoussystemorganization", "organization", "networkname")),
		DeviceID:  cur.str("deviceid", "deviceidentifier", "managedeviceid"),
		ClientApp: cur.str("clientappused", "clientapp", "authenticationprotocol", "protocol", "authprotocol", "authmethod", "authenticationmethod", "logintype", "credentialtype", "logontype"),
		RiskLevel: strings.ToLower(cur.str("risklevelduringsignin", "risklevel", "risklevelaggregated", "level")),
		Event:     strings.ToLower(cur.firstOf("eventtype", "eventname", "name", "operation", "activitydisplayname")),
	}
	if lat, lon, ok := coords(cur); ok {
		f.HasGeo, f.Lat, f.Lon = true, lat, lon
	}
	netText := lowerJoin(cur.strs(networkKeys...))
	riskText := lowerJoin(cur.strs(riskListKeys...))
	riskCompact := normKey(riskText)
	if v, ok := cur.boolean("istor", "tor", "torexitnode", "istorexitnode"); ok && v || containsTerm(netText, "tor") || containsTerm(riskText, "tor") || torExit(f.SourceIP, signInASN(cur)) {
		f.Tor, f.Anonymizer = true, true
	}
	if anonymisingInfra(cur, netText, riskCompact) != "" {
		f.Anonymizer = true
	}
	if v, ok := cur.boolean("isproxy", "isvpn", "isanonymous", "anonymousproxy"); ok && v {
		f.Anonymizer = true
	}
	f.PrivacyRelay = strings.Contains(cur.compactText(), "privaterelay") || f.Anonymizer && appleRelayEgress(f.SourceIP, cur)
	if v, ok := cur.boolean("ishosting", "isdatacenter", "hosting", "datacenter"); ok && v {
		f.Hosting = true
	} else if isp := strings.ToLower(f.ISP + " " + cur.str("usagetype", "domain", "connectiontype") + " " + addressNote(cur, f.SourceIP)); firstSubstring(isp, hostingProviders) != "" || containsTerm(netText, "hosting") || containsTerm(isp, "hosting") {
		f.Hosting = true
	}
	if f.ASN == "" {
		f.ASN = signInASN(cur)
	}
	if hostingASN(f.ASN) {
		f.Hosting = true
	}

	f.DeviceNew, f.DeviceKnown = deviceState(cur)
	readOktaBehaviors(&f, cur)
	// The client app is read apart from the protocol: Entra names both
	// (clientAppUsed "IMAP4", authenticationProtocol "ropc"), and Exchange
	// Online's basic-to-ROPC bridge signs its user agent BAV2ROPC.
	app := normKey(f.ClientApp + " " + cur.str("clientappused") + " " + cur.str("useragent", "rawuseragent") + " " + cur.str("logintype"))
	if v, ok := cur.boolean("legacyauth", "islegacyauth", "basicauth", "islegacyprotocol"); ok {
		f.LegacyAuth = v
	} else if firstSubstring(app, legacyClients) != "" || containsAnyTerm(normKey(riskText), "legacyauth", "basicauth") || strings.Contains(cur.text, "/microsoft-server-activesync") {
		// Exchange's web log names the ActiveSync endpoint a phone polls.
		f.LegacyAuth = true
	}

	// A mailbox rule or setting that forwards mail away or hides it is how
	// intruders keep reading an account (Graph mailbox configuration
	// evidence, Exchange audit parameters; see readMailRule).
	rule := readMailRule(cur)
	if len(cur.strs("forwardingtargets", "forwardingsmtpaddress", "forwardto", "redirectto", "chainaccountchange")) > 0 || rule.divertsMail() {
		f.AccountTamper = true
	}
	readOutcome(&f, cur)
	readMFA(&f, cur, riskCompact)
	// A user's "this was not me" answer to a prompt is a risk detection
	// of its own (Entra mfaFraud).
	if strings.Contains(riskCompact, "mfafraud") {
		f.MFA = "fraud"
	}
	if n, ok := cur.number("failedattempts", "failedlogins", "failedloginattempts", "failurecount", "failedcount", "failedattemptsbeforesuccess", "consecutivefailures", "failures", "failure"); ok {
		f.FailedAttempts = int(n)
	}
	// Aggregated detections (SIEM correlation searches) count outcomes
	// instead of reporting one: any success among them is access gained.
	if n, ok := cur.number("successcount", "successes", "success", "successfulattempts", "successfullogins", "successfulauthentications"); ok && f.FailedAttempts > 0 {
		switch {
		case n >= 1:
			f.Result = "success"
		case f.Result == "":
			// A summary that counted failures and no success: every
			// attempt it aggregates failed.
			f.Result = "failure"
		}
	}
	// Providers name Tor in free text as often as in a flag.
	if containsAnyTerm(cur.text, "tor exit", "tor node", "tor anonymizer", "tor network", "onion router") {
		f.Tor, f.Anonymizer = true, true
	}
	if n, ok := cur.number("targetedusers", "distinctusers", "uniqueusers", "usercount", "accountstargeted", "targetedaccounts", "distinctusersattempted", "distinctaccountsattempted"); ok {
		f.TargetedUsers = int(n)
	}
	if prev != nil {
		f.PrevCountry = prev.str(countryKeys...)
		lat0, lon0, okp := coords(prev)
		t0, ok0 := eventTime(prev)
		t1, ok1 := eventTime(cur)
		if okp && f.HasGeo && ok0 && ok1 {
			f.TravelKm = math.Round(haversineKm(lat0, lon0, f.Lat, f.Lon))
			hours := math.Max(math.Abs(t1.Sub(t0).Hours()), 1.0/60)
			f.TravelKmh = math.Round(f.TravelKm / hours)
		}
		if ip := prev.str("ipaddress", "ip", "clientip", "sourceip"); ip != "" && ip == f.SourceIP {
			f.KnownNetwork = true
		}
	}
	if v, ok := cur.boolean("knownnetwork", "knownip", "iscorporatenetwork", "corporatenetwork", "trustednetwork", "isknownip", "trustedlocation", "namedlocation", "iscompliantnetwork"); ok && v {
		f.KnownNetwork = true
	}
	if loc := normKey(cur.str("networklocation", "networklocationdetails", "networktype", "namedlocationtype")); strings.Contains(loc, "trusted") || strings.Contains(loc, "corporate") {
		f.KnownNetwork = true
	}
	if corporateEgress(cur, netText) || gatewayASNs[asnText(f.ASN)] || oktaNetworkZone(cur) != "" || !f.Anonymizer && !f.Hosting && networkOwnedByUsersOrg(cur, f.User) {
		f.CorporateEgress, f.KnownNetwork = true, true
	}
	travelRisk := riskCompact + " " + normKey(cur.str("title", "alertname", "searchname", "rulename"))
	f.ImpossibleTravel = impossibleTravel(cur, prev, travelRisk) != ""
	if v, ok := cur.boolean("expectedtravel", "travelnotified", "approvedtravel", "travelapproved", "registeredtravel"); ok && v {
		f.ExpectedTravel = true
	}
	if v, ok := cur.boolean("newcountry", "firsttimecountry", "countryfirstseen", "firstcountrysignin", "isfirstcountry", "newcountryforuser"); ok && v {
		f.NewCountry = true
	}
	if containsAnyTerm(cur.text, "first sign-in from this country", "first sign in from this country", "first time from this country", "first login from this country", "first seen from this country") {
		f.NewCountry = true
	}
	if containsAnyTerm(riskCompact, "newcountry", "unfamiliarfeatures", "unfamiliarlocation") {
		f.NewCountry = true
	}
	usual := &evidence{}
	if !scoreUsualLocation(usual, cur) && len(usual.signals) > 0 {
		f.UsualLocation = true
	}
	f.SelfService = containsAnyTerm(normKey(f.Event+" "+cur.str("category", "operationname", "activity")), "selfservice", "resetpassword", "updatepassword", "passwordchange", "factoractivate", "mfaregistration", "registersecurityinfo", "enrollfactor",
		// Google's login audit: password_edit, 2sv_enroll, passkey_enrolled.
		"passwordedit", "2svenroll", "passkeyenrolled")
	f.EmergencyAccess = emergencyAccount(cur)
	f.Admin = privileged(cur) != "" || f.EmergencyAccess
	f.ServiceAccount = serviceAccount(f.User)
	f.PasswordChanged = passwordChanged(cur)
	// Reason codes come in snake case ("excessive_downloads").
	f.BulkDownload = bulkDownloadRe.MatchString(strings.ReplaceAll(cur.text, "_", " "))
	f.ScriptedClient = scriptedClient(cur)
	if ip, err := netip.ParseAddr(f.SourceIP); err == nil {
		f.InternalSource = ip.IsPrivate() || ip.IsLoopback()
	}
	caller := strings.ToLower(cur.str("callerprocessname", "processname", "process", "callingprocess"))
	f.InstalledCaller = installedProgramPath(caller)
	readWindowsLogon(&f, cur)
	readIdentityEvents(&f, cur, rule)
	return f
}

var bulkDownloadRe = regexp.MustCompile(`\b(mass|bulk|unusual(ly)? large|excessive) (file )?download|massdownload|downloaded \d{2,} files|multiple file downloads?`)

// serviceAccount reports a service, automation or machine account by its
// name: a "svc" or "service" token at either end ("svc_backup",
// "reports-service"), or a Windows machine account ("HOST$").
func serviceAccount(user string) bool {
	u := strings.ToLower(user)
	if at := strings.IndexByte(u, '@'); at > 0 {
		u = u[:at]
	}
	if i := strings.LastIndexAny(u, `\/`); i >= 0 {
		u = u[i+1:]
	}
	if strings.HasSuffix(u, "$") {
		return true
	}
	toks := strings.FieldsFunc(u, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	if len(toks) == 0 {
		return false
	}
	first, last := toks[0], toks[len(toks)-1]
	return strings.HasPrefix(first, "svc") || first == "srv" || first == "service" || last == "svc" || last == "service"
}

// readWindowsLogon reads the outcome of Windows security log sign-in
// events, which SIEM notables forward by event ID: 4624 is a logon,
// 4625, 4771 and 4776 with a non-zero status are failures.
func readWindowsLogon(f *IdentityFields, cur *doc) {
	id := cur.str("eventcode", "eventid", "signatureid")
	switch id {
	case "4625", "4771":
		f.Result = "failure"
	case "4624":
		f.Result = "success"
	}
	if n, ok := cur.number("successcount", "successes"); ok && n == 0 && id != "" {
		f.Result = "failure"
	}
}

// sourceAddress returns the sign-in's source address. A bare number is
// not one: a SIEM's count named for the source ("distinct users failed
// same src 60m") can be indexed under the same short name.
func sourceAddress(cur *doc) string {
	// A VPN record names the tunnel's private address beside the public
	// one the client came from (GlobalProtect's public_ip).
	if s := strings.TrimSpace(cur.str("publicip")); s != "" {
		return s
	}
	for _, s := range cur.strs("ipaddress", "clientip", "sourceip", "srcip", "callerip", "ip", "src", "remoteip", "remip", "accessingip", "accessip", "failedlogonsrcips", "srcips", "sourceips") {
		if s = strings.TrimSpace(s); s != "" && strings.Trim(s, "0123456789") != "" {
			return s
		}
	}
	return ""
}

// readOktaBehaviors reads Okta's behaviour detections, which arrive as
// text such as "{New Device=POSITIVE, New IP=NEGATIVE}".
func readOktaBehaviors(f *IdentityFields, cur *doc) {
	b := normKey(oktaBehaviorText(cur))
	if b == "" {
		return
	}
	if strings.Contains(b, "newdevicepositive") {
		f.DeviceNew, f.DeviceKnown = true, false
	} else if strings.Contains(b, "newdevicenegative") {
		f.DeviceKnown = true
	}
	// "New Geo-Location" is any new city; an explicit "New Country"
	// verdict says whether the country is new.
	if strings.Contains(b, "newcountrypositive") || strings.Contains(b, "newgeolocationpositive") && !strings.Contains(b, "newcountrynegative") {
		f.NewCountry = true
	}
	if strings.Contains(b, "newipnegative") {
		f.KnownNetwork = true
	}
	if strings.Contains(b, "velocitypositive") {
		f.TravelKmh = math.Max(f.TravelKmh, 1000)
	}
}

// signInSuccessEvents and signInFailureEvents are Windows Security and
// AD FS event IDs that record a sign-in's outcome: a logon (4624), a
// token issued (AD FS 1200, 1202); a failed logon (4625), Kerberos
// pre-authentication failed (4771), an account locked out (4740), AD FS
// authentication failed (1203).
var (
	signInSuccessEvents = setOf("4624", "1200", "1202")
	signInFailureEvents = setOf("4625", "4771", "4740", "1203")
)

// readOutcome folds the sign-in result: Entra status.errorCode (0 is
// success), Okta outcome.result, Google event names and generic fields.
func readOutcome(f *IdentityFields, cur *doc) {
	// A lockout event's own outcome is the lock succeeding: the sign-ins
	// before it failed (Okta user.account.lock with reason LOCKED_OUT).
	if strings.Contains(f.Event, "account.lock") || normKey(cur.str("reason")) == "lockedout" {
		f.Result = "failure"
		return
	}
	// A log search names the Windows or AD FS event it matched: the event
	// says how the sign-in ended.
	switch code := windowsEventCode(cur); {
	case signInSuccessEvents[code]:
		f.Result = "success"
		return
	case signInFailureEvents[code]:
		f.Result = "failure"
		return
	}
	if vpnOutcome(f, cur) {
		return
	}
	if code, ok := cur.number("errorcode"); ok {
		if code == 0 {
			f.Result = "success"
		} else {
			f.Result = "failure"
			f.PasswordAccepted = passwordAccepted(cur, int(code))
		}
		return
	}
	switch {
	case strings.Contains(f.Event, "login_success") || strings.Contains(f.Event, "consolelogin") && strings.Contains(normKey(cur.str("consolelogin")), "success"):
		f.Result = "success"
		return
	case strings.Contains(f.Event, "login_failure"):
		f.Result = "failure"
		return
	}
	if loginSucceeded(cur) {
		// A log search's "result" is the whole matching event, which says
		// nothing of the outcome by being there.
		if cur.has(outcomeKeys...) || cur.has("success", "loginsuccess", "succeeded", "issuccess", "authenticationsuccessful") || scalarResult(cur) {
			f.Result = "success"
		}
	} else {
		f.Result = "failure"
	}
}

// pushCountKeys and pushDeniedKeys (folded) count the MFA prompts sent
// and the ones the user denied.
var (
	pushCountKeys  = []string{"mfapushes", "mfapushcount", "pushcount", "mfaprompts", "mfarequests", "pushrequests", "mfaattempts"}
	pushDeniedKeys = []string{"mfadenied", "mfadenials", "mfadeniedcount", "deniedpushes", "pushesdenied", "pushdenied", "pushdeniedcount", "deniedpushcount", "mfarejected", "rejectedpushes", "mfadeniedpushes"}
)

// pushFatigueNamed reports a payload that names MFA fatigue itself: a
// flag for it, or the provider's risk text ("MFA fatigue", Duo's "push
// harassment").
func pushFatigueNamed(cur *doc, riskCompact string) bool {
	if v, ok := cur.boolean("mfafatigue", "pushfatigue", "pushbombing", "mfabombing", "mfaspam", "pushharassment"); ok && v {
		return true
	}
	return containsAnyTerm(riskCompact, "mfafatigue", "pushfatigue", "mfaspam", "pushspam", "pushbombing", "pushharassment")
}

func readMFA(f *IdentityFields, cur *doc, riskCompact string) {
	if n, ok := cur.number(pushCountKeys...); ok {
		f.PushCount = int(n)
	}
	if n, ok := cur.number(pushDeniedKeys...); ok {
		f.PushDenied = int(n)
	}
	if pushFatigueNamed(cur, riskCompact) {
		f.PushCount = max(f.PushCount, 10)
	}
	text := lowerJoin(cur.strs(append(mfaResultKeys, "authenticationstepresultdetail", "additionaldetails", "authenticationrequirement", "mfadetail", "factorresult", "loginchallengemethod")...))
	compact := normKey(text)
	switch {
	case strings.Contains(compact, "fraud"):
		f.MFA = "fraud"
	case strings.Contains(compact, "denied") || strings.Contains(compact, "declined") || strings.Contains(compact, "rejected"):
		f.MFA = "denied"
	case mfaPassed(cur, text) || strings.Contains(compact, "mfarequirementsatisfied") || strings.Contains(compact, "multifactorauthentication"):
		f.MFA = "passed"
	case strings.Contains(compact, "singlefactorauthentication") || strings.Contains(compact, "notrequired"):
		f.MFA = "not_required"
	case strings.Contains(compact, "fail") || strings.Contains(compact, "timeout"):
		f.MFA = "failed"
	}
	f.SingleFactor = strings.Contains(compact, "singlefactorauthentication")
	// Okta names a session opened on the password alone.
	if normKey(cur.str("factor")) == "passwordasfactor" {
		f.SingleFactor = true
		if f.MFA == "" {
			f.MFA = "not_required"
		}
	}
	// JumpCloud states whether the login used MFA as a flag.
	if v, ok := cur.boolean("mfa", "mfaused", "usedmfa"); ok && !v && f.MFA == "" {
		f.SingleFactor, f.MFA = true, "not_required"
	}
}

// corporateGateways are cloud security gateways that organisations route
// their own staff through; their egress addresses move around the world
// with the gateway's nodes, the usual cause of false impossible travel.
var corporateGateways = []string{"zscaler", "netskope", "forcepoint", "iboss", "menlo security", "prisma access", "umbrella secure internet gateway"}

// gatewayASNs are the autonomous systems of those gateways' egress
// nodes, for records that give the network's number alone: Zscaler
// (53813, 62044) and Netskope (55256).
var gatewayASNs = setOf("53813", "62044", "55256")

// networkCategoryKeys name where a SIEM's asset or network lookup files the
// category of a source address (src_category, ip_category).
var networkCategoryKeys = []string{"srccategory", "sourcecategory", "ipcategory", "networkcategory", "srcipcategory"}

// corporateEgress reports a sign-in through the organisation's own network
// path: a named (trusted) location of the identity provider, or a cloud
// security gateway the organisation routes its users through. A plain
// named network is not enough: named locations also list countries and
// ranges that are blocked.
func corporateEgress(cur *doc, netText string) bool {
	for _, t := range cur.strs("networktype", "networklocationtype") {
		if normKey(t) == "trustednamedlocation" {
			return true
		}
	}
	for _, c := range cur.strs(networkCategoryKeys...) {
		// An asset category may name the gateway itself ("zscaler_zen_egress").
		if k := normKey(c); containsAnyTerm(k, "corporateproxy", "corporateegress", "corporatenetwork", "trustednetwork", "companyproxy") || firstSubstring(strings.ToLower(c), corporateGateways) != "" {
			return true
		}
	}
	names := strings.ToLower(netText + " " + lowerJoin(cur.strs("isp", "asorg", "asnorg", "organization", "networknames", "networkname", "tags", "asn", "srcasn", "sourceasn", "asname")))
	return firstSubstring(names, corporateGateways) != ""
}

// networkOwnedByUsersOrg reports an address whose network record (its
// ISP, AS organisation or registered name) names the user's own
// organisation: the company's own office or VPN range, as the provider's
// IP intelligence sees it. The organisation is the second-level label of
// the user's e-mail domain, five letters at least, never a free-mail one,
// and the record must start with it and name no hosting business: a
// "Digital" company is no owner of DigitalOcean. Callers skip addresses
// already read as anonymising or hosting.
func networkOwnedByUsersOrg(cur *doc, user string) bool {
	domain := registrableDomain(strings.ToLower(emailDomain(user)))
	org := normKey(secondLevel(domain))
	if len(org) < 5 || freeMailDomains[domain] {
		return false
	}
	for _, name := range cur.strs("isp", "asorg", "asnorg", "asname", "ispname", "asnorganization") {
		if strings.HasPrefix(normKey(name), org) && firstSubstring(strings.ToLower(name), hostingProviders) == "" && !containsAnyTerm(strings.ToLower(name), "hosting", "cloud", "vps", "datacenter", "data center") {
			return true
		}
	}
	return false
}

// scriptedAgents are user-agent prefixes of HTTP libraries and command-line
// tools: no person signs in through them, but phishing proxies and
// credential-stuffing scripts do.
var scriptedAgents = []string{"axios/", "python-requests/", "python-urllib/", "go-http-client/", "curl/", "wget/", "node-fetch/", "undici", "aiohttp/", "java/", "libwww-perl/", "httpclient", "postmanruntime/", "powershell/", "rclone/"}

// scriptedClient reports a scripted user agent anywhere in d.
func scriptedClient(d *doc) bool {
	for _, ua := range d.strs("rawuseragent", "useragentstring", "useragent") {
		if scriptedUserAgent(ua) {
			return true
		}
	}
	return false
}

func scriptedUserAgent(ua string) bool {
	u := strings.ToLower(strings.TrimSpace(ua))
	for _, p := range scriptedAgents {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// scalarResult reports whether the payload has a "result" that is a value
// (a string, a flag) rather than an object or a list.
func scalarResult(cur *doc) bool {
	for _, v := range cur.values("result") {
		switch v.(type) {
		case string, bool, float64:
			return true
		}
	}
	return false
}
