package policy_test

import (
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/policy"
	"github.com/vigil-soc/vigil/store"
)

func TestValidateRule(t *testing.T) {
	valid := func() store.Policy {
		return store.Policy{Name: "critical isolation", Condition: `incident.severity == "critical"`,
			Action: policy.OutcomeRequireApproval, ApprovalLevel: policy.LevelSenior, Priority: 10}
	}
	cases := []struct {
		name   string
		change func(p *store.Policy)
		field  string
		detail string
	}{
		{"valid", func(*store.Policy) {}, "", ""},
		{"deny keeps an old valid level", func(p *store.Policy) { p.Action = policy.OutcomeDeny }, "", ""},
		{"extreme priorities", func(p *store.Policy) { p.Priority = policy.MinPriority }, "", ""},
		{"missing name", func(p *store.Policy) { p.Name = "  " }, "name", "required"},
		{"long name", func(p *store.Policy) { p.Name = strings.Repeat("n", 101) }, "name", "at most 100"},
		{"long description", func(p *store.Policy) { p.Description = strings.Repeat("d", 10001) }, "description", "at most"},
		{"missing condition", func(p *store.Policy) { p.Condition = "" }, "condition", "line 1, column 1: "},
		{"bad condition", func(p *store.Policy) { p.Condition = "true and\n  incident.nope" }, "condition", "line 2, column 12: "},
		{"unknown action", func(p *store.Policy) { p.Action = "allow" }, "action", "auto_approve, require_approval, deny"},
		{"require_approval without level", func(p *store.Policy) { p.ApprovalLevel = "" }, "approval_level", "required"},
		{"unknown level", func(p *store.Policy) { p.ApprovalLevel = "admin" }, "approval_level", "analyst, senior, manager"},
		{"unknown level on deny", func(p *store.Policy) { p.Action, p.ApprovalLevel = policy.OutcomeDeny, "ciso" }, "approval_level", "one of"},
		{"priority too high", func(p *store.Policy) { p.Priority = policy.MaxPriority + 1 }, "priority", "-1000000 to 1000000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := valid()
			tc.change(&p)
			bad := policy.ValidateRule(&p)
			if tc.field == "" {
				if len(bad) != 0 {
					t.Fatalf("unexpected problems: %v", bad)
				}
				return
			}
			if len(bad) != 1 || !strings.Contains(bad[tc.field], tc.detail) {
				t.Fatalf("problems %v; want only %s mentioning %q", bad, tc.field, tc.detail)
			}
		})
	}
}
