package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// A triage requested while the incident's automated triage is still
// queued (held here by the kill switch) joins the queued run: 202 naming
// it, and no second run. Once the kill switch is lifted, that one run
// stores the verdict.
func TestTriageRequestJoinsTheQueuedAutomatedRun(t *testing.T) {
	ctx := context.Background()
	manager := keyFor(t, store.RoleManager)
	setKillSwitch(t, manager, true)
	t.Cleanup(func() { setKillSwitch(t, manager, false) })
	name := "queued-" + randomSuffix()
	secret := registerSource(t, name, map[string]any{"auto_triage": true})
	r := deliver(t, name, secret, strings.Replace(edrAlert, "%s", randomSuffix(), 1), time.Now())
	expectStatus(t, r, http.StatusCreated)
	id := r.Body["incident_id"].(string)
	queued, err := env.store.ListTriages(ctx, id, 10)
	if err != nil || len(queued) != 1 || queued[0].Status != store.TriageRunning {
		t.Fatalf("queued triage runs: %+v (%v), want one running", queued, err)
	}

	resp := call(t, http.MethodPost, "/api/incidents/"+id+"/triage", keyFor(t, store.RoleAnalyst), nil)
	expectStatus(t, resp, http.StatusAccepted)
	if resp.data()["triage_id"] != queued[0].ID || resp.data()["status"] != store.TriageRunning {
		t.Fatalf("triage request answered %v, want the queued run %s", resp.data(), queued[0].ID)
	}

	setKillSwitch(t, manager, false)
	testenv.Eventually(t, 30*time.Second, func() bool {
		return call(t, http.MethodGet, "/api/incidents/"+id, env.adminKey, nil).data()["status"] == "triaged"
	}, "the queued triage of %s never ran", id)
	runs, err := env.store.ListTriages(ctx, id, 10)
	if err != nil || len(runs) != 1 || runs[0].ID != queued[0].ID || runs[0].Status != store.TriageCompleted {
		t.Fatalf("triage runs after the kill switch was lifted: %+v (%v), want the queued one completed", runs, err)
	}
}
