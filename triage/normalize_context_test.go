package triage

import (
	"encoding/base64"
	"fmt"
	"testing"
	"unicode/utf16"
)

func entraEvent(user, ip string, code int, detail, at string) map[string]any {
	return map[string]any{
		"userPrincipalName": user, "ipAddress": ip, "createdDateTime": at, "clientAppUsed": "Browser",
		"status":                map[string]any{"errorCode": code},
		"authenticationDetails": []any{map[string]any{"authenticationStepResultDetail": detail}},
	}
}

func TestSignInChainCountsWhatSurroundsTheLastSuccess(t *testing.T) {
	var spray []any
	for i := range 6 {
		spray = append(spray, entraEvent(fmt.Sprintf("u%d@contoso.com", i), "45.88.97.214", 50126, "Invalid password", fmt.Sprintf("2025-10-15T03:1%d:00Z", i)))
	}
	spray = append(spray, entraEvent("victim@contoso.com", "45.88.97.214", 0, "Correct password", "2025-10-15T03:17:00Z"))

	var fatigue []any
	for i := range 4 {
		fatigue = append(fatigue, entraEvent("x@contoso.com", "89.248.163.70", 500121, "MFA denied; user declined the authentication", fmt.Sprintf("2025-10-26T01:1%d:00Z", i)))
	}
	fatigue = append(fatigue, entraEvent("x@contoso.com", "89.248.163.70", 0, "MFA successfully completed", "2025-10-26T01:19:00Z"))

	tests := []struct {
		name                         string
		events                       []any
		user                         string
		targeted, denied, failedSelf int
	}{
		{"spray then success", spray, "victim@contoso.com", 6, 0, 0},
		{"prompts refused then approved", fatigue, "x@contoso.com", 0, 4, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := readIdentityFields(signInView(map[string]any{"value": tt.events}))
			if f.User != tt.user || f.Result != "success" {
				t.Fatalf("focus = %s %s, want the success of %s", f.User, f.Result, tt.user)
			}
			if f.TargetedUsers != tt.targeted || f.PushDenied != tt.denied || f.FailedAttempts != tt.failedSelf {
				t.Errorf("targeted %d denied %d failed %d, want %d %d %d", f.TargetedUsers, f.PushDenied, f.FailedAttempts, tt.targeted, tt.denied, tt.failedSelf)
			}
		})
	}
}

func TestSignInChainTellsAPhoneSwapFromFactorRemoval(t *testing.T) {
	ev := func(kind, ip, at string) map[string]any {
		return map[string]any{"eventType": kind, "published": at, "actor": map[string]any{"alternateId": "u@contoso.com"},
			"client": map[string]any{"ipAddress": ip}, "outcome": map[string]any{"result": "SUCCESS"}}
	}
	swap := []any{ev("user.authentication.auth_via_mfa", "198.51.100.1", "2025-10-25T13:05:00Z"),
		ev("user.mfa.factor.activate", "198.51.100.1", "2025-10-25T13:06:00Z"),
		ev("user.mfa.factor.deactivate", "198.51.100.1", "2025-10-25T13:07:00Z")}
	if f := readIdentityFields(signInView(map[string]any{"events": swap})); f.AccountTamper {
		t.Error("adding a factor and then removing the old one from the same address counts as tampering")
	}
	removal := []any{swap[0], ev("user.mfa.factor.deactivate", "203.0.113.9", "2025-10-25T13:07:00Z")}
	if f := readIdentityFields(signInView(map[string]any{"events": removal})); !f.AccountTamper {
		t.Error("a factor removed after a sign-in, with no new factor enrolled, does not count as tampering")
	}
}

