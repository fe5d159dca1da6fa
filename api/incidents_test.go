package api_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestCreateAndReadIncident(t *testing.T) {
	key := keyFor(t, "analyst")
	d := createIncident(t, key, map[string]any{
		"incident_type": "phishing", "source": "email-gateway", "severity": "high",
		"raw_data": map[string]any{"sender": "a@b.example", "nested": map[string]any{"n": 1.5}},
	})
	num, _ := d["incident_number"].(string)
	if !regexp.MustCompile(fmt.Sprintf(`^INC-%d-\d{4,}$`, time.Now().UTC().Year())).MatchString(num) {
		t.Fatalf("incident_number %q does not match INC-<year>-<seq>", num)
	}
	if d["status"] != "open" || d["id"] == "" || d["created_at"] == nil {
		t.Fatalf("create response missing fields: %v", d)
	}
	r := call(t, http.MethodGet, "/api/incidents/"+d["id"].(string), keyFor(t, "viewer"), nil)
	expectStatus(t, r, http.StatusOK)
	got := r.data()
	raw, _ := got["raw_data"].(map[string]any)
	if raw["sender"] != "a@b.example" || raw["nested"].(map[string]any)["n"] != 1.5 {
		t.Fatalf("raw_data did not round-trip: %v", got["raw_data"])
	}
	if _, ok := got["verdict"]; ok {
		t.Fatal("an untriaged incident must not carry a verdict")
	}
	if acts, ok := got["recommended_actions"].([]any); !ok || len(acts) != 0 {
		t.Fatalf("recommended_actions = %v, want []", got["recommended_actions"])
	}
	created, err := time.Parse(time.RFC3339Nano, got["created_at"].(string))
	if err != nil || created.Location() != time.UTC {
		t.Fatalf("created_at %v is not an ISO 8601 UTC timestamp", got["created_at"])
	}
	if !strings.HasSuffix(got["created_at"].(string), "Z") {
		t.Fatalf("created_at %v is not in UTC", got["created_at"])
	}
}

func TestCreateIncidentValidation(t *testing.T) {
	key := keyFor(t, "analyst")
	cases := []struct {
		name   string
		body   any
		status int
		fields []string
	}{
		{"missing all", map[string]any{}, 422, []string{"incident_type", "source", "severity"}},
		{"bad severity", map[string]any{"incident_type": "malware", "source": "edr", "severity": "urgent"}, 422, []string{"severity"}},
		{"blank type", map[string]any{"incident_type": "  ", "source": "edr", "severity": "low"}, 422, []string{"incident_type"}},
		{"wrong type", map[string]any{"incident_type": 5, "source": "edr", "severity": "low"}, 422, []string{"incident_type"}},
		{"raw_data not object", map[string]any{"incident_type": "x", "source": "edr", "severity": "low", "raw_data": "text"}, 422, []string{"raw_data"}},
		{"unknown field", map[string]any{"incident_type": "x", "source": "edr", "severity": "low", "sevrity": "low"}, 422, []string{"sevrity"}},
		{"too long source", map[string]any{"incident_type": "x", "source": strings.Repeat("s", 300), "severity": "low"}, 422, []string{"source"}},
		{"malformed json", `{"incident_type": "x",`, 400, nil},
		{"NUL in raw data", `{"incident_type":"x","source":"y","severity":"low","raw_data":{"a":"b\u0000c"}}`, 422, nil},
		{"not an object", `[1,2]`, 400, nil},
		{"two values", `{"incident_type":"x","source":"y","severity":"low"} {}`, 400, nil},
		{"empty body", ``, 400, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := call(t, http.MethodPost, "/api/incidents", key, tc.body)
			expectStatus(t, r, tc.status)
			if r.errCode() == "" {
				t.Fatalf("no error envelope: %s", r.Raw)
			}
			for _, f := range tc.fields {
				if _, ok := r.errDetails()[f]; !ok {
					t.Errorf("details do not name %q: %s", f, r.Raw)
				}
			}
		})
	}
}

