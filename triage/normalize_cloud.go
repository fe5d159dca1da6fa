package triage

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// CloudFields describe a cloud control-plane alert or audit event (AWS
// CloudTrail and GuardDuty, Defender for Cloud, Google Security Command
// Center and audit logs): who acted, from where, with what credential,
// and what the activity did.
type CloudFields struct {
	// Provider is aws, azure, gcp or github.
	Provider string `expr:"provider" json:"provider,omitempty"`
	// Principal is the acting identity (user, role, service account).
	Principal string `expr:"principal" json:"principal,omitempty"`
	// ConsoleLogin is set for a console sign-in event; Root when the
	// account's root user acted; MFAUsed is yes, no or "" as the event
	// states it; Federated when the sign-in came through a SAML or OIDC
	// identity provider, where MFA happens at the provider and the cloud
	// records none.
	ConsoleLogin bool `expr:"console_login" json:"console_login,omitempty"`
	// LoginFailed is set when the console sign-in failed.
	LoginFailed bool   `expr:"login_failed" json:"login_failed,omitempty"`
	Root        bool   `expr:"root" json:"root,omitempty"`
	MFAUsed     string `expr:"mfa_used" json:"mfa_used,omitempty"`
	Federated   bool   `expr:"federated" json:"federated,omitempty"`
	// Tor and Hosting describe the caller's network; CorporateEgress is
	// set when the address is the organisation's own office or gateway.
	Tor             bool `expr:"tor" json:"tor,omitempty"`
	Hosting         bool `expr:"hosting" json:"hosting,omitempty"`
	CorporateEgress bool `expr:"corporate_egress" json:"corporate_egress,omitempty"`
	// NewCountry is set when the caller's country is not among those of
	// the principal's earlier activity the payload lists.
	NewCountry bool `expr:"new_country" json:"new_country,omitempty"`
	// NewAddress is set when the caller's address is not among those the
	// payload lists for the principal's earlier activity, or the payload
	// says the credential was first used from it.
	NewAddress bool `expr:"new_address" json:"new_address,omitempty"`
	// FirstUse is set when the payload counts no earlier use of this kind
	// (no root sign-ins in a year, a principal inactive for months).
	FirstUse bool `expr:"first_use" json:"first_use,omitempty"`
	// RecoveryBefore is set when a password recovery or reset of the
	// account preceded the sign-in.
	RecoveryBefore bool `expr:"recovery_before" json:"recovery_before,omitempty"`
	// Pipeline is set when the caller is an infrastructure-as-code tool or
	// a CI/CD identity (Terraform, Cloud Build, a GitHub Actions role);
	// ApprovedChange when the payload ties the change to an approved pull
	// request or change ticket; NoChangeRecord when it says none exists.
	Pipeline       bool `expr:"pipeline" json:"pipeline,omitempty"`
	ApprovedChange bool `expr:"approved_change" json:"approved_change,omitempty"`
	NoChangeRecord bool `expr:"no_change_record" json:"no_change_record,omitempty"`
	// ReadOnly is set when the session made only read calls.
	ReadOnly bool `expr:"read_only" json:"read_only,omitempty"`
	// Exfiltration is set when the detector classes the activity as data
	// exfiltration; BulkData when gigabytes or thousands of objects were
	// read or copied; ExternalDestination when data went to a project or
	// account outside the organisation.
	Exfiltration        bool `expr:"exfiltration" json:"exfiltration,omitempty"`
	BulkData            bool `expr:"bulk_data" json:"bulk_data,omitempty"`
	ExternalDestination bool `expr:"external_destination" json:"external_destination,omitempty"`
	// InternalDestination is set when the data stayed in a project or
	// account of the same organisation; Routine when the payload calls the
	// job scheduled or recurring, seen the same way before.
	InternalDestination bool `expr:"internal_destination" json:"internal_destination,omitempty"`
	Routine             bool `expr:"routine" json:"routine,omitempty"`
	// LongLivedCredential is set for static keys and tokens (access keys,
	// service-account keys, SAS tokens); LeakedCredential when the key
	// was found exposed or belongs to someone who left.
	LongLivedCredential bool `expr:"long_lived_credential" json:"long_lived_credential,omitempty"`
	LeakedCredential    bool `expr:"leaked_credential" json:"leaked_credential,omitempty"`
	// ScriptedTool is set when the client is a bulk-copy or HTTP tool
	// (rclone, curl, python-requests) rather than a console or SDK.
	ScriptedTool bool `expr:"scripted_tool" json:"scripted_tool,omitempty"`
	// Persistence is set when the activity granted roles, created keys or
	// read secrets; Destructive when it deleted data, suspended
	// versioning or left a ransom note.
	Persistence bool `expr:"persistence" json:"persistence,omitempty"`
	Destructive bool `expr:"destructive" json:"destructive,omitempty"`
	// ConsumerGrantee is set when the account a role, policy or group was
	// given to is a personal mailbox of a consumer mail service
	// (user:someone@gmail.com), which no organisation administers.
	ConsumerGrantee bool `expr:"consumer_grantee" json:"consumer_grantee,omitempty"`
	// LoggingTampered is set when the activity stopped, deleted or
	// narrowed audit logging or a threat detector.
	LoggingTampered bool `expr:"logging_tampered" json:"logging_tampered,omitempty"`
	// SecretsRead is set when the activity listed or read stored secrets
	// or keys (Key Vault, Secrets Manager, Secret Manager, account keys).
	SecretsRead bool `expr:"secrets_read" json:"secrets_read,omitempty"`
	// StrongSession is set when the session passed MFA on a managed or
	// compliant device.
	StrongSession bool `expr:"strong_session" json:"strong_session,omitempty"`
}

