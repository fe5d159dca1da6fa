package content_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/vigil-soc/vigil/content"
	"github.com/vigil-soc/vigil/store"
)

const playbookData = `{"name":"Contain host","description":"isolate it","triggers":{"incident_type":"malware"},
 "steps":[{"name":"isolate","action":"isolate_host","parameters":{"host_id":"{{ incident.raw_data.host }}"}}]}`

const huntData = `{"hypothesis":"spraying","hunt_type":"on_demand","status":"active",
 "queries":[{"query_type":"sql","library_id":"ca-password-spray"},{"query_type":"sql","library_id":"team-odd-logons","name":"odd"}],
 "mitre_techniques":["T1110.003"],"tags":["identity"]}`

// samplePackage holds one item of every type.
func samplePackage(version string) []byte {
	p := map[string]any{
		"manifest": map[string]any{"name": "team-content", "version": version, "description": "shared", "author": "Blue team",
			"tags": []string{"team"}},
		"contents": []any{
			map[string]any{"type": "playbook", "name": "Contain host", "data": json.RawMessage(playbookData)},
			map[string]any{"type": "hunt", "name": "Spray watch", "data": json.RawMessage(huntData)},
			map[string]any{"type": "knowledge", "title": "Ransomware runbook", "content": "# Ransomware\n\nIsolate first.",
				"tags": []string{"runbook"}, "incident_types": []string{"malware"}},
			map[string]any{"type": "query", "name": "team-odd-logons", "title": "Odd logons", "query_type": "sql",
				"query":    "SELECT user_name FROM auth_events WHERE ts >= :from AND ts < :to AND hour > :late",
				"category": "initial_access", "severity": "medium", "expected_baseline": 2,
				"parameters": []any{map[string]any{"name": "late", "type": "int", "default": 22}},
				"templates":  map[string]string{"siem_search": "search index=auth hour>$late$"}, "mitre_techniques": []string{"T1078"},
				"key_fields": []string{"user_name"}},
		},
	}
	b, _ := json.Marshal(p)
	return b
}

func check(t *testing.T, text []byte, opts content.Options) (*content.Package, content.Report) {
	t.Helper()
	p, rep, err := content.Check(text, opts)
	if err != nil {
		t.Fatalf("check: %v", err)
	}
	return p, rep
}

func install(t *testing.T, st *store.Store, text []byte, conflict content.Conflict) content.Result {
	t.Helper()
	p, rep := check(t, text, content.Options{ServiceVersion: "2.1.0"})
	if rep.PackageError {
		t.Fatalf("package error: %v", rep.Errors)
	}
	res, err := content.Install(context.Background(), st, p, rep, content.InstallOptions{Conflict: conflict, By: "alice"})
	if err != nil {
		t.Fatalf("install: %v", err)
	}
	return res
}

func actions(res content.Result) map[string]string {
	out := map[string]string{}
	for _, o := range res.Items {
		out[o.Type+":"+o.Name] = o.Action
	}
	return out
}
