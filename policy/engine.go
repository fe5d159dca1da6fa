package policy

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/vigil-soc/vigil/store"
)

// Outcomes of a decision, which are also the actions a rule may take.
const (
	OutcomeAutoApprove     = store.DecisionAutoApprove
	OutcomeRequireApproval = store.DecisionRequireApproval
	OutcomeDeny            = store.DecisionDeny
)

// Outcomes lists every outcome.
var Outcomes = []string{OutcomeAutoApprove, OutcomeRequireApproval, OutcomeDeny}

// Approval levels: the lowest role that may approve the action.
const (
	LevelAnalyst = store.RoleAnalyst
	LevelSenior  = store.RoleSenior
	LevelManager = store.RoleManager
)

// ApprovalLevels lists every approval level, lowest first.
var ApprovalLevels = []string{LevelAnalyst, LevelSenior, LevelManager}

// Decision is what happens to one requested action and why.
type Decision struct {
	Outcome string `json:"outcome"`
	// ApprovalLevel is set only when Outcome is OutcomeRequireApproval.
	ApprovalLevel string `json:"approval_level,omitempty"`
	// RuleID and RuleName name the matching rule; both are empty when no
	// rule matched and the action type's default applied.
	RuleID   string `json:"rule_id,omitempty"`
	RuleName string `json:"rule_name,omitempty"`
	// Reason explains the decision in words for the requester and the
	// audit trail, including any rule skipped because it failed to evaluate.
	Reason string `json:"reason"`
}

// Evaluate decides for env from rules alone, without a database: disabled
// rules are ignored, the rest are tried in evaluation order (see
// store.ComparePolicies) whatever order they are given in, and the first
// whose condition holds decides. With no match, defaultLevel applies: ""
// means the action type executes at once, otherwise it needs approval at
// that level.
//
// A rule whose condition does not compile or fails at run time (say, it
// compares a parameter with another type) is not treated as a match and
// is named in the Reason. Evaluation then fails closed: since the faulty
// rule might have denied the action, any outcome other than a deny becomes
// a manager approval. One faulty rule therefore slows actions down rather
// than letting them through unchecked. Action parameters are validated
// against their type before a decision is asked for, which keeps such
// failures rare.
//
// The error is reserved for failures outside the rules; Evaluate itself
// never returns one, Engine.Decide does when the rules cannot be loaded.
func Evaluate(rules []store.Policy, env Env, defaultLevel string) (Decision, error) {
	return evaluate(rules, env, defaultLevel, Compile), nil
}

func evaluate(rules []store.Policy, env Env, defaultLevel string, compile func(string) (*Program, error)) Decision {
	ordered := make([]*store.Policy, 0, len(rules))
	for i := range rules {
		if rules[i].Enabled {
			ordered = append(ordered, &rules[i])
		}
	}
	slices.SortStableFunc(ordered, store.ComparePolicies)

	var skipped []string
	for _, r := range ordered {
		var matched bool
		err := checkRuleAction(r)
		if err == nil {
			var prog *Program
			if prog, err = compile(r.Condition); err == nil {
				matched, err = prog.Match(env)
			}
		}
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%q (%v)", r.Name, err))
			continue
		}
		if !matched {
			continue
		}
		d := Decision{Outcome: r.Action, RuleID: r.ID, RuleName: r.Name,
			Reason: fmt.Sprintf("rule %q matched", r.Name)}
		if r.Action == OutcomeRequireApproval {
			d.ApprovalLevel = r.ApprovalLevel
			d.Reason += " and requires " + r.ApprovalLevel + " approval"
		}
		return withSkipped(d, skipped)
	}
	d := Decision{Outcome: OutcomeAutoApprove,
		Reason: "no rule matched; action type executes at once by default"}
	if defaultLevel != "" {
		d = Decision{Outcome: OutcomeRequireApproval, ApprovalLevel: defaultLevel,
			Reason: "no rule matched; action type requires " + defaultLevel + " approval by default"}
	}
	return withSkipped(d, skipped)
}

// checkRuleAction refuses a stored rule whose action ValidateRule would
// have rejected, so a row written around the API cannot produce a decision
// with an unknown outcome or approval level.
func checkRuleAction(r *store.Policy) error {
	switch {
	case !slices.Contains(Outcomes, r.Action):
		return fmt.Errorf("unknown action %q", r.Action)
	case r.Action == OutcomeRequireApproval && !slices.Contains(ApprovalLevels, r.ApprovalLevel):
		return fmt.Errorf("unknown approval level %q", r.ApprovalLevel)
	}
	return nil
}

// withSkipped fails closed: a rule that could not be evaluated might have
// denied the action, so unless the decision is already a denial it becomes
// a manager approval, and the reason names the rules that failed.
func withSkipped(d Decision, skipped []string) Decision {
	if len(skipped) == 0 {
		return d
	}
	if d.Outcome != OutcomeDeny {
		d.Outcome, d.ApprovalLevel = OutcomeRequireApproval, LevelManager
		d.Reason += "; escalated to manager approval because rules could not be evaluated"
	}
	d.Reason += ": " + strings.Join(skipped, ", ")
	return d
}

// maxCachedPrograms bounds the compiled-program cache. Rules change rarely,
// so the cache is simply emptied when full rather than tracking use.
const maxCachedPrograms = 1024

// Engine decides actions against the rules in the store, caching compiled
// conditions. It is safe for concurrent use.
type Engine struct {
	store *store.Store

	mu    sync.RWMutex
	cache map[string]compiled
}

// compiled is a cached compilation outcome; failures are cached too, so a
// stored rule that no longer compiles is not recompiled on every decision.
type compiled struct {
	prog *Program
	err  error
}

// NewEngine returns an engine reading rules from st.
func NewEngine(st *store.Store) *Engine {
	return &Engine{store: st, cache: map[string]compiled{}}
}

// Decide loads the enabled rules and evaluates them as Evaluate does. A
// rule edited through the same store applies to the next request; one
// edited by another process within store.PolicyCacheTTL.
func (e *Engine) Decide(ctx context.Context, env Env, defaultLevel string) (Decision, error) {
	rules, err := e.store.CachedEnabledPolicies(ctx)
	if err != nil {
		return Decision{}, fmt.Errorf("load policy rules: %w", err)
	}
	return evaluate(rules, env, defaultLevel, e.compile), nil
}

// compile returns the cached program for condition, compiling it on a miss.
// The cache is keyed by the condition text, so editing a rule's condition
// simply misses; two callers racing on a miss both compile, which is
// harmless.
func (e *Engine) compile(condition string) (*Program, error) {
	e.mu.RLock()
	c, ok := e.cache[condition]
	e.mu.RUnlock()
	if ok {
		return c.prog, c.err
	}
	prog, err := Compile(condition)
	e.mu.Lock()
	if len(e.cache) >= maxCachedPrograms {
		clear(e.cache)
	}
	e.cache[condition] = compiled{prog: prog, err: err}
	e.mu.Unlock()
	return prog, err
}