// cloudFormat names the cloud audit or detection format by the keys its
// payloads carry, "" when none fits.
func cloudFormat(keys map[string]bool) string {
	switch {
	case keys["eventsource"] && keys["eventname"] && (keys["useridentity"] || keys["useridentitytype"] || keys["useridentityarn"]):
		return "cloudtrail"
	case keys["alerttype"] && (keys["compromisedentity"] || keys["productcomponentname"] || keys["alertdisplayname"]):
		return "defender_cloud"
	case keys["findingclass"] || keys["finding"] && keys["canonicalname"]:
		return "gcp_scc"
	case keys["protopayload"] && keys["methodname"], keys["methodname"] && keys["servicename"] && keys["authenticationinfo"]:
		return "gcp_audit"
	case (keys["operationname"] || keys["operationnamevalue"]) && (keys["caller"] || keys["calleripaddress"]) && (keys["resourceid"] || keys["subscriptionid"]):
		// The Activity Log's event schema names the caller; its resource
		// log schema (diagnostic settings) gives the address and claims.
		return "azure_activity"
	case keys["productarn"] && keys["awsaccountid"]:
		return "securityhub"
	case keys["issue"] && keys["control"] && keys["resource"] && keys["cloudplatform"]:
		return "wiz_issue"
	}
	return ""
}

// flowKeys are the keys of a network record's destination: an alert that
// carries them is read as network traffic whatever the incident type.
var flowKeys = []string{"dstip", "destip", "dst", "destinationip", "destinationaddress", "dstaddr", "idresph", "qname", "serverip", "dstport", "destport", "destinationport"}

var cloudFormats = setOf("cloudtrail", "guardduty", "securityhub", "defender_cloud", "gcp_scc", "gcp_audit", "azure_activity", "github_audit", "wiz_issue")

// readInfrastructure fills the cloud fields for cloud formats and the
// network fields for alerts of no other family (family is the one the
// shape or the incident type named), naming the cloud format when the
// shape probes did not.
func readInfrastructure(f *Fields, raw map[string]any, d *doc, family string) {
	if f.Format == "" {
		keys := map[string]bool{}
		for _, e := range d.entries {
			keys[e.key] = true
		}
		f.Format = cloudFormat(keys)
		if f.Format == "" && githubAuditEvent(d) {
			f.Format = "github_audit"
		}
	}
	if cloudFormats[f.Format] {
		f.Cloud = readCloudFields(f.Format, d)
	} else if src := normKey(d.str("servicesource", "detectionsource")); f.Format == "graph_alert" && strings.Contains(src, "defenderforcloud") && !strings.Contains(src, "apps") {
		// Defender for Cloud alerts also arrive through the Graph
		// security API.
		f.Cloud = readCloudFields("defender_cloud", d)
	}
	if (family == "" || f.Shape == "" && d.has(flowKeys...)) && !cloudFormats[f.Format] {
		f.Network = readNetworkFields(raw, d)
	}
	f.Network.Kerberoast = kerberoast(raw, d)
}

