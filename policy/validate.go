package policy

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/vigil-soc/vigil/store"
)

// Limits on rule fields.
const (
	MaxNameLength        = 100
	MaxDescriptionLength = 10000
	MinPriority          = -1_000_000
	MaxPriority          = 1_000_000
)

// ValidateRule checks a rule before it is stored and returns one message
// per offending field (keyed by its JSON name), or an empty map. The
// condition message carries the position, as "line L, column C: ...".
//
// approval_level is required for require_approval; other actions ignore
// it, so it may stay set (to a valid level) when a rule's action changes.
func ValidateRule(p *store.Policy) map[string]string {
	bad := map[string]string{}
	switch n := utf8.RuneCountInString(p.Name); {
	case strings.TrimSpace(p.Name) == "":
		bad["name"] = "is required"
	case n > MaxNameLength:
		bad["name"] = fmt.Sprintf("must be at most %d characters", MaxNameLength)
	}
	if utf8.RuneCountInString(p.Description) > MaxDescriptionLength {
		bad["description"] = fmt.Sprintf("must be at most %d characters", MaxDescriptionLength)
	}
	if _, err := Compile(p.Condition); err != nil {
		bad["condition"] = err.Error()
	}
	if !slices.Contains(Outcomes, p.Action) {
		bad["action"] = "must be one of " + strings.Join(Outcomes, ", ")
	}
	levels := "must be one of " + strings.Join(ApprovalLevels, ", ")
	switch {
	case p.Action == OutcomeRequireApproval && p.ApprovalLevel == "":
		bad["approval_level"] = "is required when action is " + OutcomeRequireApproval + "; " + levels
	case p.ApprovalLevel != "" && !slices.Contains(ApprovalLevels, p.ApprovalLevel):
		bad["approval_level"] = levels
	}
	if p.Priority < MinPriority || p.Priority > MaxPriority {
		bad["priority"] = fmt.Sprintf("must be an integer from %d to %d", MinPriority, MaxPriority)
	}
	return bad
}
