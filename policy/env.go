// Package policy decides what happens to a requested response action: it
// compiles rule conditions written in the expr language, evaluates them
// against the action, its incident and its requester, and turns the first
// matching rule into a Decision.
package policy

import (
	"github.com/vigil-soc/vigil/internal/exprbudget"
)

// Env is everything a rule condition can see. The expr tags are the names
// conditions use; Compile type-checks every field access against these
// structs, so a misspelt field or a comparison of mismatched types is
// refused when the rule is saved rather than when an action is requested.
//
// The types carry no methods on purpose: expr exposes exported methods of
// the environment to conditions.
type Env struct {
	Action    ActionEnv    `expr:"action" json:"action"`
	Incident  IncidentEnv  `expr:"incident" json:"incident"`
	Requester RequesterEnv `expr:"requester" json:"requester"`

	// meter counts the steps of one evaluation; Match sets it. Being
	// unexported, conditions cannot see it.
	meter *exprbudget.Meter
}

// ActionEnv describes the requested action.
type ActionEnv struct {
	Type string `expr:"type" json:"type"`
	// Parameters are the action's arguments as the requester sent them;
	// their types are known only at run time.
	Parameters map[string]any `expr:"parameters" json:"parameters"`
}

// IncidentEnv describes the incident the action responds to. Present is
// false, and every other field zero, for actions requested without one.
type IncidentEnv struct {
	Present      bool       `expr:"present" json:"present"`
	ID           string     `expr:"id" json:"id"`
	Number       string     `expr:"number" json:"number"`
	Severity     string     `expr:"severity" json:"severity"`
	SeverityRank int        `expr:"severity_rank" json:"severity_rank"`
	Type         string     `expr:"type" json:"type"`
	Source       string     `expr:"source" json:"source"`
	Verdict      VerdictEnv `expr:"verdict" json:"verdict"`
}

// VerdictEnv is the incident's triage verdict; zero when it has none yet.
type VerdictEnv struct {
	Classification string  `expr:"classification" json:"classification"`
	Confidence     float64 `expr:"confidence" json:"confidence"`
	Category       string  `expr:"category" json:"category"`
}

// RequesterEnv describes who asked for the action.
type RequesterEnv struct {
	Username string `expr:"username" json:"username"`
	Role     string `expr:"role" json:"role"`
	RoleRank int    `expr:"role_rank" json:"role_rank"`
}