// pipelineIdentities are the names CI/CD and infrastructure-as-code
// identities carry in their principal, role session or delegation chain.
var pipelineIdentities = []string{"cloudbuild.gserviceaccount.com", "githubactions", "github-actions", "gha-terraform", "terraform", "gitlab", "azure-pipelines", "azuredevops", "jenkins", "circleci", "atlantis", "spacelift", "argocd", "tf-deployer"}

// bulletproofHosts name hosting providers known for renting to abuse,
// besides the rentable-server providers identity sign-ins already know.
// An enrichment's own label ("AS49505 Selectel (hosting)") counts too.
var bulletproofHosts = []string{"media land", "stark industries", "aeza", "proton66", "bulletproof", "pq hosting", "ipvolume", "ip volume", "vps hosting", "hosting provider", "(hosting"}

var (
	noChangeRecordRe = regexp.MustCompile(`(change (record|ticket|request)s?"?:? ?"?(none|not found|missing)|no (change|ticket|approved change|change record|change ticket)|without (a )?(change|ticket)|notickete?t?orexception)`)
	approvedChangeRe = regexp.MustCompile(`(approved (pr|pull request|change|merge request)|pull request|\bpr #?\d+|change (ticket|request) (chg|cr|#)?[a-z]*\d+|merge request|chg\d{4,}|refs/heads/(main|master)\b)`)
	sizeRe           = regexp.MustCompile(`\b(\d[\d,]*(?:\.\d+)?) ?(gb|tb|gib|tib)\b`)
	objectCountRe    = regexp.MustCompile(`\b\d{1,3}(,\d{3})+ (objects|blobs|files|rows|records)\b`)
	readVerbRe       = regexp.MustCompile(`^(get|list|describe|head|lookup|search|batchget|testiampermissions|query)`)
)

