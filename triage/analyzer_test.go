package triage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func analyze(t *testing.T, inc Incident) Analysis {
	t.Helper()
	a, err := NewRuleAnalyzer().Analyze(context.Background(), inc, ExtractIndicators(inc.RawData))
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return a
}

// analyzeRules is analyze with a word model that knows no words, so the
// verdict is the rules' alone: the fixtures below hold what the rules
// make of an alert, which the built-in model's reading of a short
// synthetic payload would otherwise move.
func analyzeRules(t *testing.T, inc Incident) Analysis {
	t.Helper()
	a, err := RuleAnalyzer{Words: &WordModel{}}.Analyze(context.Background(), inc, ExtractIndicators(inc.RawData))
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return a
}

func TestRuleAnalyzer(t *testing.T) {
	tests := []struct {
		name          string
		incidentType  string
		severity      string
		payload       string
		class         string
		category      string // empty: not checked
		minConfidence float64
		maxConfidence float64 // zero: not checked
		wantActions   []string
		reasonHas     []string
	}{
		{
			name: "look-alike sender with credential link", incidentType: "phishing", severity: "high",
			payload: phishLookalikeCredential, class: ClassMalicious, category: "credential_phishing", minConfidence: 0.85,
			wantActions: []string{ActionQuarantineEmail, ActionBlockSender, ActionCreateTicket, ActionNotifyUser},
			reasonHas:   []string{"micros0ft-support.com imitates microsoft", "credential-harvesting"},
		},
		{
			name: "look-alike and credential link alone suffice", incidentType: "Phishing",
			payload: phishLookalikeOnly, class: ClassMalicious, category: "credential_phishing", minConfidence: 0.85,
			wantActions: []string{ActionQuarantineEmail, ActionBlockSender, ActionCreateTicket, ActionNotifyUser},
		},
		{
			name: "substack newsletter", incidentType: "phishing", severity: "low",
			payload: phishNewsletterSubstack, class: ClassBenign, category: "newsletter", minConfidence: 0.6,
			wantActions: []string{}, reasonHas: []string{"Substack", "List-Unsubscribe"},
		},
		{
			name: "mailchimp marketing with header list", incidentType: "PHISHING",
			payload: phishNewsletterMailchimp, class: ClassBenign, category: "newsletter", minConfidence: 0.6,
			wantActions: []string{}, reasonHas: []string{"Mailchimp"},
		},
		{
			name: "helpdesk lure without look-alike is suspicious", incidentType: "phishing", severity: "medium",
			payload: phishMiddle, class: ClassSuspicious, maxConfidence: 0.84,
			wantActions: []string{ActionQuarantineEmail, ActionCreateTicket},
			reasonHas:   []string{"Reply-to domain gmail.com", "pressure language"},
		},
		{
			name: "disguised html attachment with failing dmarc", incidentType: "phishing",
			payload: phishDisguisedAttachment, class: ClassMalicious, category: "malware_delivery",
			wantActions: []string{ActionQuarantineEmail, ActionBlockSender, ActionCreateTicket, ActionNotifyUser},
			reasonHas:   []string{"double extension", "spf=fail, dmarc=fail"},
		},
		{
			name: "password protected archive is suspicious", incidentType: "phishing",
			payload: phishPasswordZip, class: ClassSuspicious, category: "malware_delivery",
			wantActions: []string{ActionQuarantineEmail, ActionCreateTicket},
			reasonHas:   []string{"password-protected archive"},
		},
		{
			name: "organisation look-alike with password reset link", incidentType: "phishing",
			payload: phishOrgLookalike, class: ClassMalicious, category: "credential_phishing", minConfidence: 0.85,
			wantActions: []string{ActionQuarantineEmail, ActionBlockSender, ActionCreateTicket, ActionNotifyUser},
			reasonHas:   []string{"imitates the recipient organisation contoso.com"},
		},
		{
			name: "genuine microsoft notification", incidentType: "phishing",
			payload: phishGenuineMicrosoft, class: ClassBenign, category: "legitimate_email",
			wantActions: []string{}, reasonHas: []string{"belongs to microsoft"},
		},
		{
			name: "trojan blocked by EDR before execution", incidentType: "malware",
			payload: edrBlockedTrojan, class: ClassMalicious, category: "malware",
			wantActions: []string{ActionScanHost, ActionCreateTicket},
			reasonHas:   []string{"Emotet", "already blocked", "SALES-LT-19"},
		},
		{
			name: "look-alike sent through an email service provider", incidentType: "phishing",
			payload: phishLookalikeViaESP, class: ClassMalicious, category: "credential_phishing", minConfidence: 0.85,
			wantActions: []string{ActionQuarantineEmail, ActionBlockSender, ActionCreateTicket, ActionNotifyUser},
			reasonHas:   []string{"imitates docusign"},
		},
		{
			name: "mailing platform does not excuse a credential link", incidentType: "phishing",
			payload: phishNewsletterWithCredentialLink, class: ClassSuspicious, category: "credential_phishing",
			wantActions: []string{ActionQuarantineEmail, ActionCreateTicket}, reasonHas: []string{"credential-harvesting"},
		},
		{
			name: "personal mail from someone called Chase", incidentType: "phishing",
			payload: phishPersonalMail, class: ClassUnknown, wantActions: []string{ActionCreateTicket},
		},
		{
			name: "ransomware detection", incidentType: "malware", severity: "critical",
			payload: edrRansomware, class: ClassMalicious, category: "ransomware", minConfidence: 0.9,
			wantActions: []string{ActionIsolateHost, ActionScanHost, ActionCreateTicket},
			reasonHas:   []string{"Ransom:Win32/LockBit.B", "Shadow copies", "FIN-WS-042"},
		},
		{
			name: "adware is only suspicious", incidentType: "Malware", severity: "low",
			payload: edrAdware, class: ClassSuspicious, category: "pup", maxConfidence: 0.8,
			wantActions: []string{ActionScanHost}, reasonHas: []string{"potentially unwanted"},
		},
		{
			name: "encoded powershell launched by word", incidentType: "malware", severity: "high",
			payload: edrEncodedPowerShell, class: ClassMalicious, category: "malware",
			wantActions: []string{ActionIsolateHost, ActionScanHost, ActionCreateTicket},
			reasonHas:   []string{"-enc with a base64 argument", "winword launched powershell"},
		},
		{
			name: "encoded powershell alone is suspicious", incidentType: "malware",
			payload:     `{"DetectName": "Suspicious PowerShell execution", "CommandLine": "powershell.exe -NoProfile -EncodedCommand JABjAGwAaQBlAG4AdAAgAD0AIABOAGUAdwAtAE8AYgBqAGUAYwB0AA==", "HostnameField": "DEV-BLD-03"}`,
			class:       ClassSuspicious,
			wantActions: []string{ActionScanHost, ActionCreateTicket},
			reasonHas:   []string{"-encodedcommand"},
		},
		{
			name: "impossible travel over tor with mfa fatigue on admin", incidentType: "suspicious login", severity: "high",
			payload: loginTakeover, class: ClassMalicious, category: "account_compromise", minConfidence: 0.85,
			wantActions: []string{ActionCreateTicket, ActionNotifyUser},
			reasonHas:   []string{"Impossible travel: 5862 km", "Tor", "MFA fatigue", "privileged"},
		},
		{
			name: "known device in usual country", incidentType: "suspicious_login",
			payload: loginKnownDevice, class: ClassBenign, category: "legitimate_login", minConfidence: 0.6,
			wantActions: []string{},
		},
		{
			name: "mfa passed is a single benign signal", incidentType: "Suspicious-Login",
			payload: loginMFAPassedOnly, class: ClassBenign, wantActions: []string{},
		},
		{
			name: "failed login with denied MFA is not a compromise", incidentType: "suspicious_login",
			payload:     `{"user": "kate@contoso.com", "src_ip": "203.0.113.9", "new_device": true, "mfa": {"result": "denied"}, "status": "failure"}`,
			class:       ClassUnknown,
			wantActions: []string{ActionCreateTicket},
			reasonHas:   []string{"did not succeed"},
		},
		{
			name: "password guessing from unusual country", incidentType: "suspicious_login",
			payload: loginBruteForce, class: ClassSuspicious, category: "brute_force",
			wantActions: []string{ActionCreateTicket}, reasonHas: []string{"8 failed attempts", "RU is not among"},
		},
		{
			name: "generic DLP alert", incidentType: "data_loss_prevention", severity: "high",
			payload: genericDLP, class: ClassSuspicious, category: "data_loss_prevention",
			wantActions: []string{ActionCreateTicket},
		},
		{
			name: "generic low alert is unknown", incidentType: "Policy Violation", severity: "low",
			payload: `{"rule": "USB storage connected", "host": "WS-1"}`, class: ClassUnknown, category: "policy_violation",
			wantActions: []string{ActionCreateTicket},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inc := Incident{IncidentType: tc.incidentType, Severity: tc.severity, Source: "test", RawData: mustJSON(t, tc.payload)}
			a := analyzeRules(t, inc)
			v := a.Verdict
			t.Logf("%s %.2f %s | %s | %v", v.Classification, v.Confidence, v.Category, v.Reasoning, a.RecommendedActions)
			if v.Classification != tc.class {
				t.Errorf("classification = %s, want %s", v.Classification, tc.class)
			}
			if tc.category != "" && v.Category != tc.category {
				t.Errorf("category = %s, want %s", v.Category, tc.category)
			}
			if v.Confidence < tc.minConfidence || tc.maxConfidence > 0 && v.Confidence > tc.maxConfidence {
				t.Errorf("confidence = %.2f, want within [%.2f, %.2f]", v.Confidence, tc.minConfidence, tc.maxConfidence)
			}
			if !reflect.DeepEqual(a.RecommendedActions, tc.wantActions) {
				t.Errorf("actions = %v, want %v", a.RecommendedActions, tc.wantActions)
			}
			for _, want := range tc.reasonHas {
				if !strings.Contains(v.Reasoning, want) {
					t.Errorf("reasoning lacks %q: %s", want, v.Reasoning)
				}
			}
			checkInvariants(t, a)
		})
	}
}

