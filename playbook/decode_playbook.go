package playbook

import (
	"fmt"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// playbook decodes the root mapping; nil when the root is not a mapping.
func (d *decoder) playbook(root *yaml.Node) *Playbook {
	if root.Kind != yaml.MappingNode {
		d.errorf(root, "playbook must be a mapping with name and steps")
		return nil
	}
	p := &Playbook{}
	for _, f := range d.fields(root, "", "playbook") {
		switch f.key {
		case "name":
			p.Name = d.str(f, "name")
		case "description":
			p.Description = d.str(f, "description")
		case "version":
			p.Version = d.str(f, "version")
		case "triggers":
			p.Triggers = d.triggers(f)
		case "variables":
			for _, v := range d.fields(f.value, f.valuePath, "variables") {
				if p.Variables == nil {
					p.Variables = map[string]any{}
				}
				p.Variables[v.key] = d.value(v.value, v.valuePath, "variable "+strconv.Quote(v.key))
			}
		case "steps":
			items, _ := d.sequence(f.value, f.valuePath, "steps")
			p.Steps = make([]Step, len(items))
			for i, item := range items {
				p.Steps[i] = d.step(item, index(f.valuePath, i))
			}
		default:
			d.errorf(f.keyNode, "unknown key %q (expected name, description, version, triggers, variables or steps)", f.key)
		}
	}
	return p
}

func (d *decoder) triggers(f field) Triggers {
	var t Triggers
	for _, g := range d.fields(f.value, f.valuePath, "triggers") {
		switch g.key {
		case "incident_type":
			t.IncidentType = d.str(g, "triggers.incident_type")
		case "auto_run":
			t.AutoRun = d.boolean(g, "triggers.auto_run")
		default:
			d.errorf(g.keyNode, "triggers: unknown key %q (expected incident_type or auto_run)", g.key)
		}
	}
	return t
}

// step decodes one step mapping found at path.
func (d *decoder) step(n *yaml.Node, path string) Step {
	var s Step
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "%s must be a mapping", pathLabel(path))
		d.src.bad[path] = true
		return s
	}
	fs := d.fields(n, path, pathLabel(path))
	// The name comes first so every other message can use it.
	for _, f := range fs {
		if f.key == "name" {
			s.Name = d.str(f, pathLabel(path)+": name")
		}
	}
	label := stepLabel(s.Name, path)
	for _, f := range fs {
		switch f.key {
		case "name":
		case "action":
			s.Action = d.str(f, label+": action")
		case "parameters":
			for _, p := range d.fields(f.value, f.valuePath, label+": parameters") {
				if s.Parameters == nil {
					s.Parameters = map[string]any{}
				}
				s.Parameters[p.key] = d.value(p.value, p.valuePath, label+": parameter "+p.key)
			}
		case "condition":
			s.Condition = d.str(f, label+": condition")
		case "then":
			s.Then = d.str(f, label+": then")
		case "else":
			s.Else = d.str(f, label+": else")
		case "ai_analysis":
			s.AIAnalysis = d.aiAnalysis(f, label)
		case "parallel":
			s.Parallel = d.parallel(f, label)
		case "output":
			s.Output = d.str(f, label+": output")
		case "continue_on_error":
			s.ContinueOnError = d.boolean(f, label+": continue_on_error")
		default:
			d.errorf(f.keyNode, "%s: unknown key %q", label, f.key)
		}
	}
	return s
}

// aiAnalysis decodes an ai_analysis mapping. A present but empty mapping
// still makes the step an AI analysis step, so the message says the
// question is missing rather than that the step has no kind.
func (d *decoder) aiAnalysis(f field, label string) *AIAnalysis {
	a := &AIAnalysis{}
	for _, g := range d.fields(f.value, f.valuePath, label+": ai_analysis") {
		switch g.key {
		case "question":
			a.Question = d.str(g, label+": ai_analysis.question")
		default:
			d.errorf(g.keyNode, "%s: ai_analysis: unknown key %q (expected question)", label, g.key)
		}
	}
	return a
}

// parallel decodes a list of branches, each a list of steps. The result is
// never nil, so an empty parallel still counts as a parallel step.
func (d *decoder) parallel(f field, label string) [][]Step {
	branches, ok := d.sequence(f.value, f.valuePath, label+": parallel")
	out := make([][]Step, 0, len(branches))
	if !ok {
		return out
	}
	for b, bn := range branches {
		bpath := index(f.valuePath, b)
		if bn.Kind == yaml.MappingNode {
			// The usual slip: a list of steps where a list of branches
			// belongs.
			d.errorf(bn, "%s: parallel must be a list of branches, each a list of steps (write \"- - name: ...\")", label)
			d.src.bad[bpath] = true
			out = append(out, []Step{})
			continue
		}
		items, _ := d.sequence(bn, bpath, fmt.Sprintf("%s: branch %d", label, b+1))
		branch := make([]Step, len(items))
		for i, item := range items {
			branch[i] = d.step(item, index(bpath, i))
		}
		out = append(out, branch)
	}
	return out
}
