package runview_test

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/runview"
	"github.com/vigil-soc/vigil/store"
)

func TestSummariesAndDetails(t *testing.T) {
	inc := &store.Incident{ID: "i-1", IncidentNumber: "INC-2026-0017", Severity: "high", IncidentType: "phishing",
		Source: "mail", Title: "Fake login [click](https://evil.example) <script>", Description: "SECRET-DESCRIPTION",
		RawData: store.NewJSON(map[string]any{"body": "SECRET-RAW"})}
	act := &store.Action{ID: "a-1", ActionType: "create_ticket", RequestedBy: "j.doe",
		Parameters: store.NewJSON(map[string]any{"title": "Phish\nreported", "description": "SECRET-PARAM", "priority": "high"})}
	exec := &store.PlaybookExecution{PlaybookName: "Malware containment", Version: "1.3", StepsTotal: 9, TriggeredBy: "j.doe"}
	linked := runview.Links{PublicURL: "https://vigil.example.com/"}
	tests := []struct {
		name         string
		meta         runview.Meta
		summary      string
		detailsHave  []string
		detailsLacks []string
	}{
		{"triage", runview.Triage(linked, inc, "j.doe", true), "triage INC-2026-0017 (phishing, high)",
			[]string{"[Open INC-2026-0017 in Vigil](https://vigil.example.com/incidents/i-1)", "Requested by: j.doe"}, nil},
		{"action", runview.Action(runview.Links{}, act, inc, ""), "create_ticket Phish reported · INC-2026-0017 (high) · requested by j.doe",
			[]string{"title: `Phish reported`", "priority: `high`", "description: (12 characters, not shown)", "Incident API: `/api/incidents/i-1`"},
			[]string{"vigil.example.com"}},
		{"action without incident", runview.Action(linked, act, nil, ""), "create_ticket Phish reported · requested by j.doe",
			[]string{"Action outside any incident"}, []string{"incidents/"}},
		{"playbook", runview.Playbook(linked, exec, inc, []string{"host"}), `playbook "Malware containment" v1.3 · INC-2026-0017`,
			[]string{"version 1.3, 9 steps", "Variables set: host"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.meta.Summary != tc.summary {
				t.Errorf("summary %q, want %q", tc.meta.Summary, tc.summary)
			}
			all := tc.meta.Summary + tc.meta.Details
			for _, s := range append(tc.detailsLacks, "SECRET", "](https://evil", "<script>", "\n\n\n") {
				if strings.Contains(all, s) {
					t.Errorf("shows %q:\n%s", s, all)
				}
			}
			for _, s := range tc.detailsHave {
				if !strings.Contains(tc.meta.Details, s) {
					t.Errorf("details lack %q:\n%s", s, tc.meta.Details)
				}
			}
		})
	}
}

func TestCurrentDetails(t *testing.T) {
	since := time.Date(2026, 11, 22, 14, 2, 0, 0, time.UTC)
	tests := []struct{ got, want string }{
		{runview.AwaitingApproval("senior", since, since.Add(72*time.Hour), "", ""), "awaiting senior approval since 14:02 UTC, expires 2026-11-25 14:02 UTC"},
		{runview.Parked(" maintenance\nwindow "), "parked by the kill switch (reason: maintenance window)"},
		{runview.Step(4, 9, "isolate_host", "waiting for senior approval"), "step 4 of 9: isolate_host, waiting for senior approval"},
		{runview.ConnectorCall("isolate_host", map[string]any{"host_id": "WS-0042"}), "connector edr: contain WS-0042"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
