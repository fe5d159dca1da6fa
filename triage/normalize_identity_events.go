package triage

import "strings"

// phishResistantMethods are authenticators an attacker in the middle cannot
// relay: security keys, FIDO2 and passkeys, platform authenticators and
// Okta FastPass's signed nonce.
var phishResistantMethods = []string{
	"securitykey", "fido", "passkey", "webauthn", "windowshello", "signednonce", "fastpass",
	"phishingresistant", "certificatebased", "x509",
}

// googleSecondFactorMethods are Google login challenge methods (as
// normKey spells them) that go beyond the password: authenticator codes,
// prompts, phone verification, backup codes, security keys and passkeys.
var googleSecondFactorMethods = []string{
	"googleauthenticator", "totp", "securitykey", "passkey", "googleprompt",
	"idvpreregisteredphone", "idvanyphone", "backupcode", "offlineotp", "internaltwofactor",
}

// accountTamperEvents are changes an intruder makes right after getting in
// to keep the account: second factor removed, recovery details replaced.
var accountTamperEvents = []string{
	"2svdisable", "recoveryemailedit", "recoveryphoneedit", "recoveryinfochange", "mfafactordeactivate",
	"factordeactivate", "resetfactors",
}

// mailRuleEvents are the event names of a mailbox rule or forwarding set
// up, the step intruders take to keep reading an account and hide their
// replies. They count as tampering unless the rule itself was read and
// neither hides mail nor sends it out (see MailRuleFields.harmless).
var mailRuleEvents = []string{"newinboxrule", "inboxmanipulation", "forwardingrule", "mailforwarding", "setforwarding"}

// privilegeGrantEvents are the event names (folded) of administrative
// power handed out: Okta user.account.privilege.grant,
// group.privilege.grant and system.api_token.create, Entra "Add member to
// role" and "Add eligible member to role", Google ASSIGN_ROLE.
var privilegeGrantEvents = []string{
	"accountprivilegegrant", "groupprivilegegrant", "apitokencreate", "addmembertorole", "addeligiblemembertorole",
	"assignrole", "roleassignmentcreate", "grantadminrole", "adminroleassign",
}

