// Package playbook reads, checks, renders and writes response playbooks:
// YAML step lists that a workflow interprets step by step against an
// incident.
//
// Everything here is deterministic and free of I/O and clocks, because the
// interpreter runs inside replayed workflow code: the same playbook and
// environment always give the same result, the same errors in the same order
// and the same rendered parameters.
package playbook

// Playbook is one playbook as written in YAML (or sent as JSON). The server
// owns identity, enabled state and versioning; Version here only carries
// what the text or the stored record says.
type Playbook struct {
	Name        string   `yaml:"name" json:"name"`
	Description string   `yaml:"description,omitempty" json:"description"`
	Version     string   `yaml:"version,omitempty" json:"version"`
	Triggers    Triggers `yaml:"triggers,omitempty" json:"triggers"`
	// Variables are named values templates and conditions read as
	// variables.<name>; a run may override them.
	Variables map[string]any `yaml:"variables,omitempty" json:"variables,omitempty"`
	Steps     []Step         `yaml:"steps" json:"steps"`
}

// Triggers say when a playbook runs without being asked to.
type Triggers struct {
	// IncidentType is the incident type the playbook is meant for.
	IncidentType string `yaml:"incident_type,omitempty" json:"incident_type"`
	// AutoRun starts the playbook on new incidents of IncidentType.
	AutoRun bool `yaml:"auto_run,omitempty" json:"auto_run"`
}

// Step is one step of a playbook. Exactly one of Action, Condition,
// AIAnalysis and Parallel says what the step does; the other fields refine
// it. The field order is the order Marshal writes keys in, chosen so each
// kind of step reads naturally.
type Step struct {
	// Name identifies the step in jumps, results and messages.
	Name string `yaml:"name" json:"name"`
	// Action is the action type an action step runs.
	Action string `yaml:"action,omitempty" json:"action,omitempty"`
	// Parameters are the action's parameters; string values may hold
	// {{ expression }} templates.
	Parameters map[string]any `yaml:"parameters,omitempty" json:"parameters,omitempty"`
	// Condition is the boolean expression a condition step evaluates.
	Condition string `yaml:"condition,omitempty" json:"condition,omitempty"`
	// Then and Else say where a condition step goes when it is true or
	// false: a later top-level step's name, JumpContinue ("" means the
	// same) or JumpStop.
	Then string `yaml:"then,omitempty" json:"then,omitempty"`
	Else string `yaml:"else,omitempty" json:"else,omitempty"`
	// AIAnalysis is the question an AI analysis step asks.
	AIAnalysis *AIAnalysis `yaml:"ai_analysis,omitempty" json:"ai_analysis,omitempty"`
	// Parallel holds the branches of a parallel step: each branch is a
	// sequence of action or AI analysis steps, and all branches run at once.
	Parallel [][]Step `yaml:"parallel,omitempty" json:"parallel,omitempty"`
	// Output names the step's result so later steps can read it as
	// outputs.<name>.
	Output string `yaml:"output,omitempty" json:"output,omitempty"`
	// ContinueOnError lets the run go on when this step fails.
	ContinueOnError bool `yaml:"continue_on_error,omitempty" json:"continue_on_error,omitempty"`
}

// AIAnalysis is the configuration of an AI analysis step.
type AIAnalysis struct {
	// Question is what the analyzer is asked about the incident; it may
	// hold templates, which RenderText expands.
	Question string `yaml:"question" json:"question"`
}

// Step kinds, as returned by Step.Kind.
const (
	KindAction     = "action"
	KindCondition  = "condition"
	KindAIAnalysis = "ai_analysis"
	KindParallel   = "parallel"
)

// Jump keywords a condition's then/else may hold besides a step name.
const (
	// JumpContinue goes on with the next step.
	JumpContinue = "continue"
	// JumpStop ends the run successfully.
	JumpStop = "stop"
)

// Kind says what the step does: KindAction, KindCondition, KindAIAnalysis
// or KindParallel. A step that sets several kinds (which validation
// refuses) reports the first in that order; one that sets none reports "".
func (s Step) Kind() string {
	switch {
	case s.Action != "":
		return KindAction
	case s.Condition != "":
		return KindCondition
	case s.AIAnalysis != nil:
		return KindAIAnalysis
	case s.Parallel != nil:
		return KindParallel
	}
	return ""
}

// kinds lists every kind the step sets, so validation can tell "none" from
// "several".
func (s Step) kinds() []string {
	var out []string
	if s.Action != "" {
		out = append(out, KindAction)
	}
	if s.Condition != "" {
		out = append(out, KindCondition)
	}
	if s.AIAnalysis != nil {
		out = append(out, KindAIAnalysis)
	}
	if s.Parallel != nil {
		out = append(out, KindParallel)
	}
	return out
}

// NextIndex returns the index of the top-level step to run after step i,
// or -1 when the run is over. For a condition step result selects Then or
// Else; every other step simply continues, whatever result says. A jump to
// a name that is not a top-level step (which validation refuses) stops the
// run rather than guessing.
func (p *Playbook) NextIndex(i int, result bool) int {
	if p == nil || i < 0 || i >= len(p.Steps) {
		return -1
	}
	next := i + 1
	s := p.Steps[i]
	if s.Kind() == KindCondition {
		target := s.Else
		if result {
			target = s.Then
		}
		switch target {
		case "", JumpContinue:
		case JumpStop:
			return -1
		default:
			next = p.index(target)
			if next < 0 {
				return -1
			}
		}
	}
	if next >= len(p.Steps) {
		return -1
	}
	return next
}

// index returns the index of the top-level step called name, or -1.
func (p *Playbook) index(name string) int {
	for i, s := range p.Steps {
		if s.Name == name {
			return i
		}
	}
	return -1
}

// StepCount counts every step: each top-level step, including a parallel
// step itself, plus every step inside its branches. It is the steps_total of
// an execution.
func (p *Playbook) StepCount() int {
	if p == nil {
		return 0
	}
	n := 0
	for _, s := range p.Steps {
		n++
		for _, branch := range s.Parallel {
			n += len(branch)
		}
	}
	return n
}
