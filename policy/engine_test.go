package policy_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/policy"
	"github.com/vigil-soc/vigil/store"
)

var base = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// rule builds an enabled rule; age orders rules of equal priority (a
// larger age means created earlier).
func rule(name, cond, action, level string, priority int, age time.Duration) store.Policy {
	return store.Policy{
		ID: "id-" + name, Name: name, Condition: cond, Action: action, ApprovalLevel: level,
		Priority: priority, Enabled: true, CreatedAt: base.Add(-age),
	}
}

func TestEvaluate(t *testing.T) {
	disabled := rule("disabled deny", "true", policy.OutcomeDeny, "", 1000, 0)
	disabled.Enabled = false
	cases := []struct {
		name         string
		rules        []store.Policy
		defaultLevel string
		outcome      string
		level        string
		ruleName     string
		reason       []string
	}{
		{
			name:    "no rules, no default level",
			outcome: policy.OutcomeAutoApprove,
			reason:  []string{"no rule matched; action type executes at once by default"},
		},
		{
			name: "no match falls back to the type's level", defaultLevel: policy.LevelSenior,
			rules:   []store.Policy{rule("phish", `incident.type == "phishing"`, policy.OutcomeDeny, "", 0, 0)},
			outcome: policy.OutcomeRequireApproval, level: policy.LevelSenior,
			reason: []string{"no rule matched", "senior approval by default"},
		},
		{
			name: "higher priority wins whatever the input order",
			rules: []store.Policy{
				rule("low", "true", policy.OutcomeAutoApprove, "", -5, 0),
				rule("high", `incident.severity_rank >= 4`, policy.OutcomeRequireApproval, policy.LevelManager, 50, 0),
				rule("mid", "true", policy.OutcomeDeny, "", 10, 0),
			},
			outcome: policy.OutcomeRequireApproval, level: policy.LevelManager, ruleName: "high",
			reason: []string{`rule "high" matched`, "manager approval"},
		},
		{
			name: "equal priority: older rule first",
			rules: []store.Policy{
				rule("newer", "true", policy.OutcomeDeny, "", 7, time.Minute),
				rule("older", "true", policy.OutcomeAutoApprove, "", 7, time.Hour),
			},
			outcome: policy.OutcomeAutoApprove, ruleName: "older",
		},
		{
			name: "first match wins over later matches",
			rules: []store.Policy{
				rule("not matching", `requester.role == "admin"`, policy.OutcomeAutoApprove, "", 100, 0),
				rule("deny critical", `incident.severity == "critical"`, policy.OutcomeDeny, "", 50, 0),
				rule("approve all", "true", policy.OutcomeAutoApprove, "", 0, 0),
			},
			outcome: policy.OutcomeDeny, ruleName: "deny critical",
		},
		{
			name: "disabled rules are skipped",
			rules: []store.Policy{
				disabled,
				rule("analyst review", "true", policy.OutcomeRequireApproval, policy.LevelAnalyst, 0, 0),
			},
			outcome: policy.OutcomeRequireApproval, level: policy.LevelAnalyst, ruleName: "analyst review",
		},
		{
			name: "run-time error is skipped and reported", defaultLevel: policy.LevelSenior,
			rules: []store.Policy{
				rule("broken", `action.parameters.hostname > 5`, policy.OutcomeDeny, "", 10, 0),
				rule("other", `incident.type == "phishing"`, policy.OutcomeDeny, "", 0, 0),
			},
			outcome: policy.OutcomeRequireApproval, level: policy.LevelManager,
			reason: []string{"no rule matched", `could not be evaluated: "broken"`, "line 1, column 28"},
		},
		{
			name: "a rule that errs fails closed: a later auto_approve becomes manager approval",
			rules: []store.Policy{
				rule("broken", `action.parameters.missing.x == 1`, policy.OutcomeDeny, "", 10, 0),
				rule("fallback", "true", policy.OutcomeAutoApprove, "", 0, 0),
			},
			outcome: policy.OutcomeRequireApproval, level: policy.LevelManager, ruleName: "fallback",
			reason: []string{`rule "fallback" matched`, "escalated to manager approval", `"broken"`},
		},
		{
			name: "a deny after a rule that errs stays a deny",
			rules: []store.Policy{
				rule("broken", `action.parameters.missing.x == 1`, policy.OutcomeDeny, "", 10, 0),
				rule("deny all", "true", policy.OutcomeDeny, "", 0, 0),
			},
			outcome: policy.OutcomeDeny, ruleName: "deny all",
			reason: []string{`rule "deny all" matched`, `"broken"`},
		},
		{
			name: "a rule that spends its step budget fails closed",
			rules: []store.Policy{
				rule("spin", `let r = 1..(len(action.type) * 400); all(r, {all(r, {all(r, {# > 0})})})`, policy.OutcomeAutoApprove, "", 10, 0),
				rule("fallback", "true", policy.OutcomeAutoApprove, "", 0, 0),
			},
			outcome: policy.OutcomeRequireApproval, level: policy.LevelManager, ruleName: "fallback",
			reason: []string{"escalated to manager approval", `"spin"`, "exceeded its step budget"},
		},
		{
			name: "stored rules that would not validate are skipped",
			rules: []store.Policy{
				rule("no compile", `incident.severity > 3`, policy.OutcomeDeny, "", 30, 0),
				rule("bad action", "true", "maybe", "", 20, 0),
				rule("bad level", "true", policy.OutcomeRequireApproval, "ciso", 10, 0),
				rule("spin", `let r = 1..2000; all(r, {all(r, {all(r, {# > 0})})})`, policy.OutcomeAutoApprove, "", 5, 0),
			},
			outcome: policy.OutcomeRequireApproval, level: policy.LevelManager,
			reason: []string{`"no compile"`, `"bad action"`, `"bad level"`, `"spin" (line 1, column 26: nested iteration`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, err := policy.Evaluate(tc.rules, sampleEnv(), tc.defaultLevel)
			if err != nil {
				t.Fatal(err)
			}
			if d.Outcome != tc.outcome || d.ApprovalLevel != tc.level || d.RuleName != tc.ruleName {
				t.Fatalf("decision %+v; want outcome %s, level %q, rule %q", d, tc.outcome, tc.level, tc.ruleName)
			}
			if tc.ruleName != "" && d.RuleID != "id-"+tc.ruleName {
				t.Errorf("RuleID %q", d.RuleID)
			}
			for _, want := range tc.reason {
				if !strings.Contains(d.Reason, want) {
					t.Errorf("reason %q does not mention %q", d.Reason, want)
				}
			}
		})
	}
}

