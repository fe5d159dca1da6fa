package triage

import "testing"

// Gmail's log states authentication as booleans and files the From header
// and the recipients under names of its own; a spoof of the
// organisation's own domain is read from them.
func TestGmailLogAuthenticationAndOwnDomainSpoof(t *testing.T) {
	raw := mustJSON(t, `{"message_info":{"subject":"Change to my direct deposit",
		"source":{"address":"bounce-4471@mailhost-eu.xyz","from_header_address":"a.whitfield@brightwater.org"},
		"destination":[{"address":"payroll@brightwater.org","service":"gmail-ui"}],
		"connection_info":{"client_ip":"203.0.113.140","spf_pass":false,"dkim_pass":false,"dmarc_pass":false}}}`)
	f := normalize(Incident{IncidentType: "phishing", RawData: raw}, Indicators{})
	if f.Email.Sender != "a.whitfield@brightwater.org" || f.Email.SPF != "fail" || f.Email.DMARC != "fail" || !f.Email.OwnDomainSpoof {
		t.Fatalf("sender %q spf %q dmarc %q own-domain spoof %v", f.Email.Sender, f.Email.SPF, f.Email.DMARC, f.Email.OwnDomainSpoof)
	}
	raw["message_info"].(map[string]any)["connection_info"] = map[string]any{"spf_pass": true, "dkim_pass": true, "dmarc_pass": true}
	if f := normalize(Incident{IncidentType: "phishing", RawData: raw}, Indicators{}); f.Email.DMARC != "pass" || f.Email.OwnDomainSpoof {
		t.Fatalf("authenticated internal mail: dmarc %q, own-domain spoof %v", f.Email.DMARC, f.Email.OwnDomainSpoof)
	}
}

// Entra ID's attacker-in-the-middle detection is a session cookie taken
// by a phishing proxy: a token anomaly whose cause is known, malicious at
// any risk level the provider gives it.
func TestAttackerInTheMiddleIsATokenAnomaly(t *testing.T) {
	raw := mustJSON(t, `{"riskEventType":"attackerinTheMiddle","riskLevel":"medium","riskState":"atRisk","ipAddress":"198.51.100.20","userPrincipalName":"n.hartley@contoso.com"}`)
	f := normalize(Incident{IncidentType: "suspicious_login", RawData: raw}, Indicators{})
	if !f.Identity.TokenAnomaly || !f.Identity.PhishingProxy {
		t.Fatalf("token anomaly %v, phishing proxy %v", f.Identity.TokenAnomaly, f.Identity.PhishingProxy)
	}
	if a := analyze(t, Incident{IncidentType: "suspicious_login", Severity: "medium", RawData: raw}); a.Verdict.Classification != ClassMalicious {
		t.Fatalf("%s: %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
	raw["riskEventType"] = "anomalousToken"
	if f := normalize(Incident{IncidentType: "suspicious_login", RawData: raw}, Indicators{}); !f.Identity.TokenAnomaly || f.Identity.PhishingProxy {
		t.Fatalf("anomalous token: token anomaly %v, phishing proxy %v", f.Identity.TokenAnomaly, f.Identity.PhishingProxy)
	}
}

// The anti-virus test file is known by the hashes of the archives EICAR
// publishes it in, and by the names engines give it.
func TestTestFileIsKnownByArchiveHashAndDetectionName(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  map[string]any
		want bool
	}{
		{"eicar_com.zip by SHA-256", map[string]any{"sha256": "2546dcffc5ad854d4ddc64fbf056871cd5a00f2471cb7a5bfd4ac23b6e9eedad"}, true},
		{"detection name", map[string]any{"threat": "EICAR-AV-Test", "path": `C:\Users\qa\Downloads\x.zip`}, true},
		{"Defender's name", map[string]any{"threatName": "Virus:DOS/EICAR_Test_File"}, true},
		{"a gateway's detail line", map[string]any{"details": "Malicious. AV signature: EICAR-Test-File (not a virus)"}, true},
		{"a mail that mentions EICAR", map[string]any{"subject": "How the EICAR test works", "threat": "Trojan:Win32/Emotet"}, false},
	} {
		if got := readAlert(newDoc(tc.raw)).TestFile; got != tc.want {
			t.Errorf("%s: test file %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Carbon Black's reputation words are read by their verdict: KNOWN_MALWARE
// is malware, not a known good file.
func TestReputationVocabulary(t *testing.T) {
	for rep, want := range map[string]string{
		"KNOWN_MALWARE": "malicious", "COMPANY_BLACK_LIST": "malicious", "SUSPECT_MALWARE": "malicious",
		"PUP": "suspicious", "NOT_LISTED": "suspicious", "TRUSTED_WHITE_LIST": "clean", "COMMON_WHITE_LIST": "clean",
	} {
		f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{"process_name": "vbc.exe", "process_reputation": rep}}, Indicators{})
		if f.Endpoint.Reputation != want {
			t.Errorf("%s: reputation %q, want %q", rep, f.Endpoint.Reputation, want)
		}
	}
}

// Saving the SAM or SECURITY hive to a file is credential access; reading
// another key is not.
func TestAccountHiveSave(t *testing.T) {
	for cmd, want := range map[string]bool{
		`reg.exe save HKLM\SAM C:\ProgramData\sm.hiv /y`:                                        true,
		`"C:\Windows\system32\reg.exe" save hklm\security c:\temp\se.save`:                      true,
		`copy \\?\GLOBALROOT\Device\HarddiskVolumeShadowCopy3\Windows\System32\config\SAM C:\t`: true,
		`reg.exe save HKLM\SOFTWARE\Contoso C:\backup\contoso.hiv`:                              false,
		`reg query HKLM\SAM\SAM\Domains`:                                                        false,
	} {
		f := normalize(Incident{IncidentType: "malware", RawData: map[string]any{"CommandLine": cmd, "FileName": "reg.exe"}}, Indicators{})
		if f.Endpoint.Behaviour.HiveSave != want {
			t.Errorf("%s: hive save %v, want %v", cmd, f.Endpoint.Behaviour.HiveSave, want)
		}
	}
}
