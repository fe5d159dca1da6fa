package store_test

import (
	"testing"

	"github.com/vigil-soc/vigil/store"
)

// An action's end is announced in its own transaction while a channel is
// enabled, carrying the action and its incident, and not at all while none
// is; a repeated end announces nothing more.
func TestActionEndRecordsItsEventOnlyForAChannel(t *testing.T) {
	st, ctx, inc := storeWithIncident(t, "critical")
	newAction := func(id string) *store.Action {
		t.Helper()
		a := &store.Action{ID: id, IncidentID: &inc.ID, ActionType: "create_ticket",
			Parameters: store.NewJSON(map[string]any{"title": "t"}), RequestedBy: "triage", WorkflowID: "action/" + id}
		if err := st.CreateAction(ctx, a); err != nil {
			t.Fatal(err)
		}
		return a
	}
	actionEvents := func() []store.NotificationEvent {
		t.Helper()
		return queuedEventsOf(t, st, store.EventActionCompleted, store.EventActionFailed)
	}
	quiet := newAction("11111111-1111-1111-1111-111111111111")
	if done, err := st.CompleteOwnAction(ctx, quiet.ID, quiet.WorkflowID, "system", store.ActionResult{Success: true}); err != nil || !done {
		t.Fatalf("completion: %v %v", done, err)
	}
	if evs := actionEvents(); len(evs) != 0 {
		t.Fatalf("%d action events recorded with no channel", len(evs))
	}
	if err := st.CreateChannel(ctx, &store.NotificationChannel{ID: "c1", Name: "soc", ChannelType: "webhook", Enabled: true,
		Events: store.NewJSON([]string{"action_completed", "action_failed"})}); err != nil {
		t.Fatal(err)
	}
	heard := newAction("22222222-2222-2222-2222-222222222222")
	if done, err := st.CompleteOwnAction(ctx, heard.ID, heard.WorkflowID, "system", store.ActionResult{Success: true}); err != nil || !done {
		t.Fatalf("completion: %v %v", done, err)
	}
	if done, err := st.CompleteOwnAction(ctx, heard.ID, heard.WorkflowID, "system", store.ActionResult{Success: true}); err != nil || done {
		t.Fatalf("repeated completion: %v %v, want nothing recorded", done, err)
	}
	failed := newAction("33333333-3333-3333-3333-333333333333")
	if done, err := st.FailOwnAction(ctx, failed.ID, "forged", "refused"); err != nil || done {
		t.Fatalf("another workflow's failure: %v %v, want nothing recorded", done, err)
	}
	if done, err := st.FailOwnAction(ctx, failed.ID, failed.WorkflowID, "connector down"); err != nil || !done {
		t.Fatalf("failure: %v %v", done, err)
	}
	evs := actionEvents()
	if len(evs) != 2 || evs[0].EventType != string(store.EventActionCompleted) || evs[1].EventType != string(store.EventActionFailed) {
		t.Fatalf("action events with a channel: %+v", evs)
	}
	if evs[0].IncidentID != inc.ID || evs[0].Severity != "critical" || evs[0].Data.V["action_id"] != heard.ID ||
		evs[0].Data.V["action_status"] != store.ActionCompleted || evs[0].Data.V["incident_number"] != inc.IncidentNumber {
		t.Fatalf("action_completed event: %+v", evs[0])
	}
}
