package triage

import (
	"regexp"
	"sort"
	"strings"
)

// normalize maps an incident onto Fields. The family is detected from the
// payload's own structure first, since callers often label alerts "alert"
// or "generic", then from the incident type; every family's fields are
// filled best-effort, so a rule can use whatever the payload told.
func normalize(inc Incident, ind Indicators) Fields {
	f, _ := normalizeSignIn(inc, ind)
	return f
}

// normalizeSignIn is normalize that also returns the sign-in view the
// identity fields were read from (nil when the alert was not read as a
// sign-in), so the login analysis does not fold an event chain again.
func normalizeSignIn(inc Incident, ind Indicators) (Fields, map[string]any) {
	d := newDoc(inc.RawData)
	f := Fields{}
	f.Shape, f.Format = detectShape(inc.RawData, d)
	if f.Shape == "" && dataLossIncident(inc.IncidentType) && d.has(dlpEvidenceKeys...) {
		// A data-loss alert from a product whose payload is not
		// recognised: the caller's type and a file, destination or
		// policy in the payload make it one.
		f.Shape = "dlp"
	}
	_, f.Severity = incidentSeverity(inc, d)
	f.Alert = readAlert(d)
	if m := d.str("model"); f.Format == "trend_workbench" && m != "" {
		// A Workbench alert is titled by the detection model that raised it.
		f.Alert.Title = m
	}
	var signIn map[string]any
	family := fieldFamily(f.Shape, inc.IncidentType)
	switch family {
	case "email":
		f.Email = readEmailFields(d, ind)
		f.Alert.SecurityTesting = f.Alert.SecurityTesting || f.Email.SimulationInfrastructure
	case "endpoint":
		f.Endpoint = readEndpointFields(d, ind)
		if f.Alert.ExerciseAsset == "" && exerciseHost(f.Endpoint.Host) {
			f.Alert.ExerciseAsset = f.Endpoint.Host
			f.Alert.SecurityTesting = true
		}
	case "identity":
		signIn = signInView(inc.RawData)
		f.Identity = readIdentity(signIn, d)
		readDisabledAccount(&f.Identity, d, f.Alert.Text)
	case "dlp":
		f.Data = readDataFields(d)
	}
	if (family == "dlp" || family == "") && (sessionDownloadAlert(f.Alert) || privilegeGrantEvent(d)) {
		// A cloud-app session that downloaded in bulk (Defender for
		// Cloud Apps' mass download), or a directory audit record of a
		// role handed out, is judged by who acted and from where, as a
		// sign-in is.
		signIn = signInView(inc.RawData)
		f.Identity = readIdentity(signIn, d)
	}
	readInfrastructure(&f, inc.RawData, d, family)
	f.MailRule = readMailRule(d)
	f.Consent = readAppConsent(d)
	return f, signIn
}

// sessionDownloadAlert reports an alert about a user's session
// downloading in bulk, by its title ("Mass download by a single user").
func sessionDownloadAlert(a AlertFields) bool {
	return bulkDownloadRe.MatchString(strings.ReplaceAll(strings.ToLower(a.Title), "_", " "))
}

// privilegeGrantEvent reports a directory audit record whose operation
// hands out a role (see privilegeGrantEvents).
func privilegeGrantEvent(d *doc) bool {
	names := normKey(lowerJoin(d.scalarStrs("activitydisplayname", "operationname", "eventtype", "operation")))
	return firstSubstring(names, privilegeGrantEvents) != ""
}

// fieldFamily is the family whose fields are read: the detected shape, or
// the one the incident type names when no shape was detected.
func fieldFamily(shape, incidentType string) string {
	switch shape {
	case "email", "endpoint", "identity", "dlp":
		return shape
	}
	switch incidentKind(incidentType) {
	case kindPhishing:
		return "email"
	case kindMalware:
		return "endpoint"
	case kindLogin:
		return "identity"
	}
	if dataLossIncident(incidentType) {
		return "dlp"
	}
	return ""
}

// dlpEvidenceKeys are fields a data-loss alert carries: what moved, where
// to, under which policy.
var dlpEvidenceKeys = []string{"destination", "file", "filename", "files", "policy", "policyname", "channel", "dataset", "classifiers", "matchcount", "sensitivedata", "sensitiveinfotypes"}

