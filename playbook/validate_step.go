package playbook

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/vigil-soc/vigil/actions"
)

// step checks one step. top is its index among top-level steps, or -1
// inside a parallel branch; available holds the outputs it may read.
func (v *validator) step(s Step, path string, top int, available map[string]bool) {
	label := stepLabel(s.Name, path)
	kinds := s.kinds()
	switch {
	case len(kinds) == 0:
		if !v.rep.src.isBad(path) {
			v.rep.errorf(path, "%s: needs exactly one of action, condition, ai_analysis or parallel", label)
		}
		return
	case len(kinds) > 1:
		v.rep.errorf(path, "%s: has %s; a step does exactly one of them", label, strings.Join(kinds, " and "))
		return
	}
	kind := kinds[0]
	if top < 0 && (kind == KindCondition || kind == KindParallel) {
		v.rep.errorf(path+"."+kind, "%s: a step inside a parallel branch must be an action or ai_analysis step, not %s", label, kind)
		return
	}
	v.fieldsForKind(s, path, label, kind)
	switch kind {
	case KindAction:
		v.action(s, path, label, available)
	case KindCondition:
		v.condition(s, path, label, top, available)
	case KindAIAnalysis:
		v.aiAnalysis(s, path, label, available)
	case KindParallel:
		v.parallel(s, path, label)
	}
}

// fieldsForKind refuses fields that mean nothing for the step's kind, since
// they are most likely a step written under the wrong kind.
func (v *validator) fieldsForKind(s Step, path, label, kind string) {
	if s.Parameters != nil && kind != KindAction {
		v.rep.errorf(path+".parameters", "%s: parameters are only allowed on action steps", label)
	}
	if s.Then != "" && kind != KindCondition {
		v.rep.errorf(path+".then", "%s: then is only allowed on condition steps", label)
	}
	if s.Else != "" && kind != KindCondition {
		v.rep.errorf(path+".else", "%s: else is only allowed on condition steps", label)
	}
	if s.Output != "" && kind != KindAction && kind != KindAIAnalysis {
		v.rep.errorf(path+".output", "%s: output is only allowed on action and ai_analysis steps", label)
	}
	if s.ContinueOnError && kind == KindCondition {
		v.rep.warnf(path+".continue_on_error", "%s: continue_on_error has no effect on a condition step", label)
	}
}

func (v *validator) action(s Step, path, label string, available map[string]bool) {
	params := s.Parameters
	names := sortedKeysOf(params)
	for _, name := range names {
		ppath := join(path+".parameters", name)
		if depthOf(params[name], 0) > maxDepth {
			v.rep.errorf(ppath, "%s: parameter %s nests more than %d levels deep", label, name, maxDepth)
			continue
		}
		v.templates(params[name], ppath, label+": parameter "+name, available)
	}
	t, ok := actions.Lookup(s.Action)
	if !ok {
		v.rep.errorf(path+".action", "%s: unknown action %q", label, s.Action)
		return
	}
	// Literal values are checked against the action type now; values with
	// templates are only known at run time, when the action checks them.
	literal := map[string]any{}
	for _, name := range names {
		if _, known := t.Param(name); !known {
			v.rep.errorf(join(path+".parameters", name), "%s: unknown parameter %q for action %s", label, name, s.Action)
			continue
		}
		if !containsTemplate(params[name], 0) {
			literal[name] = params[name]
		}
	}
	for _, p := range t.Parameters {
		if _, given := params[p.Name]; p.Required && !given {
			v.rep.errorf(path, "%s: action %s requires parameter %s", label, s.Action, p.Name)
		}
	}
	_, errs := t.Validate(literal)
	keys := make([]string, 0, len(errs))
	for k := range errs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		name := strings.TrimPrefix(k, "parameters.")
		if _, isLiteral := literal[name]; !isLiteral {
			// A required parameter given as a template: left out of the
			// literal map on purpose.
			continue
		}
		v.rep.errorf(join(path+".parameters", name), "%s: parameter %s %s", label, name, errs[k])
	}
}