func TestListIncidentsFiltersAndMeta(t *testing.T) {
	key := keyFor(t, "analyst")
	typ := fmt.Sprintf("list-test-%d", time.Now().UnixNano())
	for _, sev := range []string{"low", "high", "high", "critical", "medium"} {
		createIncident(t, key, map[string]any{"incident_type": typ, "source": "siem", "severity": sev})
	}
	r := call(t, http.MethodGet, "/api/incidents?type="+typ+"&severity=high", key, nil)
	expectStatus(t, r, http.StatusOK)
	meta := r.Body["meta"].(map[string]any)
	if meta["total"] != 2.0 || meta["page"] != 1.0 || meta["per_page"] != 20.0 {
		t.Fatalf("meta = %v", meta)
	}
	rows := r.Body["data"].([]any)
	if len(rows) != 2 {
		t.Fatalf("%d rows, want 2", len(rows))
	}
	row := rows[0].(map[string]any)
	for _, f := range []string{"id", "incident_number", "incident_type", "severity", "status", "source", "created_at", "updated_at"} {
		if _, ok := row[f]; !ok {
			t.Errorf("list row lacks %q", f)
		}
	}
	if _, ok := row["raw_data"]; ok {
		t.Error("list rows must not carry raw_data")
	}

	r = call(t, http.MethodGet, "/api/incidents?type="+typ+"&sort=-severity&per_page=2&page=1", key, nil)
	expectStatus(t, r, http.StatusOK)
	rows = r.Body["data"].([]any)
	if len(rows) != 2 || rows[0].(map[string]any)["severity"] != "critical" || rows[1].(map[string]any)["severity"] != "high" {
		t.Fatalf("sort=-severity page 1: %v", rows)
	}
	if r.Body["meta"].(map[string]any)["total"] != 5.0 {
		t.Fatalf("total with paging = %v, want 5", r.Body["meta"])
	}

	future := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	r = call(t, http.MethodGet, "/api/incidents?type="+typ+"&created_after="+future, key, nil)
	expectStatus(t, r, http.StatusOK)
	if len(r.Body["data"].([]any)) != 0 {
		t.Fatal("created_after in the future returned rows")
	}
	r = call(t, http.MethodGet, "/api/incidents?type="+typ+"&created_before="+future+"&status=open", key, nil)
	if r.Body["meta"].(map[string]any)["total"] != 5.0 {
		t.Fatalf("created_before in the future: %v", r.Body["meta"])
	}
}

func TestListIncidentsRejectsBadParameters(t *testing.T) {
	key := keyFor(t, "viewer")
	cases := map[string]string{
		"status":         "status=closed",
		"severity":       "severity=extreme",
		"per_page":       "per_page=101",
		"page":           "page=0",
		"created_after":  "created_after=yesterday",
		"created_before": "created_before=2026-13-45T00:00:00Z",
		"sort":           "sort=-raw_data",
	}
	for param, query := range cases {
		t.Run(param, func(t *testing.T) {
			r := call(t, http.MethodGet, "/api/incidents?"+query, key, nil)
			expectStatus(t, r, http.StatusUnprocessableEntity)
			if r.errCode() != "validation_error" {
				t.Fatalf("code %q", r.errCode())
			}
			if _, ok := r.errDetails()[param]; !ok {
				t.Fatalf("details do not name %q: %s", param, r.Raw)
			}
		})
	}
}

func TestUpdateIncident(t *testing.T) {
	key := keyFor(t, "analyst")
	id := createIncident(t, key, map[string]any{"incident_type": "malware", "source": "edr", "severity": "low"})["id"].(string)
	r := call(t, http.MethodPut, "/api/incidents/"+id, key, map[string]any{
		"severity": "critical", "status": "resolved", "resolution": "reimaged host",
	})
	expectStatus(t, r, http.StatusOK)
	d := r.data()
	if d["severity"] != "critical" || d["status"] != "resolved" || d["resolution"] != "reimaged host" {
		t.Fatalf("update not applied: %v", d)
	}
	for name, body := range map[string]map[string]any{
		"severity": {"severity": "huge"},
		"status":   {"status": "closed"},
		"body":     {},
	} {
		r := call(t, http.MethodPut, "/api/incidents/"+id, key, body)
		expectStatus(t, r, http.StatusUnprocessableEntity)
		if _, ok := r.errDetails()[name]; !ok {
			t.Errorf("update with %v: details do not name %q: %s", body, name, r.Raw)
		}
	}
	r = call(t, http.MethodPut, "/api/incidents/00000000-0000-0000-0000-000000000000", key, map[string]any{"status": "open"})
	expectStatus(t, r, http.StatusNotFound)
}

func TestDeleteIncidentNeedsAdmin(t *testing.T) {
	analyst := keyFor(t, "analyst")
	id := createIncident(t, analyst, map[string]any{"incident_type": "malware", "source": "edr", "severity": "low"})["id"].(string)
	for _, role := range []string{"viewer", "analyst", "senior", "manager"} {
		r := call(t, http.MethodDelete, "/api/incidents/"+id, keyFor(t, role), nil)
		expectStatus(t, r, http.StatusForbidden)
	}
	r := call(t, http.MethodDelete, "/api/incidents/"+id, env.adminKey, nil)
	expectStatus(t, r, http.StatusNoContent)
	r = call(t, http.MethodGet, "/api/incidents/"+id, analyst, nil)
	expectStatus(t, r, http.StatusNotFound)
	if r.errCode() != "not_found" {
		t.Fatalf("code %q", r.errCode())
	}
	r = call(t, http.MethodDelete, "/api/incidents/"+id, env.adminKey, nil)
	expectStatus(t, r, http.StatusNotFound)
}
