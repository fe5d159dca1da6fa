package eval

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/triage"
)

// writeCase writes body to dir/rel, creating folders.
func writeCase(t *testing.T, dir, rel, body string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

const goodCase = `{"incident_type":"phishing","severity":"high","source":"s","raw_data":{"a":1},"expected":"malicious","rationale":"why"}`

func TestLoadRejectsInvalidCasesNamingTheFile(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"no label", `{"severity":"high","raw_data":{"a":1},"rationale":"r"}`, "expected must be one of"},
		{"unknown is not a label", `{"severity":"high","raw_data":{"a":1},"expected":"unknown","rationale":"r"}`, "expected must be one of"},
		{"bad severity", `{"severity":"urgent","raw_data":{"a":1},"expected":"benign","rationale":"r"}`, "severity must be one of"},
		{"empty raw data", `{"severity":"low","raw_data":{},"expected":"benign","rationale":"r"}`, "raw_data must be a non-empty object"},
		{"raw data not an object", `{"severity":"low","raw_data":[1],"expected":"benign","rationale":"r"}`, "invalid JSON"},
		{"no rationale", `{"severity":"low","raw_data":{"a":1},"expected":"benign"}`, "rationale must be one non-empty line"},
		{"two-line rationale", `{"severity":"low","raw_data":{"a":1},"expected":"benign","rationale":"a\nb"}`, "rationale must be one non-empty line"},
		{"misspelt field", `{"severity":"low","raw_data":{"a":1},"expectd":"benign","expected":"benign","rationale":"r"}`, "unknown field"},
		{"trailing value", goodCase + `{}`, "more than one value"},
		{"not JSON", `{"severity":`, "invalid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeCase(t, dir, "email/ok.json", goodCase)
			writeCase(t, dir, "email/bad-case.json", tt.body)
			_, err := Load(dir)
			if err == nil {
				t.Fatal("Load accepted an invalid case")
			}
			if !strings.Contains(err.Error(), "email/bad-case.json") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q should name email/bad-case.json and say %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "ok.json") {
				t.Fatalf("error %q blames the valid file", err)
			}
		})
	}
}

func TestLoadReportsEveryBadFileAndRefusesAnEmptyDirectory(t *testing.T) {
	dir := t.TempDir()
	writeCase(t, dir, "a/one.json", `{}`)
	writeCase(t, dir, "b/two.json", `{}`)
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "a/one.json") || !strings.Contains(err.Error(), "b/two.json") {
		t.Fatalf("want both files named, got %v", err)
	}
	if _, err := Load(t.TempDir()); err == nil {
		t.Fatal("an empty directory must be an error, not a perfect score")
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing directory must be an error")
	}
}

func TestLoadReadsNestedFoldersInOrder(t *testing.T) {
	dir := t.TempDir()
	writeCase(t, dir, "z/late.json", goodCase)
	writeCase(t, dir, "a/deep/early.json", goodCase)
	writeCase(t, dir, "top.json", goodCase)
	writeCase(t, dir, "a/notes.txt", "not a case")
	cases, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range cases {
		got = append(got, c.Folder+"|"+c.File)
	}
	want := "a/deep|a/deep/early.json,.|top.json,z|z/late.json"
	if strings.Join(got, ",") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
	if cases[0].IncidentType != "phishing" || cases[0].RawData["a"] != float64(1) {
		t.Fatalf("fields not decoded like the service decodes raw data: %+v", cases[0])
	}
}

// fakeAnalyzer answers from a table keyed by the case's source, so each
// case's answer is chosen by the test.
type fakeAnalyzer map[string]string

func (f fakeAnalyzer) Analyze(_ context.Context, inc triage.Incident, _ triage.Indicators) (triage.Analysis, error) {
	class := f[inc.Source]
	if class == "error" {
		return triage.Analysis{}, errors.New("model unavailable")
	}
	return triage.Analysis{Verdict: triage.Verdict{Classification: class, Confidence: 0.5, Reasoning: "fake says " + class}}, nil
}

