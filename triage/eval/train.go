package eval

import (
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
	skip := map[string]bool{}
	for _, e := range excluded {
		skip[e] = true
	}
	var alerts []triage.LabelledAlert
	for _, c := range cases {
		if skip[topFolder(c.File)] {
			continue
		}
		alerts = append(alerts, triage.LabelledAlert{Incident: c.Incident(), Label: c.Expected})
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
