package triage

import "testing"

func TestCiscoESAEngineVerdictsAndAttachments(t *testing.T) {
	tests := []struct {
		name             string
		raw              map[string]any
		threat, conf     string
		spf, attachments string
	}{
		{"anti-virus positive", map[string]any{
			"ESAMID": "1", "ESAFriendlyFrom": "Billing <billing@example.net>", "duser": "a@example.org",
			"ESAAVVerdict": "POSITIVE", "ESAAMPVerdict": "UNKNOWN", "ESAOFVerdict": "NEGATIVE", "ESAASVerdict": "NEGATIVE",
			"ESASPFVerdict":        "{'mailfrom': {'result': 'Fail', 'sender': 'x@example.net'}, 'helo': {'result': 'Pass'}}",
			"ESAAttachmentDetails": "{'report.iso': {'AMP': {'Verdict': 'UNKNOWN'}}}",
		}, "malware", "", "fail", "report.iso"},
		{"outbreak filter at a low threat level only rewrites", map[string]any{
			"ESAMID": "2", "ESAFriendlyFrom": "Sign <noreply@example.net>", "duser": "a@example.org",
			"ESAAVVerdict": "NEGATIVE", "ESAOFVerdict": "POSITIVE", "ESAOFRuleName": "OUTBREAK_0001 Phish threat level 2", "ESAASVerdict": "NEGATIVE",
		}, "phish", "low", "", ""},
		{"every engine negative", map[string]any{
			"ESAMID": "3", "ESAFriendlyFrom": "Voice <voice@example.net>", "duser": "a@example.org",
			"ESAAVVerdict": "NEGATIVE", "ESAAMPVerdict": "CLEAN", "ESAOFVerdict": "NEGATIVE", "ESAASVerdict": "NEGATIVE",
		}, "clean", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := readEmailFields(newDoc(tt.raw), ExtractIndicators(tt.raw))
			if f.ThreatType != tt.threat || f.ThreatConfidence != tt.conf {
				t.Errorf("threat %q/%q, want %q/%q", f.ThreatType, f.ThreatConfidence, tt.threat, tt.conf)
			}
			if f.SPF != tt.spf {
				t.Errorf("spf %q, want %q", f.SPF, tt.spf)
			}
			got := ""
			if len(f.Attachments) > 0 {
				got = f.Attachments[0]
			}
			if got != tt.attachments {
				t.Errorf("attachments %v, want %q", f.Attachments, tt.attachments)
			}
			if f.Sender == "" {
				t.Error("the friendly From was not read as the sender")
			}
		})
	}
}

func TestHeaderFromWinsOverEnvelopeAndSpoofedOwnDomainIsNotInternal(t *testing.T) {
	raw := map[string]any{
		"env_from": "bounce@relay.example.net", "hdr_from": "\"Service Desk\" <help@example.org>",
		"recipients": []any{map[string]any{"email": "a@example.org", "reason_extra": "DMARC policy reject for example.org: SPF fail, DKIM none"}},
		"subject":    "Mailbox full",
	}
	f := readEmailFields(newDoc(raw), ExtractIndicators(raw))
	if f.Sender != "help@example.org" {
		t.Fatalf("sender %q, want the header From", f.Sender)
	}
	if f.DMARC != "fail" || !f.OwnDomainSpoof || f.Internal {
		t.Errorf("dmarc %q spoof %v internal %v, want fail, true, false", f.DMARC, f.OwnDomainSpoof, f.Internal)
	}
}

func TestMessageSignalsNeedNoLink(t *testing.T) {
	tests := []struct {
		name                       string
		body                       string
		callback, extortion, recon bool
		malware                    string
	}{
		{"callback renewal", "Your plan was renewed and $299.99 charged. If you did not authorize this, call +1 (888) 555-0134 to cancel.", true, false, false, ""},
		{"voicemail with a caller number", "New voice message from (614) 555-0143, duration 0:42.", false, false, false, ""},
		{"sextortion", "I hacked your device and recorded you. Pay 0.05 bitcoin to bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh within 48 hours.", false, true, false, ""},
		{"crypto newsletter", "Bitcoin rose 4% this week; see our market report.", false, false, false, ""},
		{"payments contact question", "Hi, who handles supplier invoices at your company?", false, false, true, ""},
		{"a newsletter naming a family", "This week: Emotet returns with OneNote lures (Trojan:Win32/Emotet.PX).", false, false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := map[string]any{"senderAddress": "a@example.net", "recipientAddress": "b@example.org", "subject": "Notice", "body": tt.body}
			f := readEmailFields(newDoc(raw), ExtractIndicators(raw))
			if f.CallbackLure != tt.callback || f.Extortion != tt.extortion || f.PaymentRecon != tt.recon || f.MalwareName != tt.malware {
				t.Errorf("callback %v extortion %v recon %v malware %q, want %v %v %v %q", f.CallbackLure, f.Extortion, f.PaymentRecon, f.MalwareName, tt.callback, tt.extortion, tt.recon, tt.malware)
			}
		})
	}
}