// TestEngineDecideConcurrently reads rules from a real store and shares the
// program cache between many goroutines; run with -race.
func TestEngineDecideConcurrently(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	for _, p := range []store.Policy{
		{Name: "deny finance hosts", Condition: `"finance" in action.parameters.tags`, Action: policy.OutcomeDeny, Priority: 10, Enabled: true},
		{Name: "critical needs manager", Condition: `incident.severity_rank >= 4`, Action: policy.OutcomeRequireApproval,
			ApprovalLevel: policy.LevelManager, Priority: 5, Enabled: true},
		{Name: "disabled approve", Condition: "true", Action: policy.OutcomeAutoApprove, Priority: 100, Enabled: false},
	} {
		if err := st.CreatePolicy(ctx, &p); err != nil {
			t.Fatal(err)
		}
	}
	eng := policy.NewEngine(st)
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			env := sampleEnv()
			want := "deny finance hosts"
			if i%2 == 1 {
				env.Action.Parameters = map[string]any{"tags": []any{"lab"}}
				want = "critical needs manager"
			}
			d, err := eng.Decide(ctx, env, "")
			switch {
			case err != nil:
				errs <- err
			case d.RuleName != want:
				errs <- fmt.Errorf("goroutine %d: decided by %q, want %q", i, d.RuleName, want)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}

	// No enabled rule matches a low-severity incident without tags.
	env := sampleEnv()
	env.Action.Parameters = nil
	env.Incident.SeverityRank = 1
	d, err := eng.Decide(ctx, env, policy.LevelAnalyst)
	if err != nil || d.Outcome != policy.OutcomeRequireApproval || d.ApprovalLevel != policy.LevelAnalyst || d.RuleID != "" {
		t.Fatalf("default decision %+v, %v", d, err)
	}
}
