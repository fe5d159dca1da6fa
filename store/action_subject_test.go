package store_test

import (
	"errors"
	"testing"

	"github.com/vigil-soc/vigil/store"
)

// A policy decision reads its action and the incident fields rules look
// at in one statement; an action outside any incident has none.
func TestGetActionForDecisionReadsTheIncidentAlongside(t *testing.T) {
	st, ctx, inc := storeWithIncident(t, "critical")
	tr := runningTriage(t, st, inc, "55555555-5555-5555-5555-555555555555")
	if _, err := st.CompleteTriage(ctx, tr.ID, store.TriageOutcome{
		Verdict: store.Verdict{Classification: "malicious", Confidence: 0.9, Category: "malware"}}); err != nil {
		t.Fatal(err)
	}
	inIncident := &store.Action{ID: "44444444-4444-4444-4444-444444444444", IncidentID: &inc.ID, ActionType: "scan_host",
		Parameters: store.NewJSON(map[string]any{"host_id": "h-1"}), RequestedBy: "triage", WorkflowID: "action/4"}
	alone := &store.Action{ID: "33333333-3333-3333-3333-333333333333", ActionType: "create_ticket",
		Parameters: store.NewJSON(map[string]any{"title": "t"}), RequestedBy: "analyst", WorkflowID: "action/3"}
	for _, a := range []*store.Action{inIncident, alone} {
		if err := st.CreateAction(ctx, a); err != nil {
			t.Fatal(err)
		}
	}

	act, got, err := st.GetActionForDecision(ctx, inIncident.ID)
	if err != nil {
		t.Fatal(err)
	}
	if act.ID != inIncident.ID || act.WorkflowID != "action/4" || act.Parameters.V["host_id"] != "h-1" || act.Status != store.ActionPending {
		t.Fatalf("action read as %+v", act)
	}
	if got == nil || got.ID != inc.ID || got.IncidentNumber != inc.IncidentNumber || got.Severity != "critical" ||
		got.IncidentType != inc.IncidentType || got.Source != inc.Source ||
		got.Verdict.V == nil || got.Verdict.V.Classification != "malicious" || got.Verdict.V.Category != "malware" {
		t.Fatalf("incident read as %+v", got)
	}

	act, got, err = st.GetActionForDecision(ctx, alone.ID)
	if err != nil || act.ID != alone.ID || got != nil {
		t.Fatalf("action outside an incident: %+v, incident %+v, %v", act, got, err)
	}
	if _, _, err := st.GetActionForDecision(ctx, "22222222-2222-2222-2222-222222222222"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown action: %v, want ErrNotFound", err)
	}
}