// checkInvariants holds for every analysis regardless of input.
func checkInvariants(t *testing.T, a Analysis) {
	t.Helper()
	if a.Analyzer != BuiltinAnalyzerName {
		t.Errorf("analyzer = %q", a.Analyzer)
	}
	if a.RecommendedActions == nil {
		t.Error("recommended actions is nil")
	}
	for _, act := range a.RecommendedActions {
		if !IsKnownAction(act) {
			t.Errorf("unknown action %q", act)
		}
		if act == ActionBlockSender && a.Verdict.Classification != ClassMalicious {
			t.Errorf("block_sender recommended for a %s verdict", a.Verdict.Classification)
		}
	}
	c := a.Verdict.Confidence
	if c < 0.05 || c > 0.99 || math.Abs(c*100-math.Round(c*100)) > 1e-9 {
		t.Errorf("confidence %v not clamped and rounded", c)
	}
	if a.Verdict.Reasoning == "" || a.Verdict.Category == "" {
		t.Error("empty reasoning or category")
	}
	switch a.Verdict.Classification {
	case ClassMalicious, ClassSuspicious, ClassBenign, ClassUnknown:
	default:
		t.Errorf("classification %q", a.Verdict.Classification)
	}
}

func TestRuleAnalyzerDeterministic(t *testing.T) {
	for _, tc := range []struct{ typ, payload string }{
		{"phishing", phishLookalikeCredential},
		{"phishing", phishNewsletterMailchimp},
		{"malware", edrRansomware},
		{"suspicious login", loginTakeover},
		{"other", genericDLP},
	} {
		t.Run(tc.typ, func(t *testing.T) {
			first := analyze(t, Incident{IncidentType: tc.typ, Severity: "high", RawData: mustJSON(t, tc.payload)})
			for i := 0; i < 20; i++ {
				// Re-decode each time so map internals differ between runs.
				again := analyze(t, Incident{IncidentType: tc.typ, Severity: "high", RawData: mustJSON(t, tc.payload)})
				if !reflect.DeepEqual(first, again) {
					t.Fatalf("run %d differs:\n%+v\n%+v", i, first, again)
				}
			}
		})
	}
}