// dataLossIncident reports an incident type that names data loss or
// insider risk ("dlp", "data_loss", "Data Loss Prevention", "insider risk
// alert"): a DLP alert from a product whose payload shape is not
// recognised still carries a file, a destination and a policy to read.
func dataLossIncident(t string) bool {
	k := normKey(t)
	return k == "dlp" || strings.HasPrefix(k, "dataloss") || strings.HasPrefix(k, "dlp") || strings.HasPrefix(k, "insiderrisk") || k == "dataexfiltration" || k == "dataleak" || k == "dataleakage"
}

// readIdentity reads the sign-in the alert is about from signIn, the
// payload's sign-in view (see signInView), then what only the whole
// payload d tells: workload sign-ins across its events, a scripted client
// in any of them, a leaked password warning anywhere in it.
func readIdentity(signIn map[string]any, d *doc) IdentityFields {
	cur, prev := signInDocs(signIn)
	f := readSignInFields(cur, prev)
	f.Workload, f.WorkloadCountries = workloadSignIn(d)
	f.WorkloadSecret = f.Workload && workloadSecret(d)
	f.WorkloadNewCredential = f.Workload && workloadNewCredential(d)
	// A phishing proxy relays the password and the second factor with an
	// HTTP library, then a later event of the chain (a token refresh, a
	// device registration) carries another client's name.
	f.ScriptedClient = f.ScriptedClient || scriptedClient(d)
	f.LeakedCredentials = f.LeakedCredentials || containsAnyTerm(d.compactText(), "leakedcredentials", "passwordleak", "breachedcredential", "breachedpassword", "leakedpassword")
	readCorrelatedContext(&f, signIn)
	if f.PrivilegeGrant {
		readRoleGrant(&f, d)
	}
	readReportsAndTokens(&f, d)
	readGuessingWording(&f, cur)
	readSSHDLog(&f, d)
	readOutcomeWording(&f, cur)
	readFamiliarity(&f, cur)
	readDenyListedAddress(&f, cur)
	readCognitoFeedback(&f, d)
	readVirtualDesktop(&f, d)
	readConsoleSignIn(&f, d)
	readTravelRecord(&f, d)
	return f
}

// shapeKind maps a detected shape to the analyzer kind.
func shapeKind(shape string) string {
	switch shape {
	case "email":
		return kindPhishing
	case "endpoint":
		return kindMalware
	case "identity":
		return kindLogin
	}
	return ""
}

// formatProbe recognises one vendor format by keys only its payloads carry.
type formatProbe struct {
	format, shape string
	all           []string // normalised keys that must all be present at any depth
}

