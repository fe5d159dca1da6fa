package triage

import "testing"

// A GitHub audit event is read as a cloud control-plane record: a key or
// member added is persistence, and an address outside the actor's listed
// history (a single address or a runner range) is new to the principal.
func TestGitHubAuditEventReadsPersistenceAndNewAddress(t *testing.T) {
	event := func(action, ip string, history []any) map[string]any {
		return map[string]any{
			"action": action, "actor": "release-bot", "actor_ip": ip, "org": "example-eng",
			"_document_id": "pT7c3ZxQ1mR8kV2nW5yB4g", "user_agent": "curl/8.5.0",
			"actor_history_90d": map[string]any{"distinct_ips": history},
		}
	}
	runners := []any{"4.175.96.0/20 (hosted runners)"}
	tests := []struct {
		name                    string
		raw                     map[string]any
		persistence, newAddress bool
	}{
		{"key added from outside the runner range", event("public_key.create", "45.88.97.214", runners), true, true},
		{"key added from a runner", event("public_key.create", "4.175.100.12", runners), true, false},
		{"member added from the usual office", event("org.add_member", "203.0.113.40", []any{"203.0.113.40 (office)"}), true, false},
		{"clone from a new address", event("git.clone", "45.88.97.214", runners), false, true},
		{"no history listed", event("public_key.create", "45.88.97.214", nil), true, false},
	}
	for _, tt := range tests {
		f := normalize(Incident{IncidentType: "unauthorized_access", RawData: tt.raw}, Indicators{})
		if f.Format != "github_audit" || f.Cloud.Provider != "github" || f.Cloud.Principal != "release-bot" {
			t.Fatalf("%s: format %q, provider %q, principal %q", tt.name, f.Format, f.Cloud.Provider, f.Cloud.Principal)
		}
		if f.Cloud.Persistence != tt.persistence || f.Cloud.NewAddress != tt.newAddress {
			t.Errorf("%s: persistence %v, new address %v", tt.name, f.Cloud.Persistence, f.Cloud.NewAddress)
		}
	}
	slack := map[string]any{"action": "user_login", "actor": map[string]any{"type": "user"}, "org": "example"}
	if f := normalize(Incident{IncidentType: "alert", RawData: slack}, Indicators{}); f.Format == "github_audit" {
		t.Errorf("an undotted action was read as GitHub's audit log")
	}
	stolen := CloudFields{Provider: "github", Principal: "release-bot", Persistence: true, NewAddress: true, ScriptedTool: true}
	if got := firedRules(kindGeneric, Fields{Cloud: stolen}); !got["cloud.persistence_from_new_address"] || !got["cloud.scripted_client_from_new_address"] {
		t.Errorf("a key added by curl from a new address fired %v", got)
	}
	// A pipeline's own scripts are no sign, but lasting access granted
	// from outside its runners still is.
	stolen.Pipeline = true
	if got := firedRules(kindGeneric, Fields{Cloud: stolen}); !got["cloud.persistence_from_new_address"] || got["cloud.scripted_client_from_new_address"] {
		t.Errorf("a pipeline identity fired %v", got)
	}
	stolen.ApprovedChange = true
	if got := firedRules(kindGeneric, Fields{Cloud: stolen}); got["cloud.persistence_from_new_address"] {
		t.Errorf("a change under an approved pull request fired %v", got)
	}
}

// A pipeline identity's key used from an address outside its history is
// the key outside its pipeline, unless the payload ties the run to an
// approved change.
func TestPipelineCredentialFromNewAddress(t *testing.T) {
	ci := CloudFields{Provider: "aws", Principal: "gitlab-deployer", Pipeline: true, NewAddress: true}
	if got := firedRules(kindGeneric, Fields{Cloud: ci}); !got["cloud.pipeline_credential_from_new_address"] {
		t.Errorf("a CI key from a new address fired %v", got)
	}
	ci.ApprovedChange = true
	if got := firedRules(kindGeneric, Fields{Cloud: ci}); got["cloud.pipeline_credential_from_new_address"] {
		t.Errorf("a CI run under an approved change fired %v", got)
	}
}

// A pull request or change named as a draft, unreviewed or rejected is no
// approved change.
func TestApprovedChangeSkipsDraftsAndRejections(t *testing.T) {
	for text, want := range map[string]bool{
		"merged pull request #214 approved by the identity lead":   true,
		"change request chg0041877 implemented in the window":      true,
		"pr #1184 draft 'add arm64 smoke test' (no reviewers yet)": false,
		"change request cr-20251030 rejected by cab":               false,
		"pr #77 not approved; pr #78 merged after two approvals":   true,
	} {
		if got := approvedChange(text); got != want {
			t.Errorf("%q: approved %v, want %v", text, got, want)
		}
	}
	trail := map[string]any{"eventSource": "iam.amazonaws.com", "eventName": "CreateAccessKey", "userIdentity": map[string]any{"arn": "arn:aws:iam::1:user/dev"},
		"note": "PR #1184 draft 'add arm64 smoke test' (no reviewers yet)"}
	if c := normalize(Incident{IncidentType: "cloud", RawData: trail}, Indicators{}).Cloud; c.ApprovedChange {
		t.Errorf("a CloudTrail record naming only a draft PR read as an approved change")
	}
}
