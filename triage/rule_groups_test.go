package triage

import "testing"

// A group says that several signals read one fact. A group only one rule
// names, with no analyzer signal in it, weighs nothing once and misleads
// the reader into looking for its other members.
func TestRuleGroupsHaveSeveralMembers(t *testing.T) {
	members := map[string]int{}
	for _, g := range []string{groupRemoteCode, groupOfficeChild, groupUserWritableCode, groupLookalikeSender, groupAuthFailed} {
		members[g]++
	}
	for _, r := range BuiltinRules().Rules() {
		if r.Group != "" {
			members[r.Group]++
		}
	}
	for g, n := range members {
		if n < 2 {
			t.Errorf("group %s has a single member", g)
		}
	}
}
