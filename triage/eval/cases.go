// Package eval measures a triage analyzer against a labelled set of alerts:
// each case is one vendor payload as the service would store it, with the
// verdict a senior analyst would reach. Load reads a directory of cases, Run
// scores an analyzer on them the way the service would call it.
package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vigil-soc/vigil/triage"
)

// Case is one labelled alert, read from a JSON file of the same fields.
type Case struct {
	// File is the case's path relative to the loaded directory, with
	// forward slashes, e.g. "email/defender-o365-credential-harvest.json".
	File string `json:"-"`
	// Folder is File's directory ("." for a case at the top level); reports
	// break accuracy down by it.
	Folder string `json:"-"`

	IncidentType string         `json:"incident_type"`
	Severity     string         `json:"severity"`
	Source       string         `json:"source"`
	RawData      map[string]any `json:"raw_data"`
	// Expected is the label: malicious, suspicious or benign.
	Expected string `json:"expected"`
	// Rationale says in one line why the label is right.
	Rationale string `json:"rationale"`
}

// Incident is the case as the analyzer sees it, before enrichment.
func (c Case) Incident() triage.Incident {
	return triage.Incident{IncidentType: c.IncidentType, Severity: c.Severity, Source: c.Source, RawData: c.RawData}
}

// labels are the verdicts a case may expect; unknown is an analyzer's
// answer, never a label, since every case is written to be decidable.
var labels = []string{triage.ClassMalicious, triage.ClassSuspicious, triage.ClassBenign}

var severities = []string{"informational", "low", "medium", "high", "critical"}

// Load reads every *.json file under dir, recursively, in lexical order.
// Every file is checked; the error lists each bad file with what is wrong,
// so one run shows all of them.
func Load(dir string) ([]Case, error) {
	var cases []Case
	var problems []error
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.EqualFold(filepath.Ext(p), ".json") {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		c, err := loadCase(p)
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: %w", rel, err))
			return nil
		}
		c.File, c.Folder = rel, path.Dir(rel)
		cases = append(cases, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("read cases: %w", err)
	}
	if len(problems) > 0 {
		return nil, errors.Join(problems...)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("no *.json cases under %s", dir)
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].File < cases[j].File })
	return cases, nil
}

// loadCase decodes and validates one file. Unknown fields are refused so a
// misspelt "expectd" cannot silently drop a label.
func loadCase(p string) (Case, error) {
	body, err := os.ReadFile(p)
	if err != nil {
		return Case{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var c Case
	if err := dec.Decode(&c); err != nil {
		return Case{}, fmt.Errorf("invalid JSON: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Case{}, errors.New("invalid JSON: more than one value in the file")
	}
	return c, c.validate()
}

func (c Case) validate() error {
	var errs []error
	if !contains(labels, c.Expected) {
		errs = append(errs, fmt.Errorf("expected must be one of %s, got %q", strings.Join(labels, ", "), c.Expected))
	}
	if !contains(severities, c.Severity) {
		errs = append(errs, fmt.Errorf("severity must be one of %s, got %q", strings.Join(severities, ", "), c.Severity))
	}
	if len(c.RawData) == 0 {
		errs = append(errs, errors.New("raw_data must be a non-empty object"))
	}
	if r := strings.TrimSpace(c.Rationale); r == "" || strings.ContainsAny(r, "\r\n") {
		errs = append(errs, errors.New("rationale must be one non-empty line"))
	}
	return errors.Join(errs...)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
