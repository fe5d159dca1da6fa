package store_test

import (
	"context"
	"slices"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// storeWithIncident opens a fresh store holding one incident of severity
// sev (see newIncident).
func storeWithIncident(t *testing.T, sev string) (*store.Store, context.Context, *store.Incident) {
	t.Helper()
	st := testenv.OpenStore(t)
	return st, context.Background(), addIncident(t, st, sev)
}

// addIncident adds an incident of severity sev to st.
func addIncident(t *testing.T, st *store.Store, sev string) *store.Incident {
	t.Helper()
	inc, err := st.CreateIncident(context.Background(), newIncident(sev))
	if err != nil {
		t.Fatal(err)
	}
	return inc
}

// runningTriage begins a triage run of inc under id, with a workflow id
// derived from it.
func runningTriage(t *testing.T, st *store.Store, inc *store.Incident, id string) *store.Triage {
	t.Helper()
	tr, _, err := st.BeginTriage(context.Background(), inc.ID, false, &store.Triage{ID: id, WorkflowID: "wf-" + id})
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// queuedEventsOf lists the outbox's queued events of the given types, in
// order.
func queuedEventsOf(t *testing.T, st *store.Store, types ...store.EventType) []store.NotificationEvent {
	t.Helper()
	q, err := st.QueuedEvents(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []store.NotificationEvent
	for _, ev := range q {
		if slices.Contains(types, store.EventType(ev.EventType)) {
			out = append(out, ev)
		}
	}
	return out
}