// formatProbes are tried in order; the first whose keys are all present
// wins. Key sets come from the vendors' documented schemas.
var formatProbes = []formatProbe{
	{"purview_dlp", "dlp", []string{"dlpdetails"}},
	{"purview_dlp", "dlp", []string{"sensitiveinfotypes"}},
	{"purview_dlp", "dlp", []string{"policydetails", "sensitiveinformationtypename"}},
	{"netskope_dlp", "dlp", []string{"dlpprofile"}},
	{"google_dlp", "dlp", []string{"matcheddetectors"}},
	{"google_dlp", "dlp", []string{"ruleviolationinfo"}},
	{"purview_dlp", "dlp", []string{"sensitiveinfotypedata"}},
	{"zscaler_dlp", "dlp", []string{"dlpengine"}},
	{"zscaler_dlp", "dlp", []string{"dlpdictionaries"}},
	{"proofpoint_tap", "email", []string{"threatsinfomap"}},
	{"proofpoint_tap", "email", []string{"messageparts", "fromaddress"}},
	{"defender_email", "email", []string{"networkmessageid", "senderfromaddress"}},
	{"defender_email", "email", []string{"senderfromaddress", "deliveryaction"}},
	{"mimecast", "email", []string{"senderaddress", "recipientaddress"}},
	{"mimecast", "email", []string{"impersonationresults"}},
	{"mimecast", "email", []string{"clicklogs", "fromuseremailaddress"}},
	{"mimecast", "email", []string{"ttpdefinition", "subject"}},
	{"graph_email", "email", []string{"analyzedmessageevidence"}},
	{"cisco_esa", "email", []string{"esamid"}},
	{"abnormal", "email", []string{"abxmessageid"}},
	{"checkpoint_harmony", "email", []string{"entitysecurityresult"}},
	{"barracuda_egd", "email", []string{"hdrfrom", "envfrom"}},
	{"gws_alertcenter", "email", []string{"maliciousentity", "messages"}},
	{"entra_signin", "identity", []string{"userprincipalname", "clientappused"}},
	{"entra_signin", "identity", []string{"userprincipalname", "appdisplayname", "ipaddress"}},
	{"entra_signin", "identity", []string{"riskleveldursignin"}},
	{"entra_signin", "identity", []string{"serviceprincipalid", "ipaddress"}},
	{"okta", "identity", []string{"actor", "client", "outcome", "eventtype"}},
	{"okta", "identity", []string{"authenticationcontext", "securitycontext"}},
	{"google_login", "identity", []string{"applicationname", "events", "actor"}},
	{"onelogin", "identity", []string{"eventtypeid", "ipaddr"}},
	{"pingone_protect", "identity", []string{"riskpolicyset"}},
	{"fortigate_vpn", "identity", []string{"remip", "tunneltype"}},
	{"duo", "identity", []string{"accessdevice", "factor"}},
	{"duo", "identity", []string{"surfacedauth"}},
	{"jumpcloud_insights", "identity", []string{"initiatedby", "clientip", "eventtype", "success"}},
	{"globalprotect", "identity", []string{"publicip", "privateip", "stage", "authmethod"}},
	{"salesforce_login", "identity", []string{"logintype", "sourceip", "status"}},
	{"jamf_protect", "endpoint", []string{"caid", "match", "eventtype"}},
	{"crowdstrike", "endpoint", []string{"behaviors", "device"}},
	{"crowdstrike", "endpoint", []string{"detectid"}},
	{"crowdstrike", "endpoint", []string{"patterndisposition"}},
	{"sentinelone", "endpoint", []string{"threatinfo"}},
	{"sentinelone", "endpoint", []string{"agentdetectioninfo"}},
	{"defender_endpoint", "endpoint", []string{"processcommandline"}},
	{"defender_endpoint", "endpoint", []string{"initiatingprocessfilename"}},
	{"sysmon", "endpoint", []string{"parentimage", "commandline"}},
}

// detectShape names the alert family and vendor format. Formats without a
// fixed family (Graph security alerts, GuardDuty, Splunk notables) are told
// apart by their category, type or security domain.
func detectShape(raw map[string]any, d *doc) (shape, format string) {
	keys, filled := map[string]bool{}, map[string]bool{}
	for _, e := range d.entries {
		keys[e.key] = true
		if e.val != nil && e.val != "" {
			filled[e.key] = true
		}
	}
	for _, p := range formatProbes {
		ok := true
		for _, k := range p.all {
			if !keys[k] {
				ok = false
				break
			}
		}
		if ok {
			if p.format == "okta" && !oktaEvent(d) {
				continue
			}
			if p.format == "crowdstrike" && oktaEvent(d) {
				continue
			}
			if p.shape == "dlp" && !dlpProbeHit(d, p.all) {
				continue
			}
			return p.shape, p.format
		}
	}
	if keys["schemaversion"] && keys["service"] && (keys["resource"] || keys["accountid"]) {
		return guardDutyShape(d.str("type")), "guardduty"
	}
	if keys["securitydomain"] || keys["searchname"] && keys["urgency"] {
		switch strings.ToLower(d.str("securitydomain")) {
		case "access", "identity":
			return "identity", "splunk_notable"
		case "endpoint":
			return "endpoint", "splunk_notable"
		case "email":
			return "email", "splunk_notable"
		}
	}
	if keys["impactscope"] && keys["indicators"] {
		return trendWorkbenchShape(d), "trend_workbench"
	}
	if keys["evidence"] && (keys["detectionsource"] || keys["servicesource"]) {
		return graphAlertShape(d), "graph_alert"
	}
	if keys["eventcode"] {
		code := strings.TrimSpace(d.scalarStr("eventcode"))
		switch {
		case signInEventCodes[code]:
			return "identity", ""
		case processEventCodes[code] || code == "1" && strings.Contains(strings.ToLower(d.str("source", "sourcetype")), "sysmon"):
			return "endpoint", ""
		}
	}
	// A log format that lists every field it could carry (PAN-OS names a
	// sender, subject and recipient on every threat record) is guessed
	// from the fields that hold something.
	return contentShape(filled), ""
}

// processEventCodes are the Windows event IDs of a program started or a
// script run, which a log search forwards by EventCode: process creation
// (4688), a PowerShell script block or module logged (4104, 4103), or
// persistence set up (persistenceEventIDs); Sysmon's process creation is
// event 1.
var processEventCodes = setOf(append([]string{"4688", "4104", "4103"}, persistenceEventIDs...)...)

