package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/triage"
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

func TestTriageTrainWritesTheModelAndCrossValidateUsesOtherFolders(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ folder, label, words string }{
		{"a", "malicious", "zorbel"}, {"a", "suspicious", "mirren"}, {"a", "benign", "quillon"},
		{"b", "malicious", "zorbel"}, {"b", "suspicious", "mirren"}, {"b", "benign", "quillon"},
		{"blind", "benign", "quillon"},
	} {
		p := filepath.Join(dir, c.folder, fmt.Sprintf("case%d.json", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf(`{"incident_type":"alert","severity":"medium","source":"x","raw_data":{"note":%q},"expected":%q,"rationale":"r"}`,
			c.words, c.label)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	model := filepath.Join(t.TempDir(), "words.tsv")
	if _, err := capture(t, "triage", "train", dir, "--exclude", "blind", "--output", model); err != nil {
		t.Fatalf("train: %v", err)
	}
	f, err := os.Open(model)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := triage.ReadWordModel(f)
	if err != nil {
		t.Fatalf("the written model does not read back: %v", err)
	}
	if m.Docs != [3]int{2, 2, 2} || m.Terms["quillon"] != [3]int{0, 0, 2} {
		t.Errorf("model counts %v alerts and quillon %v, want [2 2 2] and [0 0 2] (blind left out)", m.Docs, m.Terms["quillon"])
	}
	if !slices.Contains(m.Comment, "excluded folders: blind") {
		t.Errorf("the model does not say what it left out: %q", m.Comment)
	}

	out, err := capture(t, "triage", "eval", dir, "--cross-validate")
	if err != nil {
		t.Fatalf("eval --cross-validate: %v", err)
	}
	if !strings.Contains(out, "Cases: 7") {
		t.Errorf("cross-validated report:\n%s", out)
	}
	if _, err := capture(t, "triage", "eval", filepath.Join(dir, "a"), "--cross-validate"); err == nil ||
		!strings.Contains(err.Error(), "at least two top-level folders") {
		t.Errorf("cross-validating one folder: %v", err)
	}
}
