package triage

import "strings"

// Cloud consoles log their sign-ins as API events (AWS CloudTrail's
// ConsoleLogin from signin.amazonaws.com). They are sign-ins like any
// other, with their own names for the address, the account and the
// second factor, and one trap: a federated sign-in reports no MFA because
// the identity provider did it.

// consoleSignIn reports a cloud console sign-in event.
func consoleSignIn(d *doc) bool {
	return strings.EqualFold(d.str("eventsource"), "signin.amazonaws.com") && strings.EqualFold(d.str("eventname"), "ConsoleLogin")
}

// recoveryWords name a password recovery or reset completed on the account.
var recoveryWords = []string{"passwordrecoverycompleted", "passwordrecoverysuccess", "passwordresetcompleted", "passwordreset", "passwordrecovery", "resetpassword", "forgotpassword"}

// readConsoleSignIn fills what a console sign-in event names its own way.
func readConsoleSignIn(f *IdentityFields, d *doc) {
	if !consoleSignIn(d) {
		return
	}
	f.Event = "consolelogin"
	if f.SourceIP == "" {
		f.SourceIP = d.str("sourceipaddress")
	}
	kind := normKey(d.str("useridentitytype"))
	if kind == "" {
		kind = normKey(d.str("type"))
	}
	if kind == "root" || strings.HasSuffix(d.str("arn"), ":root") {
		f.User, f.Admin = "root", true
	} else if u := d.str("username"); u != "" {
		f.User = u
	} else if u := d.str("principalid"); u != "" {
		f.User = u
	}
	switch normKey(d.str("consolelogin")) {
	case "success":
		f.Result = "success"
	case "failure":
		f.Result = "failure"
	}
	federated := d.str("samlproviderarn") != "" || kind == "assumedrole" || kind == "federateduser"
	switch normKey(d.str("mfaused")) {
	case "yes":
		f.MFA = "passed"
	case "no":
		if !federated {
			f.MFA, f.SingleFactor = "not_required", true
		}
	}
	if federated {
		// The identity provider's own record of the sign-in, when the
		// alert carries it, tells how the person proved themselves.
		if firstSubstring(d.compactText(), phishResistantMethods) != "" {
			f.PhishResistant = true
		}
	}
	for _, s := range d.strs("eventname", "name", "type") {
		if firstSubstring(normKey(s), recoveryWords) != "" {
			f.RecoveredBefore = true
		}
	}
}