// signInEventCodes are the Windows and AD FS event IDs of a sign-in or a
// credential check, which a log search forwards by EventCode: Windows
// logons (4624, 4625), explicit credentials (4648), Kerberos
// pre-authentication and NTLM validation failures (4771, 4776), lockouts
// (4740), and AD FS token issuance and credential validation (1200-1203,
// 411 for a bad password on the extranet, 342 for an extranet lockout).
var signInEventCodes = map[string]bool{
	"4624": true, "4625": true, "4648": true, "4740": true, "4771": true, "4776": true,
	"1200": true, "1201": true, "1202": true, "1203": true, "411": true, "342": true,
}

// contentShape guesses the family of an unrecognised payload from the
// fields it carries.
func contentShape(keys map[string]bool) string {
	has := func(names ...string) int {
		n := 0
		for _, k := range names {
			if keys[k] {
				n++
			}
		}
		return n
	}
	email := has("sender", "from", "subject", "recipients", "recipient", "replyto", "spf", "dmarc", "attachments", "urls", "senderaddress", "fromaddress", "mailfrom", "headerfrom", "toaddresses", "replytoemails", "spfverdict", "dmarcverdict", "emailauthentication", "senderdomain", "mailmessage")
	endpoint := has("commandline", "cmdline", "parentprocess", "parentimage", "processname", "sha256", "filepath", "hostnamefield", "detectname", "parentprocessname", "signer", "signername", "threatname", "processcommandline", "processcmdline", "parentname", "parentpath", "processexecutable", "parentcmdline", "parentcommandline", "actorprocessimagename", "actorprocesscommandline", "exe", "proctitle", "cwd", "ppid")
	identity := has("userprincipalname", "mfa", "mfaresult", "logintime", "failedattempts", "impossibletravel", "previouslogin", "knowndevice", "devicetrusted", "risklevel", "authmethod", "mfapushes", "loginresult", "usualcountries", "clientipaddress", "alternateid", "loginname", "otpdevicename", "riskevaluation", "mfarequired", "accountlocked", "authenticationfactor", "authenticationrequirement", "devicedetail", "networklocationdetails", "conditionalaccessstatus", "signinstatus", "priorsignin")
	// A firewall or IDS record of an SMTP session carries a sender and
	// subject too, but it is a network alert, not a message.
	flow := has("dport", "dstport", "destinationport", "destport") > 0 && has("recipient", "recipients", "toaddresses", "recipientaddress") == 0
	switch {
	case email >= 2 && email > endpoint && email > identity && !flow:
		return "email"
	case endpoint >= 2 && endpoint > identity:
		return "endpoint"
	case identity >= 2:
		return "identity"
	}
	return ""
}

// trendWorkbenchShape reads the family of a Trend Vision One Workbench
// alert from what its impact scope counts: hosts make it an endpoint
// alert, mailboxes alone an e-mail one, accounts alone an identity one.
func trendWorkbenchShape(d *doc) string {
	count := func(key string) float64 {
		n, _ := d.number(key)
		return n
	}
	switch {
	case count("desktopcount")+count("servercount") > 0:
		return "endpoint"
	case count("emailaddresscount") > 0:
		return "email"
	case count("accountcount")+count("cloudidentitycount") > 0:
		return "identity"
	}
	return ""
}

func guardDutyShape(typ string) string {
	t := strings.ToLower(typ)
	switch {
	case strings.Contains(t, "consolelogin") || strings.Contains(t, "iamuser") || strings.HasPrefix(t, "credentialaccess") || strings.HasPrefix(t, "initialaccess:iam"):
		return "identity"
	case strings.HasPrefix(t, "trojan") || strings.HasPrefix(t, "backdoor") || strings.HasPrefix(t, "cryptocurrency") || strings.HasPrefix(t, "execution") || strings.Contains(t, "runtime/"):
		return "endpoint"
	}
	return ""
}

