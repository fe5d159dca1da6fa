package triage

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
	"go.yaml.in/yaml/v3"

	"github.com/vigil-soc/vigil/internal/exprbudget"
)

// Rule is one piece of reviewable verdict logic: when its condition holds
// over the normalized fields, its weight joins the evidence (positive
// towards malicious, negative towards benign) with its explanation, its
// ATT&CK techniques and the evidence values it names.
type Rule struct {
	ID string `yaml:"id"`
	// Kinds limits the rule to alert families: phishing, malware,
	// suspicious_login, generic; empty means every family.
	Kinds       []string `yaml:"kinds"`
	When        string   `yaml:"when"`
	Weight      float64  `yaml:"weight"`
	Explanation string   `yaml:"explanation"`
	// Evidence is an expression whose value is quoted in the reasoning.
	Evidence string   `yaml:"evidence"`
	Attack   []string `yaml:"attack"`
	// Resolves marks a benign rule that judges the red flags themselves
	// (an analyst's false-positive resolution): when it fires, one strong
	// malicious signal no longer bars a benign verdict on its own.
	Resolves bool `yaml:"resolves"`
	// Explains marks a resolving rule whose fact accounts for every red
	// flag the alert carries (an authorised exercise on a host designated
	// for it, a simulation sent through its own route, a device still
	// holding a changed password): when it fires the verdict is benign
	// however much the red flags weigh. The critical-severity guard still
	// keeps a critical alert open unless the rule is an authorised
	// exercise's (see guardCritical).
	Explains bool `yaml:"explains"`
	// KeepsOpen marks a malicious rule whose finding an analyst never
	// closes without asking (a password accepted from Tor): the alert is
	// not called benign, by the rules' score or the word model, unless a
	// resolving rule judged the red flags (see guardCritical).
	KeepsOpen bool `yaml:"keeps_open"`
	// DualUse marks a malicious rule whose finding is a dual-use tool
	// used where policy does not expect it (a remote-administration tool
	// a user ran): products rate such tools high for their class, so the
	// product's rating is not added when such a finding counts (see
	// applyVendorRating).
	DualUse bool `yaml:"dual_use"`
	// Group names the underlying fact the rule reads when other rules (or
	// the analyzer's own signals) read it too: of the fired members of a
	// group only the strongest counts on each side, so one encoded command
	// line or one hosting network is weighed once however many rules notice
	// it. Empty for a rule that stands alone.
	Group string `yaml:"group"`

	when, evidence *vm.Program
}

// RuleSet is a compiled, ordered list of rules.
type RuleSet struct {
	rules []Rule
}

//go:embed rules/*.yaml
var builtinRuleFiles embed.FS

var (
	ruleIDRe     = regexp.MustCompile(`^[a-z][a-z0-9_.]{2,63}$`)
	groupRe      = regexp.MustCompile(`^[a-z][a-z0-9_]{2,39}$`)
	techniqueRe  = regexp.MustCompile(`^T[0-9]{4}(\.[0-9]{3})?$`)
	validKinds   = setOf(kindPhishing, kindMalware, kindLogin, kindGeneric)
	builtinRules = mustLoadBuiltinRules()
)

func mustLoadBuiltinRules() *RuleSet {
	rs, err := LoadRules(builtinRuleFiles)
	if err != nil {
		panic("triage: built-in rules: " + err.Error())
	}
	return rs
}

// BuiltinRules returns the rules compiled into the binary.
func BuiltinRules() *RuleSet { return builtinRules }