func TestRunScoresExactBinaryConfusionAndCriticalMisses(t *testing.T) {
	mk := func(file, folder, severity, expected, answer string) Case {
		return Case{File: file, Folder: folder, Severity: severity, Expected: expected, Source: answer + ":" + file,
			RawData: map[string]any{"x": file}, Rationale: "r"}
	}
	cases := []Case{
		mk("e/1", "e", "critical", "malicious", "malicious"),   // exact
		mk("e/2", "e", "critical", "malicious", "benign"),      // critical miss
		mk("e/3", "e", "high", "malicious", "benign"),          // miss, not critical
		mk("e/4", "e", "critical", "malicious", "suspicious"),  // binary right only
		mk("i/1", "i", "medium", "suspicious", "malicious"),    // binary right only
		mk("i/2", "i", "medium", "suspicious", "unknown"),      // wrong both ways
		mk("i/3", "i", "low", "benign", "benign"),              // exact
		mk("i/4", "i", "low", "benign", "unknown"),             // wrong both ways
		mk("i/5", "i", "low", "benign", "suspicious"),          // wrong both ways
		mk("i/6", "i", "critical", "malicious", "error"),       // analyzer error: unknown
		mk("i/7", "i", "critical", "malicious", "bogus-class"), // outside the classes: unknown
	}
	f := fakeAnalyzer{}
	for _, c := range cases {
		f[c.Source] = strings.SplitN(c.Source, ":", 2)[0]
	}
	rep, err := Run(context.Background(), f, cases, WithIntel(nil))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Total != 11 || rep.Exact != 2 || rep.Binary != 4 {
		t.Fatalf("total/exact/binary = %d/%d/%d, want 11/2/4", rep.Total, rep.Exact, rep.Binary)
	}
	if rep.ExactAccuracy != 2.0/11 || rep.BinaryAccuracy != 4.0/11 {
		t.Fatalf("accuracies %v %v", rep.ExactAccuracy, rep.BinaryAccuracy)
	}
	want := [3][4]int{
		{1, 1, 2, 2}, // malicious: e/1; e/4; e/2 e/3; i/6 i/7
		{1, 0, 0, 1}, // suspicious: i/1; i/2
		{0, 1, 1, 1}, // benign: i/5; i/3; i/4
	}
	if rep.Confusion != want {
		t.Fatalf("confusion %v, want %v", rep.Confusion, want)
	}
	if rep.Expected() != [3]int{6, 2, 3} {
		t.Fatalf("expected counts %v", rep.Expected())
	}
	if len(rep.CriticalMisses) != 1 || rep.CriticalMisses[0].File != "e/2" {
		t.Fatalf("critical misses %+v, want only e/2", rep.CriticalMisses)
	}
	if len(rep.Wrong) != 9 {
		t.Fatalf("wrong %d, want 9", len(rep.Wrong))
	}
	for _, w := range rep.Wrong {
		if w.File == "i/6" && (w.Got != triage.ClassUnknown || w.Error != "model unavailable") {
			t.Fatalf("analyzer error not recorded as unknown: %+v", w)
		}
		if w.File == "e/3" && (w.Reasoning != "fake says benign" || w.Rationale != "r") {
			t.Fatalf("wrong case lacks the analyzer's reasoning or the rationale: %+v", w)
		}
	}
	wantFolders := []FolderScore{{"e", 4, 1, 0.25}, {"i", 7, 1, 1.0 / 7}}
	if len(rep.Folders) != 2 || rep.Folders[0] != wantFolders[0] || rep.Folders[1] != wantFolders[1] {
		t.Fatalf("folders %+v, want %+v", rep.Folders, wantFolders)
	}
	var text strings.Builder
	if err := rep.WriteText(&text, true); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"Exact accuracy:  2/11 = 18.2%", "Binary accuracy: 4/11 = 36.4%", "Critical misses (critical malicious called benign): 1", "  e/2\n",
		"e/3 [high]: expected malicious, got benign", "analyzer: fake says benign", "analyzer error: model unavailable"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("text report lacks %q:\n%s", s, text.String())
		}
	}
}

// intelRecorder remembers the reputations each incident arrived with.
type intelRecorder struct {
	seen map[string][]triage.Reputation
}

func (r intelRecorder) Analyze(_ context.Context, inc triage.Incident, _ triage.Indicators) (triage.Analysis, error) {
	r.seen[inc.Source] = inc.Intel
	return triage.Analysis{Verdict: triage.Verdict{Classification: triage.ClassUnknown}}, nil
}

func TestRunEnrichesIndicatorsLikeTheService(t *testing.T) {
	eicar := "275a021bbfb6489e54d471899f7db9d1663fc695ec2fe2a2c4538aabf651fd0f"
	cases := []Case{{File: "a.json", Source: "a", Severity: "low", Expected: "benign", Rationale: "r",
		RawData: map[string]any{"sha256": eicar, "note": "see https://micros0ft-login.com/signin"}}}
	rec := intelRecorder{seen: map[string][]triage.Reputation{}}
	if _, err := Run(context.Background(), rec, cases); err != nil {
		t.Fatal(err)
	}
	byValue := map[string]triage.Reputation{}
	for _, r := range rec.seen["a"] {
		byValue[r.Value] = r
	}
	if r := byValue[eicar]; r.Verdict != triage.ReputationMalicious || !r.Simulated || r.Type != triage.IndicatorHash {
		t.Fatalf("EICAR hash not rated by the simulated source: %+v", rec.seen["a"])
	}
	if r := byValue["micros0ft-login.com"]; r.Verdict != triage.ReputationMalicious {
		t.Fatalf("look-alike domain not rated: %+v", rec.seen["a"])
	}
	if _, err := Run(context.Background(), rec, cases, WithIntel(nil)); err != nil {
		t.Fatal(err)
	}
	if len(rec.seen["a"]) != 0 {
		t.Fatalf("WithIntel(nil) still enriched: %+v", rec.seen["a"])
	}
}

func TestRunStopsOnCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []Case{{File: "a.json", Severity: "low", Expected: "benign", Rationale: "r", RawData: map[string]any{"a": 1}}}
	if _, err := Run(ctx, triage.NewRuleAnalyzer(), cases); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
}