func graphAlertShape(d *doc) string {
	for _, e := range d.strs("odatatype") {
		e = strings.ToLower(e)
		switch {
		case strings.Contains(e, "analyzedmessageevidence") || strings.Contains(e, "mailboxevidence"):
			return "email"
		case strings.Contains(e, "processevidence") || strings.Contains(e, "fileevidence"):
			return "endpoint"
		case strings.Contains(e, "mailboxconfigurationevidence") || strings.Contains(e, "oauthapplicationevidence"):
			return "identity"
		}
	}
	src := strings.ToLower(d.str("servicesource", "detectionsource"))
	switch {
	case strings.Contains(src, "office") || strings.Contains(src, "exchange"):
		return "email"
	case strings.Contains(src, "endpoint") || strings.Contains(src, "antivirus"):
		return "endpoint"
	case strings.Contains(src, "identity") || strings.Contains(src, "entra") || strings.Contains(src, "azuread") || strings.Contains(src, "cloudapps"):
		return "identity"
	}
	return ""
}

// readAlert fills the family-independent fields.
func readAlert(d *doc) AlertFields {
	a := AlertFields{
		// In priority order: a Splunk notable's drilldown_name is also
		// indexed as "name" and sorts before its rule_title.
		Title:    d.firstOf("title", "alertname", "name", "searchname", "rulename", "detectname", "threatname", "eventtype", "type"),
		Category: strings.ToLower(d.str("category", "classification", "threatclassification", "securitydomain")),
	}
	if rule, _ := d.raw["rule"].(map[string]any); rule != nil && rule["firedtimes"] != nil {
		// A Wazuh alert is titled by its rule's description; its agent's
		// name comes first in the payload but names the host.
		if desc, _ := rule["description"].(string); desc != "" {
			a.Title = desc
		}
	}
	a.Text = lowerJoin(append(d.strs("title", "alertname", "description", "category", "searchname", "rulename", "detectname", "detectdescription", "threatname", "type", "determination", "classification", "name", "eventtype", "subject", "comment", "tags", "justification", "reason", "note", "policyname", "policy", "action", "appinstancetag", "instancetag", "apptag", "destinationtrust"), ""))
	a.VendorVerdict, a.VendorVerdictSource = vendorVerdict(d)
	a.Action = vendorAction(d)
	a.TestFile = testFileHash(d)
	a.ScannerSource = scannerSource(d)
	// The rare placeholder finding first: the wording check then runs only on it.
	a.UnusableSecret = unusableSecret(d) && exposedSecretAlert(d)
	a.IntelMatch = d.str("threatmatchvalue", "threatindicator", "iocvalue", "matchedindicator", "threatmatch")
	a.IntelConfidence = -1
	if n, ok := d.number("threatconfidence", "iocconfidence", "indicatorconfidence", "feedconfidence"); ok {
		a.IntelConfidence = int(n)
	}
	foreground := foregroundText(d, a.Text)
	a.SecurityTesting = containsAnyTerm(foreground, "securitytesting", "security testing", "red team", "redteam", "penetration test", "pentest", "attack simulation", "phishing simulation", "eicar", "atomic red team") ||
		strings.EqualFold(d.str("determination"), "securitytesting") || simulationMarker(d) || a.TestFile
	a.ExerciseAsset = exerciseAsset(d)
	a.SecurityTesting = a.SecurityTesting || a.ExerciseAsset != ""
	a.CorrelatedUserAction = correlatedUserAction(d)
	seen := map[string]bool{}
	for _, s := range d.strs("mitretechniques", "techniqueid", "techniques", "attacktechniques", "mitreattack") {
		s = strings.ToUpper(strings.TrimSpace(s))
		if strings.HasPrefix(s, "T") && len(s) >= 5 && !seen[s] {
			seen[s] = true
			a.Techniques = append(a.Techniques, s)
		}
	}
	if !seen["T1003.006"] && replicationRightsUsed(d) {
		a.Techniques = append(a.Techniques, "T1003.006")
	}
	sort.Strings(a.Techniques)
	a.DirectorySync = directorySyncReplication(a, d.text)
	a.ShadowCredentials = shadowCredentialWrite(d)
	a.ChangeReference = changeReference(d)
	a.MFAWeakened = mfaWeakened(d)
	if a.VaultBypass = vaultBypass(d); a.VaultBypass != "" {
		a.VaultRotationFailed = vaultRotationFailed(d)
	}
	a.Decoy = affirmedPhrase(foreground, decoyPhrases...)
	a.FederationChange = federationChange(d)
	a.FederationWithGrant = a.FederationChange != "" && privilegeGranted(d)
	a.DirectoryAdminGroupAdd = directoryAdminGroupAdd(d)
	return a
}