// LoadRules reads every *.yaml file at the top of fsys (a rules/ folder is
// also looked into), validates each rule and compiles its expressions with
// type checking against Fields. Files are read in name order and rules keep
// their order, so evaluation and reasoning are deterministic.
func LoadRules(fsys fs.FS) (*RuleSet, error) {
	var names []string
	for _, dir := range []string{".", "rules"} {
		matches, err := fs.Glob(fsys, path.Join(dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		names = append(names, matches...)
	}
	sort.Strings(names)
	rs := &RuleSet{}
	seen := map[string]bool{}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		var file struct {
			Rules []Rule `yaml:"rules"`
		}
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		dec.KnownFields(true)
		if err := dec.Decode(&file); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for i := range file.Rules {
			r := file.Rules[i]
			if err := r.compile(); err != nil {
				return nil, fmt.Errorf("%s: rule %d (%s): %w", name, i+1, r.ID, err)
			}
			if seen[r.ID] {
				return nil, fmt.Errorf("%s: rule %s is defined twice", name, r.ID)
			}
			seen[r.ID] = true
			rs.rules = append(rs.rules, r)
		}
	}
	if len(rs.rules) == 0 {
		return nil, errors.New("no rules found")
	}
	return rs, nil
}

// Rules returns a copy of the rule definitions, for review and listing.
func (rs *RuleSet) Rules() []Rule {
	return append([]Rule(nil), rs.rules...)
}

// ruleEnv is what rule expressions see: the normalized fields under their
// expr names, and the meter that bounds each run.
type ruleEnv struct {
	Fields

	meter *exprbudget.Meter
}

func newRuleEnv(f Fields) ruleEnv {
	return ruleEnv{Fields: f}
}

func ruleMeter(env any) *exprbudget.Meter {
	if e, ok := env.(ruleEnv); ok {
		return e.meter
	}
	return nil
}

// ruleStepBudget is far above what a rule over a few fields needs and far
// below what could stall triage.
const ruleStepBudget = 20_000

func (r *Rule) compile() error {
	switch {
	case !ruleIDRe.MatchString(r.ID):
		return errors.New("id must be lower case letters, digits, dots or underscores (3 to 64)")
	case strings.TrimSpace(r.When) == "":
		return errors.New("when is required")
	case r.Weight == 0 || r.Weight < -1 || r.Weight > 1:
		return errors.New("weight must be non-zero and within -1..1")
	case strings.TrimSpace(r.Explanation) == "":
		return errors.New("explanation is required")
	}
	if r.Group != "" && !groupRe.MatchString(r.Group) {
		return errors.New("group must be lower case letters, digits or underscores (3 to 40)")
	}
	if r.Resolves && r.Weight > 0 {
		return errors.New("only a benign (negative) rule can resolve")
	}
	if r.Explains && !r.Resolves {
		return errors.New("a rule that explains the red flags must also resolve")
	}
	if r.KeepsOpen && r.Weight < 0 {
		return errors.New("only a malicious (positive) rule can keep an alert open")
	}
	if r.DualUse && r.Weight < 0 {
		return errors.New("only a malicious (positive) rule can read a dual-use tool")
	}
	for _, k := range r.Kinds {
		if !validKinds[k] {
			return fmt.Errorf("unknown kind %q", k)
		}
	}
	for _, t := range r.Attack {
		if !techniqueRe.MatchString(t) {
			return fmt.Errorf("attack technique %q is not an ATT&CK id (T1234 or T1234.001)", t)
		}
	}
	limits := exprbudget.Limits{Steps: ruleStepBudget, MaxRange: 100, MaxNesting: 2}
	var err error
	if r.when, err = exprbudget.Compile(r.When, limits, ruleMeter, expr.Env(ruleEnv{}), expr.AsBool()); err != nil {
		return fmt.Errorf("when: %w", err)
	}
	if r.Evidence != "" {
		if r.evidence, err = exprbudget.Compile(r.Evidence, limits, ruleMeter, expr.Env(ruleEnv{})); err != nil {
			return fmt.Errorf("evidence: %w", err)
		}
	}
	return nil
}

// ruleHit is one rule that fired and the evidence it quotes.
type ruleHit struct {
	rule     *Rule
	evidence string
}

// evaluate runs every rule that applies to kind against f, in order. A rule
// whose run fails (budget spent) is skipped rather than guessed.
func (rs *RuleSet) evaluate(kind string, f Fields) []ruleHit {
	var hits []ruleHit
	for i := range rs.rules {
		r := &rs.rules[i]
		if len(r.Kinds) > 0 && !setOf(r.Kinds...)[kind] {
			continue
		}
		env := newRuleEnv(f)
		env.meter = exprbudget.NewMeter(ruleStepBudget)
		out, err := vm.Run(r.when, env)
		if err != nil || out != true {
			continue
		}
		h := ruleHit{rule: r}
		if r.evidence != nil {
			env.meter = exprbudget.NewMeter(ruleStepBudget)
			if v, err := vm.Run(r.evidence, env); err == nil && v != nil && v != "" {
				h.evidence = truncate(fmt.Sprint(v), 120)
			}
		}
		hits = append(hits, h)
	}
	return hits
}

// describe renders a hit for the reasoning: rule id, techniques,
// explanation and evidence.
func (h ruleHit) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rule %s", h.rule.ID)
	if len(h.rule.Attack) > 0 {
		fmt.Fprintf(&b, " [%s]", strings.Join(h.rule.Attack, ","))
	}
	b.WriteString(": ")
	b.WriteString(h.rule.Explanation)
	if h.evidence != "" {
		fmt.Fprintf(&b, " (evidence: %s)", h.evidence)
	}
	return b.String()
}
