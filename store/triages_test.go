package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func TestBeginTriageSharesRunsAndReusesVerdicts(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	inc, err := st.CreateIncident(ctx, newIncident("high"))
	if err != nil {
		t.Fatal(err)
	}
	first, started, err := st.BeginTriage(ctx, inc.ID, false, &store.Triage{ID: "11111111-1111-1111-1111-111111111111", WorkflowID: "wf1"})
	if err != nil || !started || first.Status != store.TriageRunning {
		t.Fatalf("first begin: started=%v err=%v", started, err)
	}
	joined, started, err := st.BeginTriage(ctx, inc.ID, true, &store.Triage{ID: "22222222-2222-2222-2222-222222222222", WorkflowID: "wf2"})
	if err != nil || started || joined.ID != first.ID {
		t.Fatalf("a request while one runs must join it, even with force: started=%v id=%v err=%v", started, joined, err)
	}

	out := store.TriageOutcome{
		Verdict:            store.Verdict{Classification: "malicious", Confidence: 0.9, Category: "credential_phishing"},
		RecommendedActions: []string{"quarantine_email"},
		Analyzer:           "builtin",
	}
	done, err := st.CompleteTriage(ctx, first.ID, out)
	if err != nil {
		t.Fatal(err)
	}
	out.Verdict.Classification = "benign"
	again, err := st.CompleteTriage(ctx, first.ID, out)
	if err != nil {
		t.Fatal(err)
	}
	if again.Verdict.V.Classification != "malicious" || !again.CompletedAt.Equal(*done.CompletedAt) {
		t.Fatal("a repeated completion overwrote the first verdict")
	}
	got, err := st.GetIncident(ctx, inc.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.StatusTriaged || got.TriagedAt == nil || got.Verdict.V == nil ||
		got.Verdict.V.Classification != "malicious" || got.RecommendedActions.V[0] != "quarantine_email" {
		t.Fatalf("incident not updated by triage: %+v", got)
	}

	reused, started, err := st.BeginTriage(ctx, inc.ID, false, &store.Triage{ID: "33333333-3333-3333-3333-333333333333", WorkflowID: "wf3"})
	if err != nil || started || reused.ID != first.ID || reused.Status != store.TriageCompleted {
		t.Fatalf("without force a triaged incident must return its verdict: started=%v err=%v", started, err)
	}
	forced, started, err := st.BeginTriage(ctx, inc.ID, true, &store.Triage{ID: "44444444-4444-4444-4444-444444444444", WorkflowID: "wf4"})
	if err != nil || !started || forced.ID == first.ID {
		t.Fatalf("force must start a new run: started=%v err=%v", started, err)
	}
	if err := st.FailTriage(ctx, forced.ID, "analyzer down"); err != nil {
		t.Fatal(err)
	}
	failed, err := st.GetTriage(ctx, forced.ID)
	if err != nil || failed.Status != store.TriageFailed || failed.Error != "analyzer down" {
		t.Fatalf("fail triage: %+v %v", failed, err)
	}
	if _, _, err := st.BeginTriage(ctx, "00000000-0000-4000-8000-000000000000", false, &store.Triage{ID: "x"}); err == nil {
		t.Fatal("begin triage on a missing incident succeeded")
	}
}

func TestResolvedIncidentKeepsStatusOnTriage(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	inc, err := st.CreateIncident(ctx, newIncident("low"))
	if err != nil {
		t.Fatal(err)
	}
	resolved := store.StatusResolved
	if _, err := st.UpdateIncident(ctx, inc.ID, store.IncidentUpdate{Status: &resolved}); err != nil {
		t.Fatal(err)
	}
	tr, _, err := st.BeginTriage(ctx, inc.ID, true, &store.Triage{ID: "55555555-5555-5555-5555-555555555555", WorkflowID: "wf"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.CompleteTriage(ctx, tr.ID, store.TriageOutcome{Verdict: store.Verdict{Classification: "benign"}}); err != nil {
		t.Fatal(err)
	}
	got, _ := st.GetIncident(ctx, inc.ID)
	if got.Status != store.StatusResolved || got.TriagedAt == nil {
		t.Fatalf("resolved incident after triage: status %s triaged_at %v", got.Status, got.TriagedAt)
	}
}

func TestBeginIncidentTriageReadsTheWholeIncident(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	inc, err := st.CreateIncident(ctx, newIncident("high"))
	if err != nil {
		t.Fatal(err)
	}
	got, tr, started, err := st.BeginIncidentTriage(ctx, inc.ID, false, &store.Triage{ID: "66666666-6666-6666-6666-666666666666", WorkflowID: "wf"})
	if err != nil || !started || tr.Status != store.TriageRunning {
		t.Fatalf("begin: started=%v err=%v", started, err)
	}
	if got.IncidentNumber != inc.IncidentNumber || got.Severity != "high" || got.RawData.V["subject"] != "hello" {
		t.Fatalf("the incident read with the lock is not whole: %+v", got)
	}
	if _, _, _, err := st.BeginIncidentTriage(ctx, "00000000-0000-4000-8000-000000000000", false, &store.Triage{ID: "x"}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a missing incident: %v, want ErrNotFound", err)
	}
}

func TestCompleteTriageCreatesItsActionsOnce(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	inc, err := st.CreateIncident(ctx, newIncident("high"))
	if err != nil {
		t.Fatal(err)
	}
	tr, _, err := st.BeginTriage(ctx, inc.ID, false, &store.Triage{ID: "77777777-7777-7777-7777-777777777777", WorkflowID: "wf"})
	if err != nil {
		t.Fatal(err)
	}
	actions := func() []*store.Action {
		return []*store.Action{
			{ID: "88888888-8888-8888-8888-888888888888", IncidentID: &inc.ID, ActionType: "create_ticket",
				Parameters: store.NewJSON(map[string]any{"title": "t"}), RequestedBy: "triage", WorkflowID: "action/8"},
			{ID: "99999999-9999-9999-9999-999999999999", IncidentID: &inc.ID, ActionType: "scan_host",
				RequestedBy: "triage", WorkflowID: "action/9"},
		}
	}
	out := store.TriageOutcome{Verdict: store.Verdict{Classification: "malicious"},
		RecommendedActions: []string{"create_ticket", "scan_host"}, Actions: actions()}
	if _, err := st.CompleteTriage(ctx, tr.ID, out); err != nil {
		t.Fatal(err)
	}
	// A retried completion (the first one's answer was lost) finds the
	// verdict stored and adds nothing.
	out.Actions = actions()
	if _, err := st.CompleteTriage(ctx, tr.ID, out); err != nil {
		t.Fatal(err)
	}
	got, err := st.ListActions(ctx, store.ActionFilter{IncidentID: inc.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("actions after two completions: %d, want 2", len(got))
	}
	for _, a := range got {
		if a.Status != store.ActionPending || a.RequestedAt.IsZero() || a.Parameters.V == nil {
			t.Errorf("action %s not created pending: %+v", a.ActionType, a)
		}
	}
}

// Completing a run writes its duration and answers the record as stored,
// without reading it first; a repeat answers the first completion's record.
func TestCompleteTriageAnswersTheStoredRunWithItsDuration(t *testing.T) {
	st, ctx, inc := storeWithIncident(t, "high")
	tr := runningTriage(t, st, inc, "66666666-6666-6666-6666-666666666666")
	const pause = 40 * time.Millisecond
	time.Sleep(pause)
	first, err := st.CompleteTriage(ctx, tr.ID, store.TriageOutcome{Verdict: store.Verdict{Classification: "benign"},
		RecommendedActions: []string{"create_ticket"}, Analyzer: "builtin"})
	if err != nil {
		t.Fatal(err)
	}
	if first.ID != tr.ID || first.IncidentID != inc.ID || first.Status != store.TriageCompleted ||
		first.Analyzer != "builtin" || len(first.RecommendedActions.V) != 1 || first.CompletedAt == nil {
		t.Fatalf("completed run answered as %+v", first)
	}
	// SQLite's date functions keep milliseconds, so its duration may lose one.
	if min := pause.Milliseconds(); first.DurationMS < min-1 || first.DurationMS > 10*min {
		t.Fatalf("duration %d ms, want about %d ms", first.DurationMS, min)
	}
	again, err := st.CompleteTriage(ctx, tr.ID, store.TriageOutcome{Verdict: store.Verdict{Classification: "malicious"},
		RecommendedActions: []string{"isolate_host"}, Analyzer: "llm"})
	if err != nil {
		t.Fatal(err)
	}
	if again.Analyzer != "builtin" || again.Verdict.V.Classification != "benign" || again.DurationMS != first.DurationMS {
		t.Fatalf("repeat answered %+v, want the first completion unchanged", again)
	}
	if _, err := st.CompleteTriage(ctx, "no-such-triage", store.TriageOutcome{}); err == nil {
		t.Fatal("completing an unknown run succeeded")
	}
}

// A verdict is announced in its own transaction while a channel is
// enabled, carrying its incident, and not at all while none is.
func TestCompleteTriageRecordsItsEventOnlyForAChannel(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	complete := func(id string) *store.Incident {
		t.Helper()
		inc := addIncident(t, st, "high")
		tr := runningTriage(t, st, inc, id)
		if _, err := st.CompleteTriage(ctx, tr.ID, store.TriageOutcome{Verdict: store.Verdict{Classification: "malicious"}}); err != nil {
			t.Fatal(err)
		}
		return inc
	}
	triageEvents := func() []store.NotificationEvent {
		t.Helper()
		return queuedEventsOf(t, st, store.EventTriageCompleted)
	}
	complete("11111111-1111-1111-1111-111111111111")
	if evs := triageEvents(); len(evs) != 0 {
		t.Fatalf("%d triage events recorded with no channel", len(evs))
	}
	if err := st.CreateChannel(ctx, &store.NotificationChannel{ID: "c1", Name: "soc", ChannelType: "webhook", Enabled: true,
		Events: store.NewJSON([]string{"triage_completed"})}); err != nil {
		t.Fatal(err)
	}
	inc := complete("22222222-2222-2222-2222-222222222222")
	evs := triageEvents()
	if len(evs) != 1 || evs[0].IncidentID != inc.ID || evs[0].Severity != "high" ||
		evs[0].Data.V["incident_number"] != inc.IncidentNumber || evs[0].Data.V["classification"] != "malicious" {
		t.Fatalf("triage events with a channel: %+v", evs)
	}
}
