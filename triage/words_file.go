package triage

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Model file syntax: '#' lines are comments, the "*docs" line gives the
// labelled alerts per class, every other line a term and the number of
// alerts per class that contain it, tab-separated.
const docsLine = "*docs"

// ReadWordModel parses a model file (see WriteTo for the syntax).
func ReadWordModel(r io.Reader) (*WordModel, error) {
	m := &WordModel{Terms: map[string][3]int{}}
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if text == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(text, "#"); ok {
			m.Comment = append(m.Comment, strings.TrimPrefix(rest, " "))
			continue
		}
		f := strings.Split(text, "\t")
		if len(f) != 4 {
			return nil, fmt.Errorf("line %d: want a term and three counts, tab-separated", line)
		}
		var counts [3]int
		for c := range counts {
			n, err := strconv.Atoi(f[c+1])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("line %d: count %q is not a whole number", line, f[c+1])
			}
			counts[c] = n
		}
		if f[0] == docsLine {
			m.Docs = counts
			continue
		}
		m.Terms[f[0]] = counts
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for c, n := range m.Docs {
		if n == 0 {
			return nil, fmt.Errorf("no %s alerts counted (missing or empty %s line)", wordClasses[c], docsLine)
		}
	}
	return m, nil
}

// WriteTo writes the model in its file syntax: comment lines, the docs
// line, then one line per term in lexical order.
func (m *WordModel) WriteTo(w io.Writer) (int64, error) {
	var b strings.Builder
	for _, c := range m.Comment {
		fmt.Fprintf(&b, "# %s\n", c)
	}
	fmt.Fprintf(&b, "# columns: term, then alerts containing it that were %s\n", strings.Join(wordClasses[:], ", "))
	fmt.Fprintf(&b, "%s\t%d\t%d\t%d\n", docsLine, m.Docs[0], m.Docs[1], m.Docs[2])
	terms := make([]string, 0, len(m.Terms))
	for t := range m.Terms {
		terms = append(terms, t)
	}
	sort.Strings(terms)
	for _, t := range terms {
		c := m.Terms[t]
		fmt.Fprintf(&b, "%s\t%d\t%d\t%d\n", t, c[0], c[1], c[2])
	}
	n, err := io.WriteString(w, b.String())
	return int64(n), err
}

// LabelledAlert is one training example for TrainWords.
type LabelledAlert struct {
	Incident Incident
	// Label is malicious, suspicious or benign.
	Label string
	// Terms are the incident's terms (AlertTerms) when the caller has read
	// them already, as cross-validation does once for many models; nil
	// reads them from Incident.
	Terms []string
}

// minTermAlerts is how many training alerts must contain a term before the
// model keeps it: a word seen once is a name, not a pattern.
const minTermAlerts = 2

// TrainWords counts the terms of labelled alerts. comment lines go at the
// top of the model file, to say what it was trained on.
func TrainWords(alerts []LabelledAlert, comment ...string) (*WordModel, error) {
	m := &WordModel{Terms: map[string][3]int{}, Comment: comment}
	for _, a := range alerts {
		c := classIndex(a.Label)
		if c < 0 {
			return nil, fmt.Errorf("label %q is not one of %s", a.Label, strings.Join(wordClasses[:], ", "))
		}
		m.Docs[c]++
		terms := a.Terms
		if terms == nil {
			terms = AlertTerms(a.Incident)
		}
		for _, t := range terms {
			counts := m.Terms[t]
			counts[c]++
			m.Terms[t] = counts
		}
	}
	for t, counts := range m.Terms {
		if counts[0]+counts[1]+counts[2] < minTermAlerts {
			delete(m.Terms, t)
		}
	}
	for c, n := range m.Docs {
		if n == 0 {
			return nil, fmt.Errorf("no %s alerts to train on", wordClasses[c])
		}
	}
	return m, nil
}
