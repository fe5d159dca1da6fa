package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/vigil-soc/vigil/triage"
)

// Answer limits, also stated in the system prompt.
const (
	maxCategoryChars  = 100
	maxReasoningChars = 4000
)

// parseAnswer validates the model's message content against the schema in
// the system prompt. Validation is strict because the verdict can trigger
// automated containment: a wrong type, an out-of-range confidence, a missing
// field or an action name outside triage.KnownActions makes the whole answer
// malformed. An unknown action is not silently dropped, since a model that
// invents actions has misunderstood the task and its other fields are
// suspect too. Fields outside the schema are ignored.
func parseAnswer(content string) (triage.Analysis, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal([]byte(stripFence(content)), &fields); err != nil {
		return triage.Analysis{}, errors.New("content is not a JSON object")
	}
	var v triage.Verdict
	var err error
	if v.Classification, err = stringField(fields, "classification"); err != nil {
		return triage.Analysis{}, err
	}
	v.Classification = strings.ToLower(strings.TrimSpace(v.Classification))
	switch v.Classification {
	case triage.ClassMalicious, triage.ClassSuspicious, triage.ClassBenign, triage.ClassUnknown:
	default:
		return triage.Analysis{}, errors.New("classification must be one of malicious, suspicious, benign, unknown")
	}
	if v.Confidence, err = confidenceField(fields); err != nil {
		return triage.Analysis{}, err
	}
	category, err := stringField(fields, "category")
	if err != nil {
		return triage.Analysis{}, err
	}
	if n := utf8.RuneCountInString(category); n > maxCategoryChars {
		return triage.Analysis{}, fmt.Errorf("category must be at most %d characters", maxCategoryChars)
	}
	if v.Category = snakeCase(category); v.Category == "" {
		return triage.Analysis{}, errors.New("category must not be empty")
	}
	reasoning, err := stringField(fields, "reasoning")
	if err != nil {
		return triage.Analysis{}, err
	}
	if utf8.RuneCountInString(reasoning) > maxReasoningChars {
		return triage.Analysis{}, fmt.Errorf("reasoning must be at most %d characters", maxReasoningChars)
	}
	if v.Reasoning = strings.TrimSpace(blankControls(reasoning)); v.Reasoning == "" {
		return triage.Analysis{}, errors.New("reasoning must not be empty")
	}
	acts, err := actionsField(fields)
	if err != nil {
		return triage.Analysis{}, err
	}
	return triage.Analysis{Verdict: v, RecommendedActions: acts}, nil
}

// stripFence removes a Markdown code fence (```json ... ```), which many
// models add even when asked for bare JSON.
func stripFence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") || !strings.HasSuffix(s, "```") || len(s) < 6 {
		return s
	}
	s = s[3 : len(s)-3]
	// An info string such as "json" may follow the opening fence.
	if i := strings.IndexByte(s, '{'); i > 0 && isWord(strings.TrimSpace(s[:i])) {
		s = s[i:]
	}
	return strings.TrimSpace(s)
}

func isWord(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

func stringField(fields map[string]json.RawMessage, name string) (string, error) {
	raw, ok := fields[name]
	if !ok {
		return "", fmt.Errorf("%s is missing", name)
	}
	var s string
	// A JSON null would decode into "" without error.
	if err := json.Unmarshal(raw, &s); err != nil || raw[0] != '"' {
		return "", fmt.Errorf("%s must be a string", name)
	}
	return s, nil
}

func confidenceField(fields map[string]json.RawMessage) (float64, error) {
	raw, ok := fields["confidence"]
	if !ok {
		return 0, errors.New("confidence is missing")
	}
	var f float64
	// Only a JSON number will do: null would decode into 0 without error.
	if err := json.Unmarshal(raw, &f); err != nil || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
		return 0, errors.New("confidence must be a number")
	}
	if f < 0 || f > 1 || math.IsNaN(f) {
		return 0, errors.New("confidence must be between 0 and 1")
	}
	// Two decimals, like the built-in analyzer, so stored verdicts compare.
	return math.Round(f*100) / 100, nil
}

// actionsField returns the actions deduplicated in canonical order, never
// nil.
func actionsField(fields map[string]json.RawMessage) ([]string, error) {
	raw, ok := fields["recommended_actions"]
	if !ok {
		return nil, errors.New("recommended_actions is missing")
	}
	var names []string
	if err := json.Unmarshal(raw, &names); err != nil || string(raw) == "null" {
		return nil, errors.New("recommended_actions must be an array of strings")
	}
	want := make(map[string]bool, len(names))
	for _, n := range names {
		if !triage.IsKnownAction(n) {
			return nil, fmt.Errorf("unknown action %q", clip(blankControls(n), 40))
		}
		want[n] = true
	}
	out := []string{}
	for _, a := range triage.KnownActions() {
		if want[a] {
			out = append(out, a)
		}
	}
	return out, nil
}

// snakeCase folds a category to lowercase words joined by underscores:
// categories are grouped on and shown in reports, so "Credential Phishing"
// and "credential-phishing" must be one value.
func snakeCase(s string) string {
	var b strings.Builder
	sep := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if sep && b.Len() > 0 {
				b.WriteByte('_')
			}
			sep = false
			b.WriteRune(r)
		} else {
			sep = true
		}
	}
	return b.String()
}

// blankControls replaces control characters, newlines included, with
// spaces: reasoning ends up in single-line reports and tickets, and text
// echoed from a payload must not forge extra lines there.
func blankControls(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}
