package triage

import (
	"maps"
	"strings"
)

// Salesforce records each login as a LoginEvent (Real-Time Event
// Monitoring) or a LoginHistory row, with the same documented fields:
// Username (LoginHistory gives only UserId), SourceIp, LoginType (the
// channel: "Application", "SAML Sfdc Initiated SSO", "Remote Access 2.0",
// an API), and Status, which is "Success" or the reason the login failed
// ("Invalid Password", "Failed: Computer activation required").
// salesforceLogin rewrites one record into the names the sign-in readers
// already know, so a page of them reads as a chain like any provider's.

// salesforceLogin returns raw with the common names added at its top level
// when it is a Salesforce login record, and raw itself otherwise. The
// payload's own top-level fields are never overwritten.
func salesforceLogin(raw map[string]any) map[string]any {
	status, _ := raw["Status"].(string)
	if status == "" || raw["LoginType"] == nil || raw["SourceIp"] == nil {
		return raw
	}
	out := commonNames(maps.Clone(raw))
	add := out.add
	if strings.EqualFold(strings.TrimSpace(status), "success") {
		add("eventType", "user.session.start (Salesforce login)")
		add("outcome", "success")
	} else {
		add("eventType", "user.authentication.failed (Salesforce login)")
		add("outcome", "failure")
		add("failureReason", status)
	}
	if user := raw["Username"]; user != nil {
		add("userPrincipalName", user)
	} else {
		add("userPrincipalName", raw["UserId"])
	}
	add("ipAddress", raw["SourceIp"])
	return out
}
