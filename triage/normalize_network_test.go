package triage

import (
	"strings"
	"testing"
)

func TestExploitCallbackNeedsTheTargetToCallTheAttackerBack(t *testing.T) {
	exploit := map[string]any{"src_ip": "192.0.2.9", "dest_ip": "10.0.0.5", "alert": map[string]any{"signature": "ET EXPLOIT Log4j JNDI lookup (CVE-2021-44228)"}}
	back := map[string]any{"src_ip": "10.0.0.5", "dest_ip": "192.0.2.9", "event_type": "flow"}
	elsewhere := map[string]any{"src_ip": "10.0.0.5", "dest_ip": "198.51.100.1", "event_type": "flow"}
	if !exploitCallback(map[string]any{"events": []any{exploit, back}}) {
		t.Error("a flow from the target back to the attacker was not read as a callback")
	}
	if exploitCallback(map[string]any{"events": []any{exploit, elsewhere}}) {
		t.Error("a flow to an unrelated address was read as a callback")
	}
}

func TestDNSTunnelFromCountsOrSampleQueries(t *testing.T) {
	counts := map[string]any{"distinct_subdomains": 900, "query_types": "TXT"}
	samples := map[string]any{"query_types": "TXT", "sample_queries": []any{
		"q8v2kx7nj3t0bz8wr1ep5hla6cyd4nug2fso7ik.example.top",
		"z3x8n0ab6lw2ty9ck4ve1jq7hmz5rsg0ud8fo3.example.top",
		"b7c1z4mu9ge3kq6xb0ty2wn8rld5vjo1hp7fs3.example.top",
	}}
	ordinary := map[string]any{"query_types": "A", "distinct_subdomains": 12, "sample_queries": []any{"www.example.com", "mail.example.com"}}
	for name, tc := range map[string]struct {
		raw  map[string]any
		want bool
	}{"counts": {counts, true}, "samples": {samples, true}, "ordinary": {ordinary, false}} {
		if got := dnsTunnel(newDoc(tc.raw)); got != tc.want {
			t.Errorf("%s: dnsTunnel = %v, want %v", name, got, tc.want)
		}
	}
}

func TestUnissuableSSNs(t *testing.T) {
	for text, want := range map[string]bool{
		"987-65-4320 987-65-4329":    true,
		"900-12-0001 666-01-2345":    true,
		"987-65-4321 123-45-6789":    false,
		"no identifiers here at all": false,
	} {
		if got := unissuableSSNsOnly(text); got != want {
			t.Errorf("unissuableSSNsOnly(%q) = %v, want %v", text, got, want)
		}
	}
}

func TestAffirmedPhraseIgnoresNegatedMentions(t *testing.T) {
	for text, want := range map[string]string{
		"recipient is a trusted domain on the allowlist": "trusted domain",
		"recipient is not a trusted domain":              "",
		"no sign the key was leaked. key leaked in gist": "leaked",
		"there is no evidence the key was leaked":        "",
	} {
		phrase := "trusted domain"
		if strings.Contains(text, "leaked") {
			phrase = "leaked"
		}
		if got := affirmedPhrase(text, phrase); got != want {
			t.Errorf("affirmedPhrase(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestZscalerWebRecordIsDLPOnlyWhenAnEngineMatched(t *testing.T) {
	web := map[string]any{"event": map[string]any{"urlcategory": "Botnet Callback", "dlpengine": "None", "dlpdictionaries": "None", "hostname": "bad.example", "serverip": "192.0.2.1"}}
	dlp := map[string]any{"event": map[string]any{"urlcategory": "File Host", "dlpengine": "PII", "dlpdictionaries": "Social Security Numbers", "hostname": "file.io"}}
	if f := normalize(Incident{RawData: web}, Indicators{}); f.Shape == "dlp" || !f.Network.MaliciousDestination {
		t.Errorf("web record read as shape %q, network %+v", f.Shape, f.Network)
	}
	if f := normalize(Incident{RawData: dlp}, Indicators{}); f.Shape != "dlp" {
		t.Errorf("DLP record read as shape %q", f.Shape)
	}
}

func TestExploitCallbackReadsNestedECSAddresses(t *testing.T) {
	raw := map[string]any{"hits": []any{
		map[string]any{"source": map[string]any{"ip": "192.0.2.9"}, "destination": map[string]any{"ip": "10.0.0.5"}, "rule": map[string]any{"name": "x"}, "suricata": map[string]any{"eve": map[string]any{"alert": map[string]any{"signature": "ET EXPLOIT Confluence OGNL injection"}}}},
		map[string]any{"source": map[string]any{"ip": "10.0.0.5"}, "destination": map[string]any{"ip": "192.0.2.9", "port": 4444}},
	}}
	if !exploitCallback(raw) {
		t.Error("nested source.ip / destination.ip flows were not read")
	}
}
