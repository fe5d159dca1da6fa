package playbook

import "github.com/vigil-soc/vigil/internal/exprbudget"

// Env is everything a template or condition can read. The expr tags are
// the names expressions use. Incident fields are typed, so a misspelt field
// (incident.severty) is refused when the playbook is saved; raw data,
// variables and outputs are maps whose keys are only known at run time.
//
// The types carry no methods on purpose: the expression language exposes
// exported methods of the environment to expressions.
type Env struct {
	Incident IncidentEnv `expr:"incident" json:"incident"`
	// Variables are the playbook's variables with the run's overrides
	// applied.
	Variables map[string]any `expr:"variables" json:"variables"`
	// Outputs hold the results of finished steps by output name: an action
	// step's is {status, success, message, action_id, ...the action's
	// result fields}; an AI analysis step's is {answer, classification,
	// confidence, analyzer}.
	Outputs  map[string]any `expr:"outputs" json:"outputs"`
	Playbook PlaybookEnv    `expr:"playbook" json:"playbook"`

	// meter counts the steps of one evaluation; run sets it. Being
	// unexported, expressions cannot see it.
	meter *exprbudget.Meter
}

// IncidentEnv describes the incident a playbook runs on.
type IncidentEnv struct {
	ID       string `expr:"id" json:"id"`
	Number   string `expr:"number" json:"number"`
	Type     string `expr:"type" json:"type"`
	Severity string `expr:"severity" json:"severity"`
	Source   string `expr:"source" json:"source"`
	Title    string `expr:"title" json:"title"`
	Status   string `expr:"status" json:"status"`
	// RawData is the incident's original payload, as decoded from JSON.
	RawData            map[string]any `expr:"raw_data" json:"raw_data"`
	Verdict            VerdictEnv     `expr:"verdict" json:"verdict"`
	RecommendedActions []string       `expr:"recommended_actions" json:"recommended_actions"`
}

// VerdictEnv is the incident's triage verdict; zero before triage.
type VerdictEnv struct {
	Classification string  `expr:"classification" json:"classification"`
	Confidence     float64 `expr:"confidence" json:"confidence"`
	Category       string  `expr:"category" json:"category"`
	Reasoning      string  `expr:"reasoning" json:"reasoning"`
}

// PlaybookEnv names the running playbook.
type PlaybookEnv struct {
	Name    string `expr:"name" json:"name"`
	Version string `expr:"version" json:"version"`
}
