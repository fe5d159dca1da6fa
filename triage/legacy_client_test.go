package triage

import "testing"

// Entra names the client app and the protocol apart: IMAP4 over ROPC, or
// the BAV2ROPC user agent of Exchange Online's basic-auth bridge, is a
// password-only sign-in whatever the protocol field says; a browser over
// ROPC-free modern authentication is not.
func TestEntraLegacyClientIsReadBesideItsProtocol(t *testing.T) {
	signIn := map[string]any{
		"userPrincipalName": "a.okafor@tidewell.example", "ipAddress": "3.236.58.142",
		"appDisplayName": "Office 365 Exchange Online", "authenticationProtocol": "ropc",
		"clientAppUsed": "IMAP4", "userAgent": "Mozilla/5.0",
		"status":                    map[string]any{"errorCode": 0},
		"authenticationRequirement": "singleFactorAuthentication",
	}
	checkFires(t, "identity.legacy_auth_success", "suspicious_login", "medium", []fireCase{
		{"IMAP4 over ROPC", signIn, true},
		{"the basic-auth bridge's user agent", withFields(signIn, map[string]any{"clientAppUsed": "Mobile Apps and Desktop clients", "userAgent": "BAV2ROPC"}), true},
		{"a browser", withFields(signIn, map[string]any{"clientAppUsed": "Browser", "authenticationProtocol": "none"}), false},
	})
}
