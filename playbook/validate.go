package playbook

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Limits on a playbook's contents. They are far above what a useful
// playbook needs and keep a stored playbook, and every run of it, small.
const (
	maxNameLength        = 100
	maxDescriptionLength = 4000
	maxVersionLength     = 32
	maxIncidentType      = 100
	maxQuestionLength    = 4000
	// A run records several history events per step; 1000 steps stay well
	// inside Temporal's per-run history limits.
	maxSteps     = 1000
	maxBranches  = 20
	maxVariables = 100
	// maxExpressions caps templates and conditions per playbook, so one
	// validation compiles a bounded number of expressions.
	maxExpressions = 5000
)

var (
	stepNamePattern = regexp.MustCompile(`^[a-z0-9_-]{1,64}$`)
	// Outputs and variables are read as outputs.<name> and
	// variables.<name>, so their names must be identifiers.
	outputPattern   = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,63}$`)
	variablePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	branchPath      = regexp.MustCompile(`^steps\[(\d+)\](?:\.parallel\[(\d+)\]\[(\d+)\])?$`)
)

// Validate checks an already-decoded playbook, such as one sent as JSON.
// Problems carry line 0 because there is no text to point into.
func Validate(p *Playbook) Result {
	if p == nil {
		return Result{Errors: []Problem{{Line: 0, Message: "playbook is missing"}}}
	}
	rep := &report{}
	validate(p, rep)
	return rep.result(p)
}

// validator holds what checking one step needs to know about the others.
type validator struct {
	p   *Playbook
	rep *report
	// top maps each top-level step name to its index, for jumps.
	top map[string]int
	// inBranch holds names of steps inside parallel branches, so a jump to
	// one gets a precise message.
	inBranch map[string]bool
	// produced holds every output name some step produces, so a reference
	// can be told "used too early" from "never produced".
	produced map[string]bool
	// expressions counts compiled templates and conditions.
	expressions int
}

func validate(p *Playbook, rep *report) {
	v := &validator{p: p, rep: rep, top: map[string]int{}, inBranch: map[string]bool{}, produced: map[string]bool{}}
	v.header()
	v.variables()
	if len(p.Steps) == 0 {
		if !rep.src.isBad("steps") {
			rep.errorf("steps", "playbook needs at least one step")
		}
		return
	}
	if n := p.StepCount(); n > maxSteps {
		rep.errorf("steps", "playbook has %d steps; at most %d are allowed", n, maxSteps)
		return
	}
	v.names()
	v.steps()
	v.reachability()
}

func (v *validator) header() {
	p, rep := v.p, v.rep
	switch {
	case strings.TrimSpace(p.Name) == "":
		if !rep.src.isBad("name") {
			rep.errorf("name", "name is required")
		}
	case utf8.RuneCountInString(p.Name) > maxNameLength:
		rep.errorf("name", "name must be at most %d characters", maxNameLength)
	}
	if utf8.RuneCountInString(p.Description) > maxDescriptionLength {
		rep.errorf("description", "description must be at most %d characters", maxDescriptionLength)
	}
	if utf8.RuneCountInString(p.Version) > maxVersionLength {
		rep.errorf("version", "version must be at most %d characters", maxVersionLength)
	}
	if utf8.RuneCountInString(p.Triggers.IncidentType) > maxIncidentType {
		rep.errorf("triggers.incident_type", "triggers.incident_type must be at most %d characters", maxIncidentType)
	}
	if p.Triggers.AutoRun && strings.TrimSpace(p.Triggers.IncidentType) == "" {
		rep.warnf("triggers.auto_run", "triggers.auto_run has no effect without triggers.incident_type")
	}
}

func (v *validator) variables() {
	vars := v.p.Variables
	if len(vars) > maxVariables {
		v.rep.errorf("variables", "playbook has %d variables; at most %d are allowed", len(vars), maxVariables)
		return
	}
	for _, name := range sortedKeysOf(vars) {
		path := join("variables", name)
		if !variablePattern.MatchString(name) {
			v.rep.errorf(path, "variable name %q must be a letter or underscore followed by up to 63 letters, digits or underscores", name)
		}
		if depthOf(vars[name], 0) > maxDepth {
			v.rep.errorf(path, "variable %q nests more than %d levels deep", name, maxDepth)
			continue
		}
		if containsTemplate(vars[name], 0) {
			// Variables are values, not templates; the braces would reach
			// the action as they are.
			v.rep.warnf(path, "variable %q contains {{ }}, which is not expanded in variables", name)
		}
	}
}

// names checks step names and output names across the whole playbook and
// indexes them for the per-step checks.
func (v *validator) names() {
	stepSeen := map[string]bool{}
	checkName := func(s Step, path string) {
		switch {
		case s.Name == "":
			if !v.rep.src.isBad(path) && !v.rep.src.isBad(path+".name") {
				v.rep.errorf(path, "%s: name is required", pathLabel(path))
			}
			return
		case !stepNamePattern.MatchString(s.Name):
			v.rep.errorf(path+".name", "step name %q must be 1 to 64 lowercase letters, digits, '_' or '-'", s.Name)
		case s.Name == JumpContinue || s.Name == JumpStop:
			v.rep.errorf(path+".name", "step name %q is reserved for jumps", s.Name)
		}
		if stepSeen[s.Name] {
			v.rep.errorf(path+".name", "duplicate step name %q", s.Name)
		}
		stepSeen[s.Name] = true
	}
	checkOutput := func(s Step, path string) {
		if s.Output == "" {
			return
		}
		if !outputPattern.MatchString(s.Output) {
			v.rep.errorf(path+".output", "%s: output name %q must be a lowercase letter or underscore followed by up to 63 lowercase letters, digits or underscores", stepLabel(s.Name, path), s.Output)
		}
		if v.produced[s.Output] {
			v.rep.errorf(path+".output", "%s: duplicate output name %q", stepLabel(s.Name, path), s.Output)
		}
		v.produced[s.Output] = true
	}
	for i, s := range v.p.Steps {
		path := index("steps", i)
		checkName(s, path)
		checkOutput(s, path)
		if _, dup := v.top[s.Name]; !dup && s.Name != "" {
			v.top[s.Name] = i
		}
		for b, branch := range s.Parallel {
			for j, bs := range branch {
				bpath := branchStepPath(path, b, j)
				checkName(bs, bpath)
				checkOutput(bs, bpath)
				if bs.Name != "" {
					v.inBranch[bs.Name] = true
				}
			}
		}
	}
}

// steps checks every step in run order, tracking which outputs exist by
// the time each step runs: those of earlier top-level steps, and inside a
// branch also those of earlier steps of the same branch. Outputs of sibling
// branches are not available, because branches run at the same time.
func (v *validator) steps() {
	available := map[string]bool{}
	for i, s := range v.p.Steps {
		path := index("steps", i)
		v.step(s, path, i, available)
		var produced []string
		for b, branch := range s.Parallel {
			inBranch := copySet(available)
			for j, bs := range branch {
				v.step(bs, branchStepPath(path, b, j), -1, inBranch)
				if bs.Output != "" {
					inBranch[bs.Output] = true
					produced = append(produced, bs.Output)
				}
			}
		}
		for _, o := range produced {
			available[o] = true
		}
		if s.Output != "" {
			available[s.Output] = true
		}
	}
}

// reachability warns about top-level steps no path through the playbook
// reaches, such as everything after a condition that stops either way.
func (v *validator) reachability() {
	steps := v.p.Steps
	reached := make([]bool, len(steps))
	reached[0] = true
	for i, s := range steps {
		if !reached[i] {
			v.rep.warnf(index("steps", i), "%s is never reached", stepLabel(s.Name, index("steps", i)))
			continue
		}
		if s.Kind() != KindCondition || len(s.kinds()) != 1 {
			if i+1 < len(steps) {
				reached[i+1] = true
			}
			continue
		}
		for _, target := range []string{s.Then, s.Else} {
			switch target {
			case "", JumpContinue:
				if i+1 < len(steps) {
					reached[i+1] = true
				}
			case JumpStop:
			default:
				if j, ok := v.top[target]; ok && j > i {
					reached[j] = true
				}
			}
		}
	}
}

// stepLabel names a step in messages: by name when it has one, otherwise
// by position.
func stepLabel(name, path string) string {
	if name != "" {
		return "step " + strconv.Quote(name)
	}
	return pathLabel(path)
}

// pathLabel names a step by position, 1-based: "step 3", or "step 3,
// branch 2, step 1" inside a parallel step.
func pathLabel(path string) string {
	m := branchPath.FindStringSubmatch(path)
	if m == nil {
		return "step"
	}
	num := func(s string) int { n, _ := strconv.Atoi(s); return n + 1 }
	if m[2] == "" {
		return fmt.Sprintf("step %d", num(m[1]))
	}
	return fmt.Sprintf("step %d, branch %d, step %d", num(m[1]), num(m[2]), num(m[3]))
}

func branchStepPath(stepPath string, branch, i int) string {
	return fmt.Sprintf("%s.parallel[%d][%d]", stepPath, branch, i)
}

func sortedKeysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func copySet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// depthOf measures how deeply a value nests, stopping early past maxDepth
// so a pathological value costs little.
func depthOf(v any, depth int) int {
	if depth > maxDepth {
		return depth
	}
	deepest := depth
	switch v := v.(type) {
	case map[string]any:
		for _, item := range v {
			deepest = max(deepest, depthOf(item, depth+1))
		}
	case []any:
		for _, item := range v {
			deepest = max(deepest, depthOf(item, depth+1))
		}
	}
	return deepest
}

// containsTemplate reports whether any string inside v holds a template.
func containsTemplate(v any, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch v := v.(type) {
	case string:
		return hasTemplate(v)
	case map[string]any:
		for _, item := range v {
			if containsTemplate(item, depth+1) {
				return true
			}
		}
	case []any:
		for _, item := range v {
			if containsTemplate(item, depth+1) {
				return true
			}
		}
	}
	return false
}