// readCloudFields reads the acting principal, the credential, the caller's
// network and what the activity did, from structured keys where the
// vendors document them and from the context the alert carries.
func readCloudFields(format string, d *doc) CloudFields {
	text := d.text
	compact := d.compactText()
	f := CloudFields{Provider: cloudProvider(format, d)}
	f.Principal = cloudPrincipal(format, d)
	idType := strings.ToLower(d.scalarStr("useridentitytype", "usertype", "type"))
	f.Root = idType == "root" || strings.HasSuffix(strings.ToLower(d.str("useridentityarn", "arn")), ":root") || strings.EqualFold(d.str("usertype"), "root")
	for _, n := range d.scalarStrs("eventname") {
		if strings.EqualFold(n, "ConsoleLogin") {
			f.ConsoleLogin = true
		}
	}
	// A trail of records (a mistyped password, then the sign-in) failed
	// only if none of its console sign-ins succeeded.
	outcomes := d.scalarStrs("consolelogin")
	f.LoginFailed = f.ConsoleLogin && len(outcomes) > 0 && !slices.ContainsFunc(outcomes, func(o string) bool { return strings.EqualFold(o, "success") })
	// In a trail of records, the sign-in that succeeded says whether MFA
	// was used, not the mistyped attempts before it.
	mfaDoc := d
	for _, m := range d.maps("records", "events") {
		if r := newDoc(m); strings.EqualFold(r.scalarStr("consolelogin"), "success") {
			mfaDoc = r
			break
		}
	}
	if v := strings.ToLower(mfaDoc.scalarStr("mfaused")); v == "yes" || v == "no" {
		f.MFAUsed = v
	} else if v, ok := mfaDoc.boolean("mfaauthenticated"); ok {
		f.MFAUsed = map[bool]string{true: "yes", false: "no"}[v]
	}
	// CloudTrail files an empty webIdFederationData object on every
	// session, and its FederatedUser type is GetFederationToken called
	// with an IAM user's own keys, not a sign-in through an identity
	// provider.
	f.Federated = d.has("samlproviderarn") || webIdentityFederation(d) || strings.Contains(compact, "userauthenticationsso") ||
		f.ConsoleLogin && (idType == "assumedrole" || idType == "samluser" || idType == "webidentityuser")

	network := lowerJoin(d.strs("asn", "asnorg", "asorg", "isp", "org", "organization", "autonomoussystem", "sourceipasn", "clientasn", "clientipowner", "threattype", "sourceiplabel", "location", "name"))
	f.Tor = strings.Contains(text, "tor exit") || strings.Contains(compact, "torexit") || strings.Contains(compact, "toripcaller") || containsTerm(lowerJoin(d.strs("threattype")), "tor") ||
		torExit(d.scalarStr(callerAddressKeys...), signInASN(d))
	f.Hosting = firstSubstring(network, bulletproofHosts) != "" || hostingASN(signInASN(d))
	f.CorporateEgress = affirmedPhrase(text, "corporate egress", "office nat", "office egress", "named location", "corporate network", "corporate proxy", "company vpn") != ""
	f.NewCountry = newCloudCountry(d)
	f.NewAddress = newCallerAddress(d, text)
	f.FirstUse = firstUse(d)
	f.RecoveryBefore = containsAnyTerm(compact, "passwordrecoverycompleted", "passwordrecoveryrequested", "passwordresetcompleted", "rootpasswordreset")

	agent := lowerJoin(d.scalarStrs("useragent", "useragentfamily", "original"))
	delegation := lowerJoin(d.strs("serviceaccountdelegationinfo", "delegationinfo", "principalid", "sessionname"))
	f.Pipeline = firstSubstring(agent, []string{"terraform", "pulumi", "cloudformation", "crossplane", "ansible", "cdk/"}) != "" ||
		firstSubstring(delegation+" "+strings.ToLower(f.Principal), pipelineIdentities) != ""
	f.ApprovedChange = approvedChange(text)
	f.NoChangeRecord = noChangeRecordRe.MatchString(text) || noChangeRecord(d)
	f.ReadOnly = readOnlySession(d, text)

	category := lowerJoin(d.scalarStrs("category", "intent", "alerttype", "type", "types", "findingtype", "primarytactic", "technique"))
	ops := normKey(lowerJoin(d.strs("operations", "operation", "operationname", "operationnamevalue", "methodname", "api", "eventname", "highriskapi", "name")))
	f.Exfiltration = strings.Contains(category, "exfiltration") || containsAnyTerm(ops, snapshotExportOps...)
	f.BulkData = bulkData(d, text)
	f.ExternalDestination = affirmedPhrase(text, "outside organization", "outside the organization", "outside organisation", "outside the organisation", "external project", "external account", "not in organization", "foreign account", "unknown account") != "" ||
		strings.Contains(compact, "notinorganization")
	f.InternalDestination = !f.ExternalDestination && affirmedPhrase(text, "same organization", "same organisation", "inside the organization", "inside the organisation", "within the organization", "within the organisation", "own project", "own account", "company's own") != ""
	f.Routine = affirmedPhrase(text, "scheduled export", "scheduled query", "scheduled job", "scheduled backup", "scheduled transfer", "every night", "nightly", "every week", "weekly job", "monthly job", "same volume every", "previous runs", "previous pr", "as it has every") != ""
	f.LongLivedCredential = d.has("serviceaccountkeyname") || staticAccessKey(d) ||
		firstSubstring(lowerJoin(d.strs("authenticationtype", "authtype", "credentialtype")), []string{"sas", "account key", "access key", "shared key"}) != "" ||
		affirmedPhrase(text, "client secret", "sas token", "service account key", "static key", "long-lived key", "long-lived token") != ""
	f.LeakedCredential = affirmedPhrase(text, "leaked", "exposed in a public", "public github", "public gist", "secret scanning", "public repository", "former contractor", "former employee", "departed employee") != ""
	f.ScriptedTool = firstSubstring(agent, []string{"rclone", "curl/", "wget", "python-requests", "go-http-client", "s3cmd", "cyberduck", "mc (minio"}) != ""

	f.Persistence = strings.Contains(category, "persistence") || containsAnyTerm(ops, "roleassignmentswrite", "createaccesskey", "attachuserpolicy", "attachrolepolicy", "putrolepolicy", "putuserpolicy", "createloginprofile", "setiampolicy", "createserviceaccountkey", "secretsread", "addusertogroup", "createuser") ||
		format == "github_audit" && containsAnyTerm(normKey(lowerJoin(d.scalarStrs("action"))), githubPersistenceActions...)
	f.ConsumerGrantee = f.Persistence && consumerGrantee(d)
	f.SecretsRead = containsAnyTerm(ops, "secretget", "secretlist", "secretsread", "getsecretvalue", "accesssecretversion", "listkeys", "batchgetsecretvalue", "getparametersbypath")
	f.LoggingTampered = containsAnyTerm(ops, "stoplogging", "deletetrail", "updatetrail", "puteventselectors", "deleteflowlogs", "deletedetector", "disablesecurityhub", "deleteconfigurationrecorder", "stopconfigurationrecorder", "diagnosticsettingsdelete", "deletesink", "updatesink", "disableorganizationadminaccount")
	f.Destructive = containsAnyTerm(ops, "deleteobjects", "deletebucket", "putbucketversioningsuspended", "deletesnapshot", "deletedbinstance") || strings.Contains(text, "ransom") || strings.HasPrefix(category, "impact")
	f.StrongSession = firstSubstring(text, []string{"mfa satisfied", "mfa passed", "number match", "fastpass", "security key", "fido2", "passkey"}) != "" &&
		firstSubstring(text, []string{"compliant", "managed device", "entra joined", "hybrid joined", "fastpass", "corporate egress", "named location"}) != ""
	return f
}

