package verdict

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func TestGoalsAndMet(t *testing.T) {
	cases := []struct {
		name       string
		v          Verdict
		goal, met  string
		ratioShown string
	}{
		{"latency within", AtMost("a", "", "", 1.2, OfP99, 1.5), "≤ 1.50×", "yes", "1.20× p99"},
		{"latency above", AtMost("a", "", "", 1.51, OfP99, 1.5), "≤ 1.50×", "no", "1.51× p99"},
		{"latency without a ratio", AtMost("a", "", "", 0, OfP99, 1.5), "≤ 1.50×", "no", None},
		{"throughput reached", AtLeast("a", "", "", 0.9, OfThroughput, 0.9), "≥ 0.90×", "yes", "0.90× per s"},
		{"throughput short", AtLeast("a", "", "", 0.042, OfThroughput, 0.9), "≥ 0.90×", "no", "0.042× per s"},
		{"no goal", AtLeast("a", "", "", 0.5, "", 0), None, None, "0.50×"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.v.Goal != c.goal || c.v.Met != c.met || c.v.ratioText() != c.ratioShown {
				t.Fatalf("goal %q met %q ratio %q, want %q %q %q", c.v.Goal, c.v.Met, c.v.ratioText(), c.goal, c.met, c.ratioShown)
			}
		})
	}
}

func TestAppendThenReadKeepsOrderAcrossPrograms(t *testing.T) {
	path := filepath.Join(t.TempDir(), "verdicts.jsonl")
	first := []Verdict{AtLeast("intake <b>", "2100/s", "bare", 0.5, OfThroughput, 0)}
	second := []Verdict{{Path: "kill switch", Vigil: "12 ms", Baseline: None, Goal: "≤ 100 ms", Met: NotJudged("seed 1000")}}
	if err := Append(path, first); err != nil {
		t.Fatal(err)
	}
	if err := Append(path, second); err != nil {
		t.Fatal(err)
	}
	if err := Append("", second); err != nil {
		t.Fatalf("no file: %v", err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := append(first, second...)
	if len(got) != len(want) {
		t.Fatalf("read %d verdicts, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("verdict %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	var out bytes.Buffer
	Print(&out, got)
	if !strings.Contains(out.String(), "| kill switch | 12 ms | — | — | ≤ 100 ms | — (seed 1000) |") {
		t.Fatalf("table:\n%s", out.String())
	}
}