// foregroundText is the alert's text (see AlertFields.Text) without the
// background sentences of its descriptions (see withoutBackground):
// Defender's standard hack-tool description says such tools "are also
// used legitimately for security testing", which says nothing about this
// alert.
func foregroundText(d *doc, text string) string {
	for _, desc := range d.strs("description", "detectdescription") {
		if bg := withoutBackground(desc); bg != desc {
			text = strings.ReplaceAll(text, strings.ToLower(desc), strings.ToLower(bg))
		}
	}
	return text
}

// correlatedUserAction looks in correlated or related events for the user
// starting the activity themselves: a password reset, MFA enrolment or
// sign-in request they initiated.
func correlatedUserAction(d *doc) bool {
	text := normKey(lowerJoin(d.strs("correlatedevents", "relatedevents", "userinitiated", "initiatedby", "precedingevents", "correlation", "useraction")))
	if v, ok := d.boolean("userinitiated", "initiatedbyuser", "selfservice", "requestedbyuser"); ok && v {
		return true
	}
	if containsAnyTerm(text, "selfservice", "userinitiated", "requestedpasswordreset", "passwordresetrequested", "userrequested", "resetpasswordselfservice", "initiatedbyuser", "userstartedreset") {
		return true
	}
	for _, m := range d.maps("correlatedevents", "relatedevents", "precedingevents") {
		if ownAccountAction(newDoc(m)) {
			return true
		}
	}
	return false
}

// ownAccountAction reports a correlated event in which a user changed their
// own account (a reset, an enrolment, a verification) and it succeeded: the
// actor and the target are the same person.
func ownAccountAction(ev *doc) bool {
	kind := normKey(ev.str("eventtype", "eventname", "operation", "activity", "action", "name"))
	if !containsAnyTerm(kind, "resetpassword", "passwordreset", "factoractivate", "enroll", "mfaregistration", "registersecurityinfo", "verifyemail", "changepassword", "updatepassword") {
		return false
	}
	actor, target := ev.str("actor", "actoralternateid", "user", "initiatedby"), ev.str("target", "targetuser", "targetalternateid")
	if actor == "" || target != "" && !strings.EqualFold(actor, target) {
		return false
	}
	out := strings.ToLower(ev.str("outcome", "result", "status"))
	return out == "" || strings.Contains(out, "success")
}

// containsAnyTerm reports whether any term occurs in text as a substring.
func containsAnyTerm(text string, terms ...string) bool {
	return firstSubstring(text, terms) != ""
}

// oktaEvent reports whether the payload carries Okta System Log event
// types (user.*, system.push.*, policy.*, and security.* for ThreatInsight
// and session roaming), whose keys can otherwise look like an EDR's.
func oktaEvent(d *doc) bool {
	for _, t := range d.strs("eventtype") {
		t = strings.ToLower(t)
		if strings.HasPrefix(t, "user.") || strings.HasPrefix(t, "system.push") || strings.HasPrefix(t, "policy.") || strings.HasPrefix(t, "security.") {
			return true
		}
	}
	return false
}

// simulationMarker spots the headers and fields that phishing-simulation
// and attack-simulation tools stamp on their traffic (X-PHISHTEST and its
// kin), which an organisation allow-lists for its awareness campaigns.
func simulationMarker(d *doc) bool {
	for _, e := range d.entries {
		if strings.Contains(e.key, "phishtest") || strings.Contains(e.key, "phishsim") || campaignHeader(e) || e.key == "simulationid" || e.key == "attacksimulation" {
			return true
		}
		if b, ok := e.val.(bool); ok && b && testEventFlag(e) {
			return true
		}
	}
	// A mail gateway's override that let a simulation through (Defender
	// for Office 365's advanced delivery policy names it in the policy
	// that acted on the message).
	for _, s := range d.scalarStrs("orglevelpolicy", "userlevelpolicy", "overridesource", "systemoverride", "deliveryoverride", "policyoverride") {
		if containsAnyTerm(normKey(s), "phishingsimulation", "phishsim", "attacksimulation") {
			return true
		}
	}
	if reportedAsSimulation(d) {
		return true
	}
	// GuardDuty and other consoles title their generated sample findings.
	for _, t := range d.scalarStrs("title") {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(t)), "[sample]") {
			return true
		}
	}
	return false
}

// testEventFlags are flags products set on an event they generated to
// test a pipeline or train users rather than on a real detection.
var testEventFlags = setOf("issimulation", "simulation", "simulatedattack", "testalert", "istestalert", "issample", "samplefinding", "testevent", "istestevent")