func cloudProvider(format string, d *doc) string {
	switch format {
	case "wiz_issue":
		// A Wiz issue names the platform of the resource it is about.
		switch p := strings.ToLower(d.scalarStr("cloudplatform")); p {
		case "aws", "azure", "gcp":
			return p
		}
		return "cloud"
	case "cloudtrail", "guardduty", "securityhub":
		return "aws"
	case "defender_cloud", "azure_activity":
		return "azure"
	case "gcp_scc", "gcp_audit":
		return "gcp"
	case "github_audit":
		return "github"
	}
	return ""
}

// newCloudCountry compares the caller's country with the countries of the
// principal's earlier activity listed in the payload's history.
func newCloudCountry(d *doc) bool {
	var current string
	history := map[string]bool{}
	for _, e := range d.entries {
		historical := containsAnyTerm(e.key, "last", "history", "previous", "prior", "usual", "baseline")
		switch v := e.val.(type) {
		case string:
			if current == "" && !historical && (e.key == "country" || e.key == "regioncode" || e.key == "countrycode" || e.key == "sourceipcountry" || e.key == "calleripcountry" || e.key == "countryname") {
				current = strings.ToLower(strings.TrimSpace(v))
			}
			if historical && containsAnyTerm(e.key, "countr") {
				// A SIEM's baseline as text: "PT" or "PT, ES".
				for _, c := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
					history[strings.ToLower(c)] = true
				}
			}
		case []any, map[string]any:
			if historical {
				for _, c := range newDoc(map[string]any{"v": v}).strs("country", "countrycode", "regioncode", "countryname") {
					history[strings.ToLower(strings.TrimSpace(c))] = true
				}
			}
		}
	}
	return current != "" && len(history) > 0 && !history[current]
}

// firstUse reads counts of earlier use that are zero ("root console
// logins last 365d": 0) and long inactivity ("days since last activity").
func firstUse(d *doc) bool {
	for _, e := range d.entries {
		n, ok := asNumber(e.val)
		if !ok {
			continue
		}
		if n == 0 && containsAnyTerm(e.key, "login", "signin", "logon") && containsAnyTerm(e.key, "last", "prior", "previous", "history") {
			return true
		}
		if n >= 60 && containsAnyTerm(e.key, "dayssincelast", "inactivedays", "daysinactive") {
			return true
		}
	}
	return false
}

