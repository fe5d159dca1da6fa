package triage

import "testing"

// TestACloudAppMassDownloadIsReadAsASession holds that a cloud-app
// security alert about a user's bulk download, typed as data
// exfiltration, is judged by the session that downloaded: an rclone
// client on a hosting network is an intruder collecting data.
func TestACloudAppMassDownloadIsReadAsASession(t *testing.T) {
	raw := map[string]any{
		"title":       "Mass download by a single user",
		"description": "User performed an unusually large number of downloads (2,614 files) from SharePoint Online.",
		"evidence": []any{
			map[string]any{"name": "Number of downloaded files", "count": 2614},
			map[string]any{"name": "User agent", "value": "rclone/v1.68.2"},
			map[string]any{"name": "IP category", "value": "Hosting / Datacenter (AS200019, Moldova)"},
		},
	}
	f := normalize(Incident{IncidentType: "data_exfiltration", RawData: raw}, Indicators{})
	if !f.Identity.BulkDownload || !f.Identity.Hosting {
		t.Fatalf("session not read: %+v", f.Identity)
	}
	if !firedRules(kindGeneric, f)["identity.unfamiliar_session_took_data"] {
		t.Error("a bulk download from a hosting network was not weighed")
	}
	raw["title"] = "File shared with a personal e-mail address"
	if f := normalize(Incident{IncidentType: "data_exfiltration", RawData: raw}, Indicators{}); f.Identity.BulkDownload {
		t.Error("a data-loss alert about something else was read as a download session")
	}
}

// TestABulkDownloadByACommandLineClientIsUnfamiliar holds that a session
// downloading in bulk through rclone is weighed even from a residential
// address, while a service account's own tool is not.
func TestABulkDownloadByACommandLineClientIsUnfamiliar(t *testing.T) {
	f := Fields{Identity: IdentityFields{BulkDownload: true, ScriptedClient: true, SourceIP: "73.18.204.66"}}
	if !scriptedUserAgent("rclone/v1.66.0") {
		t.Error("rclone's user agent is no scripted client")
	}
	if !firedRules(kindLogin, f)["identity.unfamiliar_session_took_data"] {
		t.Error("a bulk download by a command-line client was not weighed")
	}
	f.Identity.ServiceAccount = true
	if firedRules(kindLogin, f)["identity.unfamiliar_session_took_data"] {
		t.Error("a service account's scheduled tool was weighed as an intruder")
	}
}