func TestDecodePowerShellReadsEncodedCommands(t *testing.T) {
	script := "$exec_wrapper = [ScriptBlock]::Create($x)"
	units := utf16.Encode([]rune(script))
	raw := make([]byte, 0, 2*len(units))
	for _, u := range units {
		raw = append(raw, byte(u), byte(u>>8))
	}
	// PowerShell accepts any abbreviation of -EncodedCommand, and -ec.
	for _, flag := range []string{"-EncodedCommand", "-enc", "-e", "-EC"} {
		cmd := "PowerShell -NoProfile -ExecutionPolicy Bypass " + flag + " " + base64.StdEncoding.EncodeToString(raw)
		if got := decodePowerShell(cmd); got != "$exec_wrapper = [scriptblock]::create($x)" {
			t.Errorf("decodePowerShell(%s ...) = %q", flag, got)
		}
	}
	if got := decodePowerShell("powershell -File run.ps1"); got != "" {
		t.Errorf("decodePowerShell without an encoded command = %q, want empty", got)
	}
}

func TestAccountAndClientClassifiers(t *testing.T) {
	for user, want := range map[string]bool{
		"svc_backup": true, "CONTOSO\\svc-winpatch": true, "reports-service@contoso.com": true, "HR-WS-044$": true,
		"s.ward@contoso.com": false, "service.desk.lead": true, "savanna.c": false,
	} {
		if got := serviceAccount(user); got != want {
			t.Errorf("serviceAccount(%q) = %v, want %v", user, got, want)
		}
	}
	for ua, want := range map[string]bool{
		"axios/1.7.9": true, "python-requests/2.31.0": true, "Go-http-client/2.0": true,
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36": false, "Microsoft Office/16.0": false,
	} {
		if got := scriptedUserAgent(ua); got != want {
			t.Errorf("scriptedUserAgent(%q) = %v, want %v", ua, got, want)
		}
	}
}

func TestSameBrandDomain(t *testing.T) {
	tests := []struct {
		host, sender string
		want         bool
	}{
		{"na4.docusign.net", "docusign.net", true},
		{"www.docusign.com", "docusign.net", true},
		{"click.e.tableau.com", "e.tableau.com", true},
		{"contoso.sharepoint.com", "sharepoint.com", false},
		{"docusign.net.evil.example", "docusign.net", false},
		{"sharefile-docs.pages.dev", "pages.dev", false},
	}
	for _, tt := range tests {
		if got := sameBrandDomain(tt.host, tt.sender); got != tt.want {
			t.Errorf("sameBrandDomain(%q, %q) = %v, want %v", tt.host, tt.sender, got, tt.want)
		}
	}
}

func TestGatewayJudgementIsReadWithItsConfidence(t *testing.T) {
	tests := []struct {
		name             string
		raw              map[string]any
		threat, conf     string
		impersonated     bool
		newDomain, alike bool
	}{
		{"defender low confidence", map[string]any{"ThreatTypes": "Phish", "ConfidenceLevel": `{"Phish":"Low"}`}, "phish", "low", false, false, false},
		{"proofpoint impostor score", map[string]any{"impostorScore": 92, "phishScore": 18}, "impostor", "high", false, false, false},
		{"proofpoint quiet scores", map[string]any{"impostorScore": 0, "phishScore": 12, "classification": "phish"}, "phish", "low", false, false, false},
		{"mimecast identifiers", map[string]any{"identifiers": []any{"internal_user_name", "newly_registered_domain"}}, "", "", true, true, false},
		{"suite insights", map[string]any{"summaryInsights": []any{"Lookalike domain of known vendor example.com", "Sender domain registered 4 days ago"}}, "", "", false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := newDoc(tt.raw)
			f := EmailFields{ThreatType: emailThreatType(d), SenderAgeDays: -1}
			readGatewayJudgement(d, &f)
			if f.ThreatType != tt.threat || f.ThreatConfidence != tt.conf || f.ImpersonatedInternal != tt.impersonated || f.NewDomain != tt.newDomain || f.Lookalike != tt.alike {
				t.Errorf("got threat %q conf %q impersonated %v new %v lookalike %v", f.ThreatType, f.ThreatConfidence, f.ImpersonatedInternal, f.NewDomain, f.Lookalike)
			}
		})
	}
}