// readOnlySession reports a session the payload describes as making only
// read calls, or whose listed follow-up calls are all reads.
func readOnlySession(d *doc, text string) bool {
	if firstSubstring(text, []string{"only read", "read-only", "read only", "no set*, create* or delete*"}) != "" {
		return true
	}
	var calls []string
	for _, e := range d.entries {
		if containsAnyTerm(e.key, "following", "subsequent", "afterwards", "sessioncalls") {
			calls = appendLeafStrings(calls, e.val, 0)
		}
	}
	if len(calls) == 0 {
		return false
	}
	for _, c := range calls {
		if !readVerbRe.MatchString(strings.ToLower(strings.TrimSpace(c))) {
			return false
		}
	}
	return true
}

// bulkData reads gigabytes or thousands of objects moved, whether stated
// as a byte count or in words.
func bulkData(d *doc, text string) bool {
	if n, ok := d.number("totalexfiltratedbytes", "bytestransferred", "egressbytes", "bytesout"); ok && n >= 1e9 {
		return true
	}
	for _, m := range sizeRe.FindAllStringSubmatch(text, -1) {
		if v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64); err == nil && (v >= 1 || strings.HasPrefix(m[2], "t")) {
			return true
		}
	}
	for _, e := range d.entries {
		if !containsAnyTerm(e.key, "blobs", "objects", "files", "rows", "records", "documents") {
			continue
		}
		var n float64
		switch v := e.val.(type) {
		case string:
			n, _ = strconv.ParseFloat(strings.ReplaceAll(strings.TrimSpace(v), ",", ""), 64)
		default:
			n, _ = asNumber(v)
		}
		if n >= 1000 {
			return true
		}
	}
	return objectCountRe.MatchString(text)
}

// snapshotExportOps are calls, as normKey folds them, that take a disk or
// database out of the account: a download URL for a managed disk or
// snapshot (Azure's beginGetAccess), a snapshot shared with other
// accounts (EC2 and RDS snapshot attributes).
var snapshotExportOps = []string{"snapshotsbegingetaccess", "disksbegingetaccess", "modifysnapshotattribute", "modifydbsnapshotattribute", "modifydbclustersnapshotattribute"}

// noChangeRecord reads a change-record or ticket field that says there is
// none ("Change record": "none found", "no_ticket_or_exception": true, a
// count of open change requests that is zero).
func noChangeRecord(d *doc) bool {
	for _, e := range d.entries {
		if !containsAnyTerm(e.key, "changerecord", "changeticket", "changerequest", "ticket") {
			continue
		}
		switch v := e.val.(type) {
		case string:
			if saysNoRecord(v) {
				return true
			}
		case bool:
			if v && strings.HasPrefix(e.key, "no") {
				return true
			}
		case float64:
			if v == 0 {
				return true
			}
		}
	}
	return false
}

// unapprovedWords say a change or pull request named beside them is not
// approved yet.
var unapprovedWords = []string{"draft", "no reviewers", "not approved", "unapproved", "pending approval", "awaiting review", "awaiting approval", "not yet reviewed", "not reviewed", "rejected", "not merged"}

// approvedChange reports a change record or pull request the text names
// (see approvedChangeRe) without calling it a draft, unreviewed or
// rejected in the words that follow it.
func approvedChange(text string) bool {
	for _, m := range approvedChangeRe.FindAllStringIndex(text, -1) {
		if firstSubstring(text[m[1]:min(len(text), m[1]+80)], unapprovedWords) == "" {
			return true
		}
	}
	return false
}

// staticAccessKey reports an AWS long-term access key id (AKIA...) named
// as the credential or the resource.
func staticAccessKey(d *doc) bool {
	for _, id := range d.scalarStrs("accesskeyid", "id", "credentialuid") {
		if strings.HasPrefix(strings.ToUpper(strings.TrimSpace(id)), "AKIA") {
			return true
		}
	}
	return false
}

// webIdentityFederation reports a CloudTrail session whose
// webIdFederationData names the OIDC provider it came through.
func webIdentityFederation(d *doc) bool {
	for _, v := range d.values("webidfederationdata") {
		if m, ok := v.(map[string]any); ok && len(m) > 0 {
			return true
		}
	}
	return false
}
