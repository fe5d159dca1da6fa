package eval

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/triage"
)

// modelFile is the word model the analyzer embeds.
const modelFile = "../model/words.tsv"

// TestBuiltinWordModelIsTheOneTheSetTrains guards the model against drift:
// it must be exactly what `vigil triage train` counts on the labelled set,
// leaving out the folders the model file names, so that every count can be
// traced to the cases and the blind folders stay blind.
func TestBuiltinWordModelIsTheOneTheSetTrains(t *testing.T) {
	committed, err := os.ReadFile(modelFile)
	if err != nil {
		t.Fatal(err)
	}
	excluded := ExcludedFolders(triage.BuiltinWordModel())
	if len(excluded) == 0 {
		t.Fatal("the built-in model names no excluded folders; at least one blind folder must stay out of training")
	}
	cases, err := Load(setDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range excluded {
		if !hasFolder(cases, f) {
			t.Errorf("the model leaves out %q, which holds no cases", f)
		}
	}
	m, err := TrainWords(cases, excluded)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != string(committed) {
		t.Fatalf("triage/model/words.tsv is not what the labelled set trains; run `vigil triage train triage/testdata/eval --exclude %s --output triage/model/words.tsv`",
			strings.Join(excluded, ","))
	}
}

func TestTrainWordsLeavesExcludedFoldersOut(t *testing.T) {
	cases := []Case{
		{File: "a/one.json", IncidentType: "alert", Severity: "low", Expected: triage.ClassMalicious, RawData: map[string]any{"x": "zorbel"}},
		{File: "a/two.json", IncidentType: "alert", Severity: "low", Expected: triage.ClassSuspicious, RawData: map[string]any{"x": "zorbel"}},
		{File: "b/three.json", IncidentType: "alert", Severity: "low", Expected: triage.ClassBenign, RawData: map[string]any{"x": "quillon"}},
		{File: "b/four.json", IncidentType: "alert", Severity: "low", Expected: triage.ClassBenign, RawData: map[string]any{"x": "quillon"}},
		{File: "c/five.json", IncidentType: "alert", Severity: "low", Expected: triage.ClassBenign, RawData: map[string]any{"x": "zorbel"}},
	}
	m, err := TrainWords(cases, []string{"c"})
	if err != nil {
		t.Fatal(err)
	}
	if m.Docs != [3]int{1, 1, 2} {
		t.Errorf("docs = %v, want [1 1 2] (folder c left out)", m.Docs)
	}
	if got := m.Terms["zorbel"]; got != [3]int{1, 1, 0} {
		t.Errorf("zorbel counts = %v, want [1 1 0]", got)
	}
	if got := ExcludedFolders(m); len(got) != 1 || got[0] != "c" {
		t.Errorf("excluded folders read back as %q, want [c]", got)
	}
}

func TestCrossValidateNeedsTwoFolders(t *testing.T) {
	cases := []Case{{File: "one.json", IncidentType: "alert", Severity: "low", Expected: triage.ClassBenign, RawData: map[string]any{}}}
	_, err := CrossValidate(context.Background(), cases, nil)
	if err == nil || !strings.Contains(err.Error(), "at least two top-level folders") {
		t.Fatalf("cross-validating one folder: %v", err)
	}
}

// hasFolder reports whether any case lies under the top-level folder f.
func hasFolder(cases []Case, f string) bool {
	for _, c := range cases {
		if topFolder(c.File) == f {
			return true
		}
	}
	return false
}
