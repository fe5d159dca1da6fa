package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTriageEvalPrintsTheReportAndFailsOnBadCases(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("endpoint/eicar.json", `{"incident_type":"malware","severity":"high","source":"edr",
		"raw_data":{"detection":"known malware","sha256":"275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f"},
		"expected":"malicious","rationale":"EICAR hash rated malicious"}`)

	out, err := capture(t, "triage", "eval", dir, "--verbose")
	if err != nil {
		t.Fatalf("eval: %v", err)
	}
	for _, s := range []string{"Cases: 1 (malicious 1, suspicious 0, benign 0)", "Exact accuracy:", "Binary accuracy:", "Confusion matrix", "Critical misses"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}

	out, err = capture(t, "triage", "eval", "--json", dir)
	if err != nil {
		t.Fatalf("eval --json: %v", err)
	}
	var rep struct {
		Total     int       `json:"total"`
		Confusion [3][4]int `json:"confusion"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Total != 1 {
		t.Fatalf("--json output %q: %v", out, err)
	}

	write("email/broken.json", `{"severity":"high","raw_data":{"a":1},"expected":"maybe","rationale":"r"}`)
	if _, err := capture(t, "triage", "eval", dir); err == nil || !strings.Contains(err.Error(), "email/broken.json") {
		t.Fatalf("a bad case must fail the command naming the file, got %v", err)
	}
	if _, err := capture(t, "triage", "eval"); err == nil {
		t.Fatal("eval without a directory must fail")
	}
	if _, err := capture(t, "triage", "grade", dir); err == nil {
		t.Fatal("an unknown triage subcommand must fail")
	}
}
