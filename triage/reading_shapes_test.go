package triage

import "testing"

// TestHeadersFiledAsHeaderAndDataAreRead holds that a header list of
// {header, data} objects (KnowBe4 PhishER) is read like {name, value}.
func TestHeadersFiledAsHeaderAndDataAreRead(t *testing.T) {
	raw := map[string]any{"subject": "Please DocuSign: Wire Instructions", "from": "dse_na4@docusign.net",
		"headers": []any{
			map[string]any{"header": "Authentication-Results", "data": "spf=pass smtp.mailfrom=docusign.net; dkim=pass header.d=docusign.net; dmarc=pass header.from=docusign.net", "order": 2.0},
			map[string]any{"header": "Reply-To", "data": "Carrington Title <closings@carringtontitle-escrow.com>", "order": 4.0},
		}}
	f := normalize(Incident{IncidentType: kindPhishing, RawData: raw}, Indicators{}).Email
	if f.SPF != "pass" || f.DMARC != "pass" {
		t.Errorf("authentication read as spf %q dmarc %q, want pass", f.SPF, f.DMARC)
	}
	if f.ReplyToDomain != "carringtontitle-escrow.com" {
		t.Errorf("reply-to domain %q", f.ReplyToDomain)
	}
}

// TestAFileTimeIsNoCountOfFilesModified holds that a file record's
// "modified" time, which a nested "files" list indexes as filesmodified,
// does not read as thousands of files modified.
func TestAFileTimeIsNoCountOfFilesModified(t *testing.T) {
	raw := map[string]any{"match": map[string]any{"event": map[string]any{"path": "/Library/LaunchDaemons/com.google.keystone.daemon.plist"}},
		"related": map[string]any{"files": []any{map[string]any{"path": "/Library/LaunchDaemons/com.google.keystone.daemon.plist", "modified": 1756203311.0}}}}
	if normalize(Incident{IncidentType: kindMalware, RawData: raw}, Indicators{}).Endpoint.MassRename {
		t.Error("a Unix time read as a count of files modified")
	}
	raw = map[string]any{"process": map[string]any{"name": "x.exe"}, "filesModified": 4210.0}
	if !normalize(Incident{IncidentType: kindMalware, RawData: raw}, Indicators{}).Endpoint.MassRename {
		t.Error("a count of files modified was not read")
	}
}

// TestAnAuthenticationSummaryInWordsIsRead holds that SPF, DKIM and DMARC
// results written in words ("SPF pass (docusign.net), DKIM pass") are read
// like the header's "spf=pass".
func TestAnAuthenticationSummaryInWordsIsRead(t *testing.T) {
	raw := map[string]any{"type": "User reported phishing", "source": "Gmail phishing",
		"data":          map[string]any{"maliciousEntity": map[string]any{"fromHeader": "dse_NA4@docusign.net"}, "messages": []any{map[string]any{"recipient": "m.delgado@contoso.com"}}},
		"investigation": map[string]any{"authentication": "SPF pass (docusign.net), DKIM pass d=docusign.net, DMARC pass"}}
	f := normalize(Incident{IncidentType: kindPhishing, RawData: raw}, Indicators{}).Email
	if f.SPF != "pass" || f.DKIM != "pass" || f.DMARC != "pass" {
		t.Errorf("read spf %q dkim %q dmarc %q, want pass", f.SPF, f.DKIM, f.DMARC)
	}
}

// TestARawHeaderBlockIsReadForAuthentication holds that a quarantine
// record carrying the raw header block as one text gives the receiving
// server's Authentication-Results.
func TestARawHeaderBlockIsReadForAuthentication(t *testing.T) {
	raw := map[string]any{"SenderAddress": "billing@adatum.com", "RecipientAddress": []any{"ap-team@contoso.com"}, "Type": "High Confidence Phish",
		"Header": "Received: from PH0PR17MB4928.namprd17.prod.outlook.com\r\nAuthentication-Results: spf=pass (sender IP is 40.107.94.52) smtp.mailfrom=adatum.com; dkim=pass (signature was verified) header.d=adatum.com;dmarc=pass action=none header.from=adatum.com\r\nFrom: Adatum Billing <billing@adatum.com>"}
	f := normalize(Incident{IncidentType: kindPhishing, RawData: raw}, Indicators{}).Email
	if f.SPF != "pass" || f.DKIM != "pass" || f.DMARC != "pass" {
		t.Errorf("read spf %q dkim %q dmarc %q, want pass", f.SPF, f.DKIM, f.DMARC)
	}
}