// readIdentityEvents fills what the identity providers report as lists of
// events or named parameters rather than flat fields: Google Workspace
// login audit parameters, Duo authentication logs and correlated Okta
// System Log events (pushes sent and denied, accounts sprayed). rule is
// the mailbox rule cur reports, read once by the caller.
func readIdentityEvents(f *IdentityFields, cur *doc, rule MailRuleFields) {
	if f.User == "" || f.User == "USER" || f.User == "User" {
		if u := cur.str("email", "alternateid", "userprincipalname"); u != "" {
			f.User = u
		}
	}
	names := normKey(lowerJoin(cur.strs("name", "eventtype", "eventname", "type", "reason", "result")))
	methods := normKey(lowerJoin(cur.strs("loginchallengemethod", "factor", "credentialtype", "authenticationmethod", "authmethod", "authenticationmethods", "clientapp", "authenticationdetails")))

	// Google: the provider's own suspicion, and whether a second factor
	// was asked at all.
	if v, ok := cur.boolean("issuspicious"); ok {
		if v {
			f.RiskLevel = "high"
		} else if f.RiskLevel == "" {
			f.RiskLevel = "none"
		}
	}
	if strings.Contains(names, "suspiciouslogin") || strings.Contains(names, "govattackwarning") {
		f.RiskLevel = "high"
	}
	if v, ok := cur.boolean("issecondfactor"); ok {
		// The challenge methods say what was asked; exports disagree on
		// whether is_second_factor describes the login or its last step,
		// so a second-factor method among them counts as a second factor.
		v = v || firstSubstring(methods, googleSecondFactorMethods) != ""
		if v && f.MFA == "" {
			f.MFA = "passed"
		}
		if !v && f.Result != "failure" {
			f.SingleFactor = true
			if f.MFA == "" || f.MFA == "passed" {
				f.MFA = "not_required"
			}
		}
	} else if chall := normKey(lowerJoin(cur.strs("loginchallengemethod"))); chall != "" && f.Result != "failure" {
		// Without is_second_factor the challenge methods alone say it: a
		// password and nothing else is a single factor.
		if strings.Contains(chall, "password") && firstSubstring(chall, googleSecondFactorMethods) == "" {
			f.SingleFactor = true
			if f.MFA == "" {
				f.MFA = "not_required"
			}
		}
	}
	if lt := normKey(cur.str("logintype")); lt == "exchange" || strings.Contains(names, "lesssecureapp") {
		f.LegacyAuth = true
	}
	if firstSubstring(methods, phishResistantMethods) != "" {
		f.PhishResistant = true
	}

	// Duo and Okta: the user marking a push as fraud, pushes denied.
	if strings.Contains(names, "fraud") {
		f.MFA = "fraud"
	}
	if n, ok := cur.number("pushes", "pushessent"); ok && int(n) > f.PushCount {
		f.PushCount = int(n)
	}
	if n, ok := cur.number("denied", "pushesdenied"); ok && int(n) > f.PushDenied {
		f.PushDenied = int(n)
	}
	var sent, denied int
	for _, t := range cur.strs("eventtype") {
		t = normKey(t)
		switch {
		case strings.Contains(t, "sendfactorverifypush") || strings.Contains(t, "pushsent"):
			sent++
		case strings.Contains(t, "denypush") || strings.Contains(t, "pushdenied"):
			denied++
		}
	}
	f.PushCount = max(f.PushCount, sent)
	f.PushDenied = max(f.PushDenied, denied)
	if f.PushDenied > 0 && f.MFA == "denied" && strings.Contains(names, "success") {
		f.MFA = "passed"
	}
	if a, b := cur.maps("accessdevice"), cur.maps("authdevice"); len(a) > 0 && len(b) > 0 {
		access, approver := newDoc(a[0]), newDoc(b[0])
		ip := access.str("ip")
		if ip != "" && ip == approver.str("ip") {
			f.KnownNetwork = true
		}
		readApproverPlace(f, access.str("country", "countrycode"), approver.str("country", "countrycode"))
	}
	readDuoFactor(f, cur)
	readAdaptiveTrust(f, cur)
	readDeviceTrust(f, cur)
	readOktaRisk(f, cur)
	readSprayReport(f, cur)
	readDeviceRegistration(f, cur)
	readRiskOutcome(f, cur)

	// Correlated spraying: many distinct accounts failed from one source.
	if n, ok := cur.number("distinctusersfailed", "distinctaccounts", "accountsfailed"); ok && int(n) > f.TargetedUsers {
		f.TargetedUsers = int(n)
	}
	if n, ok := cur.number("successes", "successcount"); ok && n > 0 {
		f.Result = "success"
	}
	if firstSubstring(names, accountTamperEvents) != "" || firstSubstring(names, mailRuleEvents) != "" && !rule.harmless() {
		f.AccountTamper = true
	}
	if firstSubstring(names, privilegeGrantEvents) != "" || privilegeGrantEvent(cur) || cur.has("chainprivilegegrant") {
		f.PrivilegeGrant = true
	}
	f.SessionFactorEnrolled = cur.has("chainfactorenrolled")
}

// readApproverPlace compares where the sign-in came from with where its
// second factor was approved (Duo's access and authentication devices,
// the phone location other providers log). A phone approving a browser in
// another country is the person at home approving an intruder's session.
func readApproverPlace(f *IdentityFields, accessCountry, approverCountry string) {
	a, b := normKey(accessCountry), normKey(approverCountry)
	if a == "" || b == "" {
		return
	}
	if a == b {
		f.ApproverNearby = true
		return
	}
	f.ApproverElsewhere = true
}

// readDuoFactor reads Duo's factor and result: an approved push or
// passcode is a passed second factor; a bypass code is one the helpdesk
// handed out, which proves nothing about who typed it; a denial by
// network or place policy came after the password was accepted.
func readDuoFactor(f *IdentityFields, cur *doc) {
	factor := normKey(cur.str("factor"))
	if factor == "" {
		return
	}
	result := normKey(cur.str("result"))
	// Duo is asked only after the application accepted the password; a
	// denial for the access device's network or place (its policy on
	// anonymous networks or countries) is a correct password refused.
	if reason := normKey(cur.str("reason")); result == "denied" && (reason == "anonymousip" || reason == "locationrestricted") {
		f.PasswordAccepted = true
	}
	switch {
	case strings.Contains(factor, "bypass"):
		f.BypassCode = true
		if f.MFA == "" || f.MFA == "passed" {
			f.MFA = "not_required"
		}
	case result == "success" && f.MFA == "" && (strings.Contains(factor, "push") || strings.Contains(factor, "passcode") || strings.Contains(factor, "phonecall") || strings.Contains(factor, "sms") || strings.Contains(factor, "webauthn") || strings.Contains(factor, "verifiedduopush")):
		f.MFA = "passed"
	}
}

