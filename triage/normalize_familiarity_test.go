package triage

import "testing"

func TestAgeInDaysReadsAgesWrittenWithTheirUnit(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"2 days", 2},
		{"1 day", 1},
		{"3 weeks", 21},
		{"2 months", 60},
		{"15 years", 5475},
		{"unknown", -1},
		{"", -1},
	}
	for _, tt := range tests {
		if got := ageInDays([]string{tt.in}); got != tt.want {
			t.Errorf("ageInDays(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestEmailFamiliarityFromGatewayFields(t *testing.T) {
	tests := []struct {
		name                              string
		raw                               map[string]any
		firstContact, unscannable, hijack bool
		ageDays                           int
	}{
		{"first contact with an encrypted document", map[string]any{
			"senderAddress": "a@example.org", "firstTimeSender": true, "senderDomainAge": "2 months",
			"attachments": []any{map[string]any{"fileName": "statement.pdf", "encrypted": true}},
		}, true, true, false, 60},
		{"tip text, no attachment to hide anything", map[string]any{
			"senderAddress": "a@example.org", "Tip": "First time you've received email from this sender",
		}, true, false, false, -1},
		{"supplier mailbox reported taken over", map[string]any{
			"senderAddress": "billing@supplier.example", "summaryInsights": []any{"Vendor account shows signs of compromise"},
		}, false, false, true, -1},
		{"ordinary known sender", map[string]any{
			"senderAddress": "news@vendor.example", "senderDomainAge": "12 years",
			"attachments": []any{map[string]any{"fileName": "agenda.pdf"}},
		}, false, false, false, 4380},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := readEmailFields(newDoc(tt.raw), ExtractIndicators(tt.raw))
			if f.FirstContact != tt.firstContact || f.UnscannableAttachment != tt.unscannable || f.SenderCompromised != tt.hijack {
				t.Errorf("first contact %v unscannable %v compromised %v, want %v %v %v", f.FirstContact, f.UnscannableAttachment, f.SenderCompromised, tt.firstContact, tt.unscannable, tt.hijack)
			}
			if f.SenderAgeDays != tt.ageDays {
				t.Errorf("sender age %d days, want %d", f.SenderAgeDays, tt.ageDays)
			}
		})
	}
}

func TestDuoApproverPlaceAndFactor(t *testing.T) {
	log := func(factor, accessCountry, phoneCountry, trust string) map[string]any {
		return map[string]any{
			"event_type": "authentication", "factor": factor, "result": "success",
			"user":                    map[string]any{"name": "u"},
			"email":                   "u@contoso.com",
			"access_device":           map[string]any{"ip": "198.51.100.1", "location": map[string]any{"country": accessCountry}},
			"auth_device":             map[string]any{"ip": "203.0.113.9", "location": map[string]any{"country": phoneCountry}},
			"trusted_endpoint_status": trust,
		}
	}
	tests := []struct {
		name                      string
		raw                       map[string]any
		elsewhere, nearby, bypass bool
		unmanaged                 bool
		mfa                       string
	}{
		{"push approved from another country", log("duo_push", "Nigeria", "United States", "not trusted"), true, false, false, true, "passed"},
		{"push approved in the same country", log("duo_push", "Brazil", "Brazil", "trusted"), false, true, false, false, "passed"},
		{"bypass code", log("bypass_code", "Portugal", "", "not trusted"), false, false, true, true, "not_required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := readIdentityFields(tt.raw)
			if f.ApproverElsewhere != tt.elsewhere || f.ApproverNearby != tt.nearby || f.BypassCode != tt.bypass || f.DeviceUnmanaged != tt.unmanaged {
				t.Errorf("elsewhere %v nearby %v bypass %v unmanaged %v, want %v %v %v %v", f.ApproverElsewhere, f.ApproverNearby, f.BypassCode, f.DeviceUnmanaged, tt.elsewhere, tt.nearby, tt.bypass, tt.unmanaged)
			}
			if f.MFA != tt.mfa {
				t.Errorf("mfa %q, want %q", f.MFA, tt.mfa)
			}
		})
	}
}

func TestRiskOutcomeFromTheProvider(t *testing.T) {
	tests := []struct {
		detail, state         string
		remediated, dismissed bool
		mfa                   string
	}{
		{"userPassedMFADrivenByRiskBasedPolicy", "remediated", true, false, "passed"},
		{"userPerformedSecuredPasswordReset", "remediated", true, false, ""},
		{"adminConfirmedSigninSafe", "dismissed", false, true, ""},
		{"none", "atRisk", false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.detail, func(t *testing.T) {
			f := &IdentityFields{}
			readRiskOutcome(f, newDoc(map[string]any{"riskDetail": tt.detail, "riskState": tt.state}))
			if f.RiskRemediated != tt.remediated || f.RiskDismissed != tt.dismissed || f.MFA != tt.mfa {
				t.Errorf("remediated %v dismissed %v mfa %q, want %v %v %q", f.RiskRemediated, f.RiskDismissed, f.MFA, tt.remediated, tt.dismissed, tt.mfa)
			}
		})
	}
}

func TestVendorVerdictIgnoresACleanAttachmentSandbox(t *testing.T) {
	tests := []struct {
		name string
		raw  map[string]any
		want string
	}{
		{"sandbox found nothing in the attachment", map[string]any{"attachments": []any{map[string]any{"fileName": "notice.pdf", "sandboxResult": "safe"}}}, ""},
		{"sandbox found malware", map[string]any{"attachments": []any{map[string]any{"fileName": "inv.docm", "sandboxResult": "malicious"}}}, "malicious"},
		// A clean URL scan is not a resolution either: Mimecast logs it for
		// an uncategorised page the user went on to past the warning.
		{"URL scan verdict on a click log", map[string]any{"scanResult": "clean", "url": "https://contoso.sharepoint.com/sites/hr"}, ""},
		{"URL scan found the page malicious", map[string]any{"scanResult": "malicious", "url": "https://login-contoso.example/o365"}, "malicious"},
		{"analyst resolution", map[string]any{"classification": "falsePositive"}, "false_positive"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, _ := vendorVerdict(newDoc(tt.raw)); got != tt.want {
				t.Errorf("vendor verdict %q, want %q", got, tt.want)
			}
		})
	}
}

func TestQRCodeFromFlagOrText(t *testing.T) {
	for _, tt := range []struct {
		name string
		raw  map[string]any
		want bool
	}{
		{"attachment flag", map[string]any{"senderAddress": "a@example.org", "attachments": []any{map[string]any{"fileName": "a.pdf", "contains_qr_code": true}}}, true},
		{"insight text", map[string]any{"senderAddress": "a@example.org", "summaryInsights": []any{"QR code in attachment links to an external login page"}}, true},
		{"none", map[string]any{"senderAddress": "a@example.org", "subject": "Agenda"}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if f := readEmailFields(newDoc(tt.raw), ExtractIndicators(tt.raw)); f.QRCode != tt.want {
				t.Errorf("qr code %v, want %v", f.QRCode, tt.want)
			}
		})
	}
}