func TestRuleAnalyzerHostilePayload(t *testing.T) {
	links := make([]any, 20000)
	for i := range links {
		links[i] = map[string]any{"url": fmt.Sprintf("https://paypa1-%d.com/signin", i), "text": "Sign in\nFAKE LINE"}
	}
	raw := map[string]any{
		"sender":   "Pay\nPal <a@paypa1-0.com>",
		"links":    links,
		"body":     strings.Repeat("urgent ", 200000),
		"hostname": strings.Repeat("x", 10000),
	}
	for _, typ := range []string{"phishing", "malware", "suspicious_login", "other"} {
		t.Run(typ, func(t *testing.T) {
			a := analyze(t, Incident{IncidentType: typ, RawData: raw})
			checkInvariants(t, a)
			if n := len(a.Verdict.Reasoning); n > 2000 {
				t.Errorf("reasoning is %d bytes", n)
			}
			if strings.ContainsAny(a.Verdict.Reasoning, "\n\r") {
				t.Errorf("payload newlines leaked into reasoning: %q", a.Verdict.Reasoning)
			}
		})
	}
}

func TestRuleAnalyzerGenericNeverMalicious(t *testing.T) {
	// Every malware marker imaginable, but an untyped incident: the generic
	// analyzer must not claim more than it can know.
	raw := mustJSON(t, `{"text": "mimikatz ransomware vssadmin delete shadows 44d88612fea8a8f36de82e1278abb02f http://198.51.100.9/x.exe evil.example bad@evil.example"}`)
	a := analyze(t, Incident{IncidentType: "custom_alert", Severity: "critical", RawData: raw})
	if a.Verdict.Classification != ClassSuspicious {
		t.Errorf("classification = %s, want suspicious", a.Verdict.Classification)
	}
	if !slices.Equal(a.RecommendedActions, []string{ActionCreateTicket}) {
		t.Errorf("actions = %v", a.RecommendedActions)
	}
}