// testEventFlag reports a true test flag: one named as such, or GuardDuty's
// "sample" flag in a finding's additional information.
func testEventFlag(e entry) bool {
	if testEventFlags[e.key] {
		return true
	}
	return e.key == "sample" && strings.Contains(e.scope, "additionalinfo")
}

// testFileHashes are the published hashes (MD5, SHA-1, SHA-256) of the
// EICAR anti-virus test file and of the two zip archives EICAR publishes
// it in (eicar_com.zip, eicarcom2.zip): harmless by design, used to check
// that detection works.
var testFileHashes = setOf(
	"44d88612fea8a8f36de82e1278abb02f", "3395856ce81f2b7382dee72602f798b642f14140", "275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f",
	"6ce6f415d8475545be5ba114f208b0ff", "d27265074c9eac2e2122ed69294dbc4d7cce9141", "2546dcffc5ad854d4ddc64fbf056871cd5a00f2471cb7a5bfd4ac23b6e9eedad",
	"e4968ef99266df7c9a1f0637d2389dab", "bec1b52d350d721c7e22a6d4bb0a92909893a3ae", "e1105070ba828007508566e28a2b8d4c65d192e9eaf3b7868382b7cae747b397",
)

// testFileNameRe is the name engines give the test file when they detect
// it ("EICAR-AV-Test", "EICAR-Test-File", "Virus:DOS/EICAR_Test_File").
var testFileNameRe = regexp.MustCompile(`\beicar[-_ ]?(av[-_ ]?test|test[-_ ]?file|test[-_ ]?signature|signature)\b|\bdos/eicar`)

// testFileHash reports the EICAR test file named by one of its published
// hashes, or by the name engines give it.
func testFileHash(d *doc) bool {
	for _, e := range d.entries {
		if s, ok := e.val.(string); ok && testFileHashes[strings.ToLower(strings.TrimSpace(s))] {
			return true
		}
	}
	// The malware analyzer's detection fields, and a gateway's detail line
	// ("AV signature: EICAR-Test-File").
	for _, s := range append(d.scalarStrs(detectionKeys...), d.scalarStrs("threatfamilyname", "threatdisplayname", "details")...) {
		if testFileNameRe.MatchString(strings.ToLower(s)) {
			return true
		}
	}
	return false
}

// scannerUserAgents name vulnerability scanners by the user agent they send.
var scannerUserAgents = []string{"nessus", "qualys", "openvas", "rapid7", "nexpose", "insightvm", "tenable", "acunetix", "burp collaborator"}

// scannerSource reports an alert whose source is the organisation's own
// vulnerability scanner: an asset category naming a scanner (SIEM asset
// and identity lookups) or a scanner's user agent.
func scannerSource(d *doc) bool {
	// PAN-OS names the address group and the device the source belongs to.
	for _, c := range d.strs("assetcategory", "srccategory", "srcassetcategory", "sourceassetcategory", "assettype", "srcpriority", "sourcedynamicaddressgroup", "srcdynamicaddressgroup") {
		if containsAnyTerm(normKey(c), "vulnerabilityscanner", "vulnscanner", "scanner") {
			return true
		}
	}
	if firstSubstring(strings.ToLower(d.str("httpuseragent", "useragent", "srcuseragent")), scannerUserAgents) != "" {
		return true
	}
	// EDR and identity products carry the device's tags and group
	// (Defender's rbacGroupName); a scanner is filed as one by its owners.
	for _, c := range d.strs("tags", "rbacgroupname", "machinegroup", "devicegroup", "assetgroup", "assettags") {
		if containsAnyTerm(normKey(c), "vulnerabilityscanner", "vulnscanner") {
			return true
		}
	}
	// Firewalls, SIEMs and identity-threat products (Falcon Identity's
	// source_account_name and source_endpoint_host_name) name the
	// source's user and host; the scanning account and appliance carry
	// the scanner's name by convention.
	source := lowerJoin(d.scalarStrs("srcuser", "sourceuser", "sourceusername", "srchostname", "sourcehostname", "srchost", "srcrole", "sourcerole", "sourcedevicehost", "srcdevicehost",
		"sourceaccountname", "sourceaccountupn", "sourceendpointhostname"))
	return firstSubstring(source, scannerUserAgents) != "" || strings.Contains(source, "vulnscan")
}