// TestMimecastsScanResultIsItsVerdict holds that a Mimecast attachment
// protect log's "result" beside the action it triggered is the sandbox's
// verdict, while a bare "result" elsewhere clears nothing.
func TestMimecastsScanResultIsItsVerdict(t *testing.T) {
	raw := map[string]any{"senderAddress": "ebilling@grainger.com", "recipientAddress": "invoices@example.org", "fileName": "Invoice_9384717205.pdf",
		"result": "safe", "actionTriggered": "none, sandbox", "definition": "Inbound - Attachment Protect (Safe File with On-Demand Sandbox)"}
	a := normalize(Incident{IncidentType: kindPhishing, RawData: raw}, Indicators{}).Alert
	if a.VendorVerdict != "false_positive" || a.VendorVerdictSource != "analysed" {
		t.Errorf("verdict %q from %q, want the sandbox clearing the file", a.VendorVerdict, a.VendorVerdictSource)
	}
	raw["result"] = "malicious"
	if a := normalize(Incident{IncidentType: kindPhishing, RawData: raw}, Indicators{}).Alert; a.VendorVerdict != "malicious" {
		t.Errorf("a malicious scan read as %q", a.VendorVerdict)
	}
	delete(raw, "actionTriggered")
	raw["result"] = "safe"
	if a := normalize(Incident{IncidentType: kindPhishing, RawData: raw}, Indicators{}).Alert; a.VendorVerdict != "" {
		t.Errorf("a bare result read as verdict %q", a.VendorVerdict)
	}
}

// TestAClickLogsUserIsTheRecipient holds that the user a Mimecast click
// log names (userEmailAddress) is a recipient, so a colleague's link to
// the organisation's own SharePoint tenant is its own ground.
func TestAClickLogsUserIsTheRecipient(t *testing.T) {
	raw := map[string]any{"data": []any{map[string]any{"clickLogs": []any{map[string]any{
		"userEmailAddress": "r.haddad@northwindtraders.com", "fromUserEmailAddress": "s.berg@northwindtraders.com",
		"url": "https://northwindtraders.sharepoint.com/:x:/s/Finance/EbQ2r8fT1YpKq0xM3oLr9sABc?e=Xy12Ab", "scanResult": "clean", "route": "internal"}}}}}
	f := normalize(Incident{IncidentType: kindPhishing, RawData: raw}, ExtractIndicators(raw)).Email
	if !f.Internal || f.OwnTenantLinks != 1 {
		t.Errorf("internal %v, own tenant links %d; want true and 1", f.Internal, f.OwnTenantLinks)
	}
}

// TestAGmailLogSearchNamesTheOrganisationAndItsRecipients holds that a
// Gmail log search export gives the organisation's primary domain and the
// envelope recipients, so a look-alike of that domain is caught, and that
// its "Not spam" classification is no spam verdict.
func TestAGmailLogSearchNamesTheOrganisationAndItsRecipients(t *testing.T) {
	raw := map[string]any{"data_source": "Gmail log events", "primary_domain": "kestrelfin.com",
		"rows": []any{map[string]any{"Event": "Receive", "From (Header address)": "payroll@kestre1fin.com", "To (Envelope)": "t.harper@kestrelfin.com",
			"Subject": "Action required: confirm direct deposit details", "Spam classification": "Not spam", "Link domain": []any{"kestre1fin-hr.com"}}}}
	f := normalize(Incident{IncidentType: kindPhishing, RawData: raw}, ExtractIndicators(raw)).Email
	if !f.Lookalike {
		t.Error("kestre1fin.com was not read as imitating kestrelfin.com")
	}
	if f.ThreatType == "spam" {
		t.Error("\"Not spam\" read as a spam verdict")
	}
}
