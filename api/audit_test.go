package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/store"
)

func TestAuditTrailRecordsWritesAndDenials(t *testing.T) {
	analyst := keyFor(t, store.RoleAnalyst)
	me := call(t, http.MethodGet, "/api/users/me", analyst, nil).data()
	actor := me["username"].(string)
	inc := createIncident(t, analyst, map[string]any{"incident_type": "audit", "source": "t", "severity": "low"})
	id := inc["id"].(string)
	expectStatus(t, call(t, http.MethodDelete, "/api/incidents/"+id, analyst, nil), http.StatusForbidden)
	expectStatus(t, call(t, http.MethodPut, "/api/incidents/"+id, analyst, map[string]any{"status": "bogus"}), http.StatusUnprocessableEntity)

	r := call(t, http.MethodGet, "/api/audit?actor="+actor, env.adminKey, nil)
	expectStatus(t, r, http.StatusOK)
	events := r.Body["data"].([]any)
	want := map[string]string{"incident.create": "success", "incident.delete": "denied", "incident.update": "failure"}
	for _, e := range events {
		ev := e.(map[string]any)
		if outcome, ok := want[ev["action"].(string)]; ok && ev["outcome"] == outcome && ev["target_id"] == id {
			delete(want, ev["action"].(string))
			if ev["client_ip"] == "" || ev["occurred_at"] == nil || ev["auth_method"] != "api_key" {
				t.Errorf("event lacks who/where/when: %v", ev)
			}
		}
	}
	if len(want) > 0 {
		t.Fatalf("audit trail misses %v in %s", want, r.Raw)
	}
	if r.Body["meta"].(map[string]any)["total"].(float64) < 3 {
		t.Fatalf("meta: %v", r.Body["meta"])
	}
	r = call(t, http.MethodGet, "/api/audit?actor="+actor+"&outcome=denied", env.adminKey, nil)
	if n := len(r.Body["data"].([]any)); n != 1 {
		t.Fatalf("outcome filter returned %d events, want 1", n)
	}
	expectStatus(t, call(t, http.MethodGet, "/api/audit?outcome=meh", env.adminKey, nil), http.StatusUnprocessableEntity)
	expectStatus(t, call(t, http.MethodGet, "/api/audit", keyFor(t, store.RoleManager), nil), http.StatusForbidden)
}

func TestAuditTrailIsAppendOnly(t *testing.T) {
	ctx := context.Background()
	e := &store.AuditEvent{Action: "test.append_only", Outcome: store.OutcomeSuccess}
	if err := env.store.RecordAudit(ctx, e); err != nil {
		t.Fatal(err)
	}
	if err := env.store.DB().Model(&store.AuditEvent{}).Where("id = ?", e.ID).Update("outcome", "failure").Error; err == nil {
		t.Fatal("an audit event was updated")
	}
	if err := env.store.DB().Where("id = ?", e.ID).Delete(&store.AuditEvent{}).Error; err == nil {
		t.Fatal("an audit event was deleted")
	}
}

func TestAuditTrailHoldsNoSecrets(t *testing.T) {
	name := "secretive-" + randomSuffix()
	expectStatus(t, call(t, http.MethodPost, "/api/users", env.adminKey, map[string]any{
		"username": name, "email": name + "@corp.example", "role": "viewer", "password": "hunter2hunter2hunter2",
	}), http.StatusCreated)
	key := call(t, http.MethodPost, "/api/api-keys", env.adminKey, map[string]any{"name": "k"}).data()["key"].(string)
	b := newBrowser(t)
	doRequest(t, b, env.server.URL, http.MethodPost, "/login", "", map[string]any{"username": name, "password": "wrong-password-123"}, nil)
	events, _, err := env.store.ListAudit(context.Background(), store.AuditFilter{Page: 1, PerPage: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		d := string(mustJSON(e))
		for _, secret := range []string{"hunter2hunter2hunter2", "wrong-password-123", key} {
			if strings.Contains(d, secret) {
				t.Fatalf("audit event holds a secret: %s", d)
			}
		}
	}
}
