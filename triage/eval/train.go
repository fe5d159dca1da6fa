package eval

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/vigil-soc/vigil/triage"
)

// excludedPrefix starts the model file's comment line that names the
// folders left out of training, so the model can be rebuilt exactly.
const excludedPrefix = "excluded folders:"

// TrainWords counts the word model on cases, leaving out those whose
// top-level folder is in excluded: folders kept blind, so that the model's
// accuracy on them still estimates how it does on alerts it never saw.
func TrainWords(cases []Case, excluded []string) (*triage.WordModel, error) {
	return trainWords(cases, nil, excluded)
}

// trainWords is TrainWords with each case's terms already read (terms[i]
// for cases[i]), or nil to read them.
func trainWords(cases []Case, terms [][]string, excluded []string) (*triage.WordModel, error) {
	skip := map[string]bool{}
	for _, e := range excluded {
		skip[e] = true
	}
	var alerts []triage.LabelledAlert
	for i, c := range cases {
		if skip[topFolder(c.File)] {
			continue
		}
		a := triage.LabelledAlert{Incident: c.Incident(), Label: c.Expected}
		if terms != nil {
			a.Terms = terms[i]
		}
		alerts = append(alerts, a)
	}
	names := append([]string(nil), excluded...)
	sort.Strings(names)
	return triage.TrainWords(alerts,
		"Vigil's word model: written by `vigil triage train`, do not edit by hand.",
		fmt.Sprintf("trained on %d labelled alerts", len(alerts)),
		strings.TrimSpace(excludedPrefix+" "+strings.Join(names, " ")))
}

// ExcludedFolders reads the folders a model file says were left out of its
// training.
func ExcludedFolders(m *triage.WordModel) []string {
	for _, c := range m.Comment {
		if rest, ok := strings.CutPrefix(c, excludedPrefix); ok {
			return strings.Fields(rest)
		}
	}
	return nil
}

// topFolder is the first directory of a case's path, or "." at the top.
func topFolder(file string) string {
	if i := strings.IndexByte(file, '/'); i >= 0 {
		return file[:i]
	}
	return "."
}

// CrossValidate scores the rule analyzer on each top-level folder of cases
// with a word model trained on the other folders, never on excluded ones:
// what the analyzer would score on alerts its model never saw. The
// built-in model has seen every folder it was not told to leave out, so a
// plain Run on those measures recall, not generalization.
func CrossValidate(ctx context.Context, cases []Case, excluded []string, opts ...Option) (Report, error) {
	var folders []string
	seen := map[string]bool{}
	for _, c := range cases {
		if f := topFolder(c.File); !seen[f] {
			seen[f] = true
			folders = append(folders, f)
		}
	}
	if len(folders) < 2 {
		return Report{}, errors.New("cross-validation needs cases in at least two top-level folders")
	}
	terms := make([][]string, len(cases))
	for i, c := range cases {
		terms[i] = triage.AlertTerms(c.Incident())
	}
	analyzers := map[string]triage.Analyzer{}
	for _, f := range folders {
		m, err := trainWords(cases, terms, append([]string{f}, excluded...))
		if err != nil {
			return Report{}, fmt.Errorf("train without %s: %w", f, err)
		}
		analyzers[f] = triage.RuleAnalyzer{Words: m}
	}
	return run(ctx, func(c Case) triage.Analyzer { return analyzers[topFolder(c.File)] }, cases, opts...)
}
