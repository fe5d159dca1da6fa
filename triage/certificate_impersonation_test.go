package triage

import "testing"

// A certificate used to authenticate as another account (ATT&CK T1649,
// a PKINIT logon whose certificate names someone else, Certify or
// Certipy) is read as the directory's credentials stolen; a smart-card
// PKINIT logon that names no one else is not.
func TestCertificateImpersonation(t *testing.T) {
	checkFires(t, "alert.certificate_impersonation", "suspicious_login", "high", []fireCase{
		{"technique", map[string]any{"title": "Suspicious certificate usage over Kerberos protocol (PKINIT)", "mitreTechniques": []any{"T1649"}}, true},
		{"PKINIT with another user's SAN", map[string]any{"title": "Unusual certificate logon",
			"description": "WS-207 authenticated as Administrator using PKINIT; the certificate's SAN contains upn=administrator@corp.example."}, true},
		{"Certipy", map[string]any{"title": "Certipy request detected", "CommandLine": "certipy req -template WebServer"}, true},
		{"smart-card logon", map[string]any{"title": "Logon with smart card", "description": "User signed in with PKINIT from a managed workstation."}, false},
	})
}