// readAdaptiveTrust reads Duo's risk-based assessment of the
// authentication (adaptive_trust_assessments). Its trust level runs the
// other way from a risk level: LOW trust with a stated reason ("New
// access IP; new access OS; unusual hour") is the provider rating the
// sign-in risky, as a medium risk level says elsewhere; NORMAL trust is
// low risk; a LOW level whose reason says the policy is off is no
// assessment at all. The generic reading takes the assessment's
// trust_level as a risk level, so this one replaces it unless the payload
// states a risk level of its own.
func readAdaptiveTrust(f *IdentityFields, cur *doc) {
	assessments := cur.maps("adaptivetrustassessments")
	if len(assessments) == 0 || cur.has("risklevel", "risklevelduringsignin", "risklevelaggregated") {
		return
	}
	level := ""
	for _, m := range assessments {
		for _, v := range m {
			a, ok := v.(map[string]any)
			if !ok {
				continue
			}
			trust, _ := a["trust_level"].(string)
			reason, _ := a["reason"].(string)
			reason = normKey(reason)
			switch {
			case strings.EqualFold(trust, "low") && reason != "" && !containsAnyTerm(reason, "notenabled", "disabled", "policyoff"):
				level = "medium"
			case strings.EqualFold(trust, "normal") && level == "":
				level = "low"
			}
		}
	}
	f.RiskLevel = level
}

// readRiskOutcome reads how the identity provider closed the risk it
// raised (Entra's riskDetail and riskState): the user cleared it by passing
// MFA or a secure password change, or an administrator or the provider
// confirmed the sign-in safe.
func readRiskOutcome(f *IdentityFields, cur *doc) {
	detail, state := normKey(cur.str("riskdetail")), normKey(cur.str("riskstate"))
	if strings.Contains(detail, "userpassedmfa") || strings.Contains(detail, "userperformedsecuredpassword") || state == "remediated" {
		f.RiskRemediated = true
	}
	if strings.Contains(detail, "userpassedmfa") && f.MFA == "" {
		f.MFA = "passed"
	}
	if strings.Contains(detail, "confirmedsigninsafe") || strings.Contains(detail, "dismissed") || state == "dismissed" || state == "confirmedsafe" {
		f.RiskDismissed = true
	}
}

// passedFirstFactorCodes are Entra sign-in error codes returned only once
// the password was right: a Conditional Access block (53003), a device
// that is not compliant or not joined (53000, 53001), security defaults'
// block (530032), MFA required or failed (50074, 50076, 500121), an
// external MFA provider not satisfied (50158).
var passedFirstFactorCodes = map[int]bool{53003: true, 53000: true, 53001: true, 530032: true, 50074: true, 50076: true, 500121: true, 50158: true}

// passwordAccepted reports a failed Entra sign-in that got past the
// password: by its error code, or by the authentication step that says
// so ("Correct password", a password step that succeeded).
func passwordAccepted(cur *doc, code int) bool {
	if passedFirstFactorCodes[code] {
		return true
	}
	for _, m := range cur.maps("authenticationdetails") {
		step := newDoc(m)
		if !strings.Contains(normKey(step.str("authenticationmethod")), "password") {
			continue
		}
		if ok, found := step.boolean("succeeded"); found && ok || normKey(step.str("authenticationstepresultdetail")) == "correctpassword" {
			return true
		}
	}
	return false
}

// topRoleTerms name, as normKey folds them, the roles that rule a whole
// tenant or account.
var topRoleTerms = []string{"superadmin", "superadministrator", "globaladmin", "globaladministrator", "companyadministrator",
	"orgadmin", "organizationadministrator", "privilegedroleadministrator", "exchangeadministrator", "securityadministrator",
	"administratoraccess"}

// grantApprovalTerms are how identity governance records that a grant
// was approved: an access request approved, an access package assigned
// through its approval stages, a Privileged Identity Management
// activation.
var grantApprovalTerms = []string{"accessrequestapproved", "approvedby", "accesspackageassignment", "pimactivation",
	"activatedinpim", "roleactivation", "approvalstageapproved"}

// grantedRoleKeys are where providers name the role a grant handed out
// (Okta's privilegeGranted, Entra's Role.DisplayName, role names and
// templates elsewhere).
var grantedRoleKeys = []string{"privilegegranted", "roledisplayname", "roledefinitionname", "rolename", "grantedrole", "roletemplatename", "newrole"}

// readRoleGrant reads what a privilege grant handed out and whether
// anything records its approval, from the whole payload d. The granted
// role is read from the fields that name it when the payload has them,
// so the granting administrator's own roles do not count.
func readRoleGrant(f *IdentityFields, d *doc) {
	own := normKey(d.ownText())
	roles := own
	if named := lowerJoin(d.strs(grantedRoleKeys...)); named != "" {
		roles = normKey(named)
	}
	f.TopRoleGranted = containsAnyTerm(roles, topRoleTerms...)
	f.GrantApproved = containsAnyTerm(own, grantApprovalTerms...)
}