func (v *validator) condition(s Step, path, label string, top int, available map[string]bool) {
	v.expression(s.Condition, true, path+".condition", label+": condition", available)
	for _, jump := range []struct{ key, target string }{{"then", s.Then}, {"else", s.Else}} {
		switch jump.target {
		case "", JumpContinue, JumpStop:
			continue
		}
		jpath := path + "." + jump.key
		j, ok := v.top[jump.target]
		switch {
		case ok && j <= top:
			v.rep.errorf(jpath, "%s: %s jumps back to step %q; jumps may only go forward", label, jump.key, jump.target)
		case ok:
		case v.inBranch[jump.target]:
			v.rep.errorf(jpath, "%s: %s jumps to step %q inside a parallel branch; jumps must name a top-level step", label, jump.key, jump.target)
		default:
			v.rep.errorf(jpath, "%s: %s jumps to unknown step %q (use a later step's name, %q or %q)", label, jump.key, jump.target, JumpContinue, JumpStop)
		}
	}
}

func (v *validator) aiAnalysis(s Step, path, label string, available map[string]bool) {
	q := s.AIAnalysis.Question
	qpath := path + ".ai_analysis.question"
	switch {
	case strings.TrimSpace(q) == "":
		if !v.rep.src.isBad(qpath) && !v.rep.src.isBad(path+".ai_analysis") {
			v.rep.errorf(path+".ai_analysis", "%s: ai_analysis needs a question", label)
		}
	case utf8.RuneCountInString(q) > maxQuestionLength:
		v.rep.errorf(qpath, "%s: ai_analysis.question must be at most %d characters", label, maxQuestionLength)
	default:
		v.templates(q, qpath, label+": question", available)
	}
	if s.Output == "" && !v.rep.src.isBad(path+".output") {
		v.rep.errorf(path, "%s: ai_analysis needs an output to name its answer", label)
	}
}

func (v *validator) parallel(s Step, path, label string) {
	ppath := path + ".parallel"
	switch {
	case len(s.Parallel) == 0:
		if !v.rep.src.isBad(ppath) {
			v.rep.errorf(ppath, "%s: parallel needs at least one branch", label)
		}
	case len(s.Parallel) > maxBranches:
		v.rep.errorf(ppath, "%s: parallel has %d branches; at most %d are allowed", label, len(s.Parallel), maxBranches)
	}
	for b, branch := range s.Parallel {
		bpath := index(ppath, b)
		if len(branch) == 0 && !v.rep.src.isBad(bpath) {
			v.rep.errorf(bpath, "%s: branch %d of parallel is empty", label, b+1)
		}
	}
}

// templates checks every template inside a parameter value (or question)
// at path.
func (v *validator) templates(val any, path, what string, available map[string]bool) {
	switch val := val.(type) {
	case string:
		if !hasTemplate(val) {
			return
		}
		if inner, ok := singleTemplate(val); ok {
			v.expression(inner, false, path, what, available)
			return
		}
		segs, err := splitTemplate(val)
		if err != nil {
			v.rep.errorf(path, "%s: %v", what, err)
			return
		}
		for _, seg := range segs {
			if seg.isExpr {
				v.expression(seg.text, false, path, what, available)
			}
		}
	case map[string]any:
		for _, k := range sortedKeysOf(val) {
			v.templates(val[k], join(path, k), what, available)
		}
	case []any:
		for i, item := range val {
			v.templates(item, index(path, i), what, available)
		}
	}
}

// expression compiles one template expression or condition and checks the
// variables and outputs it reads.
func (v *validator) expression(source string, condition bool, path, what string, available map[string]bool) {
	v.expressions++
	if v.expressions > maxExpressions {
		if v.expressions == maxExpressions+1 {
			v.rep.errorf(path, "playbook has more than %d templates and conditions", maxExpressions)
		}
		return
	}
	prog, err := compile(source, condition)
	if err != nil {
		if condition {
			v.rep.errorf(path, "%s: %v", what, err)
		} else {
			v.rep.errorf(path, "%s: template {{%s}}: %v", what, source, err)
		}
		return
	}
	vars, outs := references(prog)
	for _, name := range vars {
		if _, ok := v.p.Variables[name]; !ok {
			v.rep.errorf(path, "%s: variable %q is not declared under variables", what, name)
		}
	}
	for _, name := range outs {
		switch {
		case available[name]:
		case v.produced[name]:
			v.rep.errorf(path, "%s: output %q is used before it is produced", what, name)
		default:
			v.rep.errorf(path, "%s: output %q is not produced by any step", what, name)
		}
	}
}
