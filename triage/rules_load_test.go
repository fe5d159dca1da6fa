package triage

import (
	"strings"
	"testing"
	"testing/fstest"
)

func TestBuiltinRulesLoad(t *testing.T) {
	rs, err := LoadRules(builtinRuleFiles)
	if err != nil {
		t.Fatalf("built-in rules: %v", err)
	}
	if n := len(rs.Rules()); n < 30 {
		t.Errorf("only %d built-in rules", n)
	}
	for _, r := range rs.Rules() {
		if r.Weight > 0 && len(r.Attack) == 0 && !strings.HasPrefix(r.ID, "alert.") && !strings.HasPrefix(r.ID, "identity.okta") {
			t.Logf("malicious rule %s names no ATT&CK technique", r.ID)
		}
	}
}

func TestLoadRulesRejectsInvalid(t *testing.T) {
	tests := map[string]string{
		"syntax":            "rules:\n  - id: x.bad\n    when: identity.nope\n    weight: 0.1\n    explanation: e\n",
		"not bool":          "rules:\n  - id: x.bad\n    when: identity.user\n    weight: 0.1\n    explanation: e\n",
		"zero weight":       "rules:\n  - id: x.bad\n    when: true\n    weight: 0\n    explanation: e\n",
		"no why":            "rules:\n  - id: x.bad\n    when: true\n    weight: 0.1\n",
		"bad attack":        "rules:\n  - id: x.bad\n    when: true\n    weight: 0.1\n    explanation: e\n    attack: [T12]\n",
		"bad kind":          "rules:\n  - id: x.bad\n    kinds: [dlp]\n    when: true\n    weight: 0.1\n    explanation: e\n",
		"unknown key":       "rules:\n  - id: x.bad\n    when: true\n    wieght: 0.1\n    explanation: e\n",
		"bad group":         "rules:\n  - id: x.bad\n    when: true\n    weight: 0.1\n    explanation: e\n    group: Rented-Network\n",
		"explains alone":    "rules:\n  - id: x.bad\n    when: true\n    weight: -0.5\n    explains: true\n    explanation: e\n",
		"benign keeps open": "rules:\n  - id: x.bad\n    when: true\n    weight: -0.5\n    keeps_open: true\n    explanation: e\n",
		"benign dual use":   "rules:\n  - id: x.bad\n    when: true\n    weight: -0.5\n    dual_use: true\n    explanation: e\n",
		"duplicate id":      "rules:\n  - id: x.bad\n    when: true\n    weight: 0.1\n    explanation: e\n  - id: x.bad\n    when: true\n    weight: 0.1\n    explanation: e\n",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			if _, err := LoadRules(fstest.MapFS{"r.yaml": {Data: []byte(src)}}); err == nil {
				t.Fatal("invalid rule file accepted")
			}
		})
	}
	ok := "rules:\n  - id: x.good\n    when: identity.legacy_auth\n    weight: 0.2\n    explanation: e\n    attack: [T1078]\n"
	rs, err := LoadRules(fstest.MapFS{"r.yaml": {Data: []byte(ok)}})
	if err != nil || len(rs.Rules()) != 1 {
		t.Fatalf("valid file: %v", err)
	}
}
