package triage

// Payloads below are modelled on what email security gateways, EDR products
// and identity providers actually send, including their field-name quirks.
const (
	phishLookalikeCredential = `{
		"event_type": "user_reported_phish",
		"message": {
			"sender": "Microsoft Security <security@micros0ft-support.com>",
			"recipients": ["alice.jones@contoso.com"],
			"subject": "Action required: unusual sign-in activity",
			"urls": ["https://micros0ft-support.com/login/verify?user=alice.jones@contoso.com"],
			"headers": {"Authentication-Results": "mx.contoso.com; spf=pass smtp.mailfrom=micros0ft-support.com; dkim=pass header.d=micros0ft-support.com; dmarc=pass"}
		}
	}`

	// Minimal version: only the look-alike sender and the credential link.
	phishLookalikeOnly = `{
		"sender": "security@micros0ft-support.com",
		"recipient": "alice.jones@contoso.com",
		"subject": "Mailbox notice",
		"links": [{"url": "https://micros0ft-support.com/login/verify?user=alice.jones", "display_text": "Review activity"}]
	}`

	phishNewsletterSubstack = `{
		"sender": "The Weekly Threat Brief <news@substack.com>",
		"to": "alice.jones@contoso.com",
		"subject": "Issue #112: patch Tuesday recap",
		"urls": ["https://threatbrief.substack.com/p/issue-112", "https://substack.com/redirect/2/eyJlIjoiaHR0cHMifQ"],
		"headers": {
			"List-Unsubscribe": "<https://threatbrief.substack.com/action/disable_email?token=abc>",
			"Authentication-Results": "mx.contoso.com; spf=pass smtp.mailfrom=substack.com; dkim=pass header.d=substack.com; dmarc=pass header.from=substack.com"
		}
	}`

	phishNewsletterMailchimp = `{
		"from": {"name": "Acme Outdoor", "address": "hello@acme-outdoor.com"},
		"recipients": [{"address": "bob@contoso.com"}],
		"subject": "Spring sale starts now",
		"spf": "pass",
		"dkim": {"result": "pass", "domain": "mcsv.net"},
		"headers": [
			{"name": "List-Unsubscribe", "value": "<https://acmeoutdoor.us1.list-manage.com/unsubscribe?u=1&id=2>"},
			{"name": "X-Mailer", "value": "MailChimp Mailer - **CID1234**"}
		],
		"urls": ["https://acmeoutdoor.us1.list-manage.com/track/click?u=1&id=3"]
	}`

	phishMiddle = `{
		"sender": "IT Helpdesk <it-helpdesk@mailbox-notices.net>",
		"reply_to": "helpdesk.desk@gmail.com",
		"recipients": ["carol@contoso.com"],
		"subject": "Your mailbox is almost full",
		"body": "Your quota will be exceeded. Action required: expand storage within 24 hours at https://mailbox-notices.net/storage/expand",
		"spf": "softfail"
	}`

	phishDisguisedAttachment = `{
		"sender": "accounts@vendor-billing.io",
		"recipients": ["dave@contoso.com"],
		"subject": "Remittance advice",
		"attachments": [{"file_name": "Remittance_0423.pdf.html", "size": 4211}],
		"spf": "fail", "dmarc": "fail"
	}`

	phishPasswordZip = `{
		"sender": "Scanner <scanner@printfleet-services.com>",
		"recipients": ["dave@contoso.com"],
		"subject": "Scanned document",
		"body": "Your scanned document is attached. Archive password: 4471",
		"attachments": ["Scan_20240514.zip"],
		"dkim": "none", "spf": "pass"
	}`

	phishOrgLookalike = `{
		"data": {
			"sender": {"address": "payroll@c0ntoso.com", "name": "Contoso Payroll"},
			"recipients": [{"address": "frank@contoso.com"}],
			"subject": "Updated direct deposit form",
			"body": "<p>Please confirm your bank details <a href=\"https://c0ntoso.com/hr/password-reset\">here</a>.</p>"
		}
	}`

	phishGenuineMicrosoft = `{
		"sender": "Microsoft account team <account-security-noreply@accountprotection.microsoft.com>",
		"recipients": ["grace@contoso.com"],
		"subject": "Microsoft account security info was added",
		"urls": ["https://account.live.com/proofs/manage", "https://go.microsoft.com/fwlink/?LinkID=246338"],
		"authentication_results": "spf=pass (sender IP is 40.107.0.1) smtp.mailfrom=accountprotection.microsoft.com; dkim=pass header.d=accountprotection.microsoft.com; dmarc=pass action=none header.from=accountprotection.microsoft.com"
	}`

	edrBlockedTrojan = `{
		"detection": {
			"threat_name": "Trojan:Win32/Emotet.RPX!MTB",
			"file_path": "C:\\Users\\kim\\Downloads\\Invoice_7781.exe",
			"sha256": "0f5d3b8e2a1c4d6f7b9e8a0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e",
			"action_taken": "Blocked",
			"severity": "high"
		},
		"device": {"hostname": "SALES-LT-19"}
	}`

	edrRansomware = `{
		"metadata": {"eventType": "DetectionSummaryEvent"},
		"event": {
			"DetectName": "Ransom:Win32/LockBit.B",
			"Severity": 5, "SeverityName": "Critical",
			"HostnameField": "FIN-WS-042",
			"UserName": "CONTOSO\\mpatel",
			"FileName": "svch0st.exe",
			"FilePath": "\\Device\\HarddiskVolume3\\Users\\mpatel\\AppData\\Local\\Temp\\svch0st.exe",
			"CommandLine": "cmd.exe /c vssadmin.exe delete shadows /all /quiet & wbadmin delete catalog -quiet",
			"SHA256String": "9f3c2a1b7e4d5f60718293a4b5c6d7e8f9012a3b4c5d6e7f8091a2b3c4d5e6f7",
			"MD5String": "5d41402abc4b2a76b9719d911017c592",
			"PatternDispositionDescription": "Detection, standard detection."
		}
	}`

	edrAdware = `{
		"alert": {
			"title": "PUA:Win32/Presenoker",
			"category": "UnwantedSoftware",
			"severity": "Low",
			"device": {"computerDnsName": "mkt-lt-007.contoso.local"},
			"evidence": [{"fileName": "BrowserAssistantSetup.exe", "filePath": "C:\\Users\\jlee\\Downloads", "sha1": "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3"}]
		}
	}`

	edrEncodedPowerShell = `{
		"DetectName": "Suspicious PowerShell execution",
		"HostnameField": "HR-WS-011",
		"CommandLine": "powershell.exe -nop -w hidden -enc SQBFAFgAIAAoAE4AZQB3AC0ATwBiAGoAZQBjAHQAIABOAGUAdAAuAFcAZQBiAEMAbABpAGUAbgB0ACkA",
		"ParentImage": "C:\\Program Files\\Microsoft Office\\root\\Office16\\WINWORD.EXE",
		"severity": "high"
	}`

	loginTakeover = `{
		"eventType": "user.session.start",
		"actor": {"alternateId": "admin.jsmith@contoso.com", "displayName": "J Smith (Admin)"},
		"is_admin": true,
		"published": "2024-05-14T09:42:00Z",
		"client": {
			"ipAddress": "185.220.101.45",
			"geographicalContext": {"country": "Netherlands", "city": "Amsterdam", "geolocation": {"lat": 52.37, "lon": 4.89}},
			"network": {"type": "Tor exit node"}
		},
		"previous_login": {
			"published": "2024-05-14T09:05:00Z",
			"ip": "198.51.100.23",
			"geo": {"country": "United States", "lat": 40.71, "lon": -74.0}
		},
		"mfa": {"factor": "push", "push_denied": 7, "result": "approved"},
		"outcome": {"result": "SUCCESS"}
	}`

	loginKnownDevice = `{
		"user": "alice.jones@contoso.com",
		"src_ip": "203.0.113.77",
		"geo": {"country": "US", "city": "Boston"},
		"usual_countries": ["US", "CA"],
		"device": {"known_device": true, "os": "macOS 14.4"},
		"user_agent": "Mozilla/5.0 (Macintosh) Chrome/124.0.0.0 Safari/537.36",
		"outcome": "success"
	}`

	loginMFAPassedOnly = `{"user": "bob@contoso.com", "ip": "192.0.2.50", "mfa_result": "success"}`

	loginBruteForce = `{
		"user": "svc-backup@contoso.com",
		"src_ip": "45.83.64.12",
		"country": "RU",
		"usual_countries": ["US"],
		"failed_attempts": 8,
		"result": "success"
	}`

	genericDLP = `{
		"rule": "DLP - credit card numbers in outbound mail",
		"user": "erin@contoso.com",
		"destination": "partner-billing.com",
		"matches": 14
	}`

	phishLookalikeViaESP = `{
		"sender": "DocuSign <dse@docusign-envelopes.net>",
		"recipients": ["henry@contoso.com"],
		"subject": "Please DocuSign: Q2 contract",
		"urls": ["https://docusign-envelopes.net/signin/review?env=8812"],
		"headers": {
			"X-SG-EID": "abc123",
			"Return-Path": "bounces+1234@em.sendgrid.net",
			"List-Unsubscribe": "<mailto:unsub@sendgrid.net>",
			"Authentication-Results": "spf=pass smtp.mailfrom=em.sendgrid.net; dkim=pass header.d=docusign-envelopes.net; dmarc=pass"
		}
	}`

	phishNewsletterWithCredentialLink = `{
		"sender": "Updates <news@club-rewards.org>",
		"recipients": ["ivan@contoso.com"],
		"subject": "Your rewards",
		"urls": ["https://club-rewards-portal.net/account/verify?id=19"],
		"headers": {"X-Mailer": "MailChimp Mailer", "List-Unsubscribe": "<https://club.us5.list-manage.com/unsubscribe>"},
		"spf": "pass", "dkim": "pass"
	}`

	phishPersonalMail = `{
		"sender": "Chase Smith <chase.smith@gmail.com>",
		"recipients": ["judy@contoso.com"],
		"subject": "Lunch on Friday?",
		"body": "See the menu at https://www.economicoutlook-cafe.com/menu"
	}`
)
