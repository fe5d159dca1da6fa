package triage

import (
	"strings"
	"testing"
)

// The product's own rating lifts an endpoint alert whose evidence is
// suspicious and untempered, and only such an alert.
func TestVendorRatingLiftsOnlyUntemperedEndpointSuspicion(t *testing.T) {
	for _, tc := range []struct {
		name, incidentType, severity, payload, class string
	}{
		{"rated high", "malware", "high", encodedPowerShellOnly, ClassMalicious},
		{"rated critical", "malware", "critical", encodedPowerShellOnly, ClassMalicious},
		{"rated medium", "malware", "medium", encodedPowerShellOnly, ClassSuspicious},
		{"sign-in failures rated high", "suspicious_login", "high", loginBruteForce, ClassSuspicious},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := analyze(t, Incident{IncidentType: tc.incidentType, Severity: tc.severity, RawData: mustJSON(t, tc.payload)})
			if a.Verdict.Classification != tc.class {
				t.Fatalf("%s, want %s: %s", a.Verdict.Classification, tc.class, a.Verdict.Reasoning)
			}
			lifted := strings.Contains(a.Verdict.Reasoning, "The reporting product rated it")
			if lifted != (tc.class == ClassMalicious) {
				t.Fatalf("rating in the reasoning: %v: %s", lifted, a.Verdict.Reasoning)
			}
		})
	}
}

// Benign evidence that explains the red flags away keeps the rating out.
func TestVendorRatingYieldsToBenignEvidence(t *testing.T) {
	ev := &evidence{label: "Malware"}
	ev.add(0.35, "encoded command line")
	ev.add(-0.25, "signed by the organisation's own deployment tool")
	a := buildAnalysis(ev, ClassSuspicious, "suspicious_activity", nil)
	got := applyVendorRating(kindMalware, a, Fields{Severity: 4})
	if got.Verdict.Classification != ClassSuspicious || strings.Contains(got.Verdict.Reasoning, "rated it") {
		t.Fatalf("benign evidence did not hold the rating back: %s", got.Verdict.Reasoning)
	}
}

// A rating with nothing of substance found is no evidence of its own.
func TestVendorRatingNeedsARedFlag(t *testing.T) {
	a := analyze(t, Incident{IncidentType: "alert", Severity: "critical", RawData: mustJSON(t, `{"title":"Alert"}`)})
	if strings.Contains(a.Verdict.Reasoning, "rated it") {
		t.Fatalf("rating added with no red flag: %s", a.Verdict.Reasoning)
	}
}

// A product's high rating of a remote-administration tool a user ran is
// the tool's class, not an attack: it is not added on that finding and
// the tool's own traits (run from Downloads).
func TestVendorRatingSkipsADualUseTool(t *testing.T) {
	ev := &evidence{label: "Malware"}
	ev.add(0.15, "code runs from a user-writable location")
	ev.addGrouped("", 0.15, "Rule endpoint.admin_tool_by_user: a remote-administration tool ran outside an administrator's hands")
	ev.signals[len(ev.signals)-1].dualUse = true
	a := buildAnalysis(ev, ClassSuspicious, "suspicious_activity", nil)
	if got := applyVendorRating(kindMalware, a, Fields{Severity: 3}); got.Verdict.Classification != ClassSuspicious || strings.Contains(got.Verdict.Reasoning, "rated it") {
		t.Fatalf("the rating was added to a dual-use tool: %s", got.Verdict.Reasoning)
	}
	for _, r := range BuiltinRules().Rules() {
		if r.ID == "endpoint.admin_tool_by_user" && !r.DualUse {
			t.Error("endpoint.admin_tool_by_user should read a dual-use tool")
		}
	}
}

// End to end: a remote-support client a user ran from Downloads, rated
// high by the product, stays suspicious, without the rating added.
func TestARatedRemoteSupportToolStaysSuspicious(t *testing.T) {
	raw := map[string]any{"DetectName": "RemoteAccessTool", "DetectDescription": "A remote access tool was launched.",
		"FileName": "AnyDesk.exe", "FilePath": `\Device\HarddiskVolume3\Users\s.ahmed\Downloads\`,
		"CommandLine": `"C:\Users\s.ahmed\Downloads\AnyDesk.exe"`, "ParentImageFileName": "explorer.exe", "UserName": "s.ahmed", "ComputerName": "CF-LT-2231"}
	a := analyze(t, Incident{IncidentType: "malware", Severity: "high", RawData: raw})
	if !strings.Contains(a.Verdict.Reasoning, "endpoint.admin_tool_by_user") {
		t.Fatalf("the tool was not read: %s", a.Verdict.Reasoning)
	}
	if strings.Contains(a.Verdict.Reasoning, "rated it") || a.Verdict.Classification == ClassMalicious {
		t.Errorf("%s: %s", a.Verdict.Classification, a.Verdict.Reasoning)
	}
}