func TestConsoleLinksAndTypeTagsAreNotMessageContent(t *testing.T) {
	for _, u := range []string{"https://portal.checkpoint.com/dashboard/x", "https://security.microsoft.com/alerts/1", "https://protect-us.mimecast.com/s/abc", "https://urldefense.com/v3/__https://x"} {
		if !consoleLink(u) {
			t.Errorf("%s is a console or rewriting link", u)
		}
	}
	if consoleLink("https://www.example.com/portal") {
		t.Error("an ordinary link is not a console link")
	}
	ind := ExtractIndicators(map[string]any{"@odata.type": "#microsoft.graph.security.alert", "@type": "type.googleapis.com/google.apps.alertcenter.type.MailPhishing"})
	if len(ind.Domains) != 0 {
		t.Errorf("type tags read as domains: %v", ind.Domains)
	}
}

func TestGatewayConfidenceOutOfAHundred(t *testing.T) {
	for _, tt := range []struct {
		confidence float64
		want       string
	}{{41, "low"}, {65, ""}, {94, "high"}} {
		raw := map[string]any{"senderAddress": "a@example.net", "verdict": "phishing", "confidence": tt.confidence}
		f := readEmailFields(newDoc(raw), ExtractIndicators(raw))
		if f.ThreatConfidence != tt.want {
			t.Errorf("confidence %v read as %q, want %q", tt.confidence, f.ThreatConfidence, tt.want)
		}
	}
}

func TestMoreBrandsAreKnown(t *testing.T) {
	if l, ok := brandLookalike("intuit-quickbooks-payments.com"); !ok || l.target != "intuit" {
		t.Errorf("intuit-quickbooks-payments.com: %+v %v", l, ok)
	}
	for _, host := range []string{"notification.intuit.com", "mail.hellosign.com", "service.ringcentral.com"} {
		if _, ok := ownerBrand(host); !ok {
			t.Errorf("%s belongs to its brand", host)
		}
	}
}

func TestIndicatorObjectsAreIndexedByFieldAndType(t *testing.T) {
	d := newDoc(map[string]any{"indicators": []any{
		map[string]any{"id": 4, "type": "command_line", "field": "processCmd", "value": "wscript.exe a.js", "provenance": []any{"Alert"}},
		map[string]any{"id": 5, "type": "url", "field": "mailUrlsRealLink", "value": "https://example.net/a.zip"},
	}})
	if got := d.str("commandline"); got != "wscript.exe a.js" {
		t.Errorf("by type: %q", got)
	}
	if got := d.str("processcmd"); got != "wscript.exe a.js" {
		t.Errorf("by field: %q", got)
	}
	if got := d.str("mailurlsreallink"); got != "https://example.net/a.zip" {
		t.Errorf("url by field: %q", got)
	}
}

func TestSandboxVerdictNamesTheFamily(t *testing.T) {
	raw := map[string]any{"senderAddress": "a@example.net", "recipientAddress": "b@example.org", "subject": "Statement",
		"attachments": []any{map[string]any{"fileName": "statement.one", "sandboxResult": "malicious (Trojan:Win32/Emotet.PX)"}}}
	f := readEmailFields(newDoc(raw), ExtractIndicators(raw))
	if f.MalwareName != "trojan:win32/emotet.px" {
		t.Errorf("malware name %q", f.MalwareName)
	}
}

func TestEmailSuitesAreRecognisedWhateverTheIncidentType(t *testing.T) {
	for name, raw := range map[string]map[string]any{
		"abnormal":       {"threats": []any{map[string]any{"abxMessageId": 1, "fromAddress": "a@example.net", "attackType": "Extortion"}}},
		"check point":    {"entity": map[string]any{"entityPayload": map[string]any{"fromEmail": "a@example.net"}, "entitySecurityResult": map[string]any{"ap": map[string]any{"verdict": "phishing"}}}},
		"barracuda":      {"env_from": "b@relay.example.net", "hdr_from": "a@example.net", "hdr_to": "c@example.org"},
		"google alerts":  {"type": "User reported phishing", "data": map[string]any{"maliciousEntity": map[string]any{"fromHeader": "a@example.net"}, "messages": []any{map[string]any{"recipient": "c@example.org"}}}},
		"cisco consolid": {"ESAMID": "1", "suser": "a@example.net", "duser": "c@example.org"},
	} {
		d := newDoc(raw)
		if shape, _ := detectShape(raw, d); shape != "email" {
			t.Errorf("%s: shape %q, want email", name, shape)
		}
	}
}