func TestRuleAnalyzerEdgeCases(t *testing.T) {
	t.Run("cancelled context", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := RuleAnalyzer{}.Analyze(ctx, Incident{IncidentType: "phishing"}, Indicators{})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
	t.Run("empty indicators are extracted from raw data", func(t *testing.T) {
		inc := Incident{IncidentType: "phishing", RawData: mustJSON(t, phishLookalikeOnly)}
		a, err := RuleAnalyzer{}.Analyze(context.Background(), inc, Indicators{})
		if err != nil || a.Verdict.Classification != ClassMalicious {
			t.Errorf("got %+v, %v; want malicious", a.Verdict, err)
		}
	})
	for _, typ := range []string{"phishing", "malware", "suspicious_login", "", "other"} {
		t.Run("nil raw data "+typ, func(t *testing.T) {
			a := analyze(t, Incident{IncidentType: typ})
			if a.Verdict.Classification == ClassMalicious {
				t.Errorf("nil payload judged malicious: %+v", a.Verdict)
			}
			checkInvariants(t, a)
		})
	}
}

func TestIncidentKind(t *testing.T) {
	for in, want := range map[string]string{
		"phishing": kindPhishing, "PHISHING": kindPhishing, "Malware": kindMalware,
		"suspicious login": kindLogin, "Suspicious_Login": kindLogin, "suspicious-login": kindLogin,
		"data_exfiltration": kindGeneric, "": kindGeneric,
	} {
		if got := incidentKind(in); got != want {
			t.Errorf("incidentKind(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestBrandLookalike(t *testing.T) {
	tests := []struct {
		host, target string // empty target: not a look-alike
	}{
		{"micros0ft-support.com", "microsoft"},
		{"paypa1.com", "paypal"},
		{"microsoft-login-secure.com", "microsoft"},
		{"rnicrosoft.com", "microsoft"},
		{"docusgin.net", "docusign"},
		{"paypal.com.account-review.xyz", "paypal"},
		{"dh1-express.com", "dhl"},
		{"login.microsoftonline.com", ""},
		{"paypal.co.uk", ""},
		{"purchase-orders.com", ""},
		{"dhs.gov", ""},
		{"contoso.com", ""},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			l, ok := brandLookalike(tc.host)
			if ok != (tc.target != "") || l.target != tc.target {
				t.Errorf("brandLookalike(%q) = %+v, %v; want target %q", tc.host, l, ok, tc.target)
			}
		})
	}
}

func FuzzRuleAnalyzer(f *testing.F) {
	for _, p := range []string{phishLookalikeCredential, phishNewsletterMailchimp, edrRansomware, loginTakeover, genericDLP, `{}`, `{"a":[[[{"b":null}]]]}`} {
		for _, typ := range []string{"phishing", "malware", "suspicious_login", "other"} {
			f.Add(typ, p)
		}
	}
	f.Fuzz(func(t *testing.T, typ, payload string) {
		var raw map[string]any
		if json.Unmarshal([]byte(payload), &raw) != nil {
			return
		}
		inc := Incident{IncidentType: typ, RawData: raw}
		a, err := RuleAnalyzer{}.Analyze(context.Background(), inc, ExtractIndicators(raw))
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, a)
		// Only rule evidence lets an alert of no known family be called
		// malicious.
		if analysisKind(typ, normalize(inc, ExtractIndicators(raw))) == kindGeneric && a.Verdict.Classification == ClassMalicious && !strings.Contains(a.Verdict.Reasoning, "Rule ") {
			t.Fatal("generic analyzer claimed malicious without rule evidence")
		}
		again, _ := RuleAnalyzer{}.Analyze(context.Background(), inc, ExtractIndicators(raw))
		if !reflect.DeepEqual(a, again) {
			t.Fatalf("non-deterministic:\n%+v\n%+v", a, again)
		}
	})
}
