package triage

import (
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// The word model is a naive Bayes classifier over the words of an alert,
// counted on labelled alerts (see TrainWords). It weighs what the rules
// cannot enumerate: the many ways vendors and administrators write that an
// activity was a scanner, a sanctioned change or a red-team exercise, or
// that it looked like an intrusion. Its counts are plain text, so what it
// learned can be read and diffed like the rules.

// wordClasses are the labels the model counts, in file column order.
var wordClasses = [3]string{ClassMalicious, ClassSuspicious, ClassBenign}

// WordModel is the word counts the classifier judges with.
type WordModel struct {
	// Docs is the number of labelled alerts per class (wordClasses order).
	Docs [3]int
	// Terms maps a term to the number of alerts per class containing it.
	Terms map[string][3]int
	// Comment is the provenance written at the top of the model file.
	Comment []string
}

// wordSmoothing is the pseudo-count that keeps an unseen class from ruling a
// term out. Measured with models that never saw the folder scored, on the
// 3,552 unseen, 96 blind and 708 rules-part alerts, once identifier
// fragments were no longer terms:
//
//	smoothing  rules  unseen  blind
//	0.25       672    3019    81
//	0.15       673    3032    80
//	0.10       668    3039    80
//	0.05       667    3047    81
//	0.02       662    3030    81
//
// (Before that, on fewer alerts, 0.25 had beaten 0.5 and 1.0.)
const wordSmoothing = 0.05

// minModelTerms is how many known words, besides the incident type and
// severity, an alert needs before the model's opinion counts. A vendor's
// alert carries dozens; with only a handful the model judges a few chance
// words (a weekday, "gmail", "https") rather than the alert. A single
// sign-in event (OneLogin's, JumpCloud's) carries 15 to 25, and for
// those the model's reading was right more often than the rules'
// "unknown": measured with models that never saw the folder scored,
// lowering the bar from 25 to 15 fixed 15 cases and broke none (10 did
// the same as 15).
const minModelTerms = 15

var (
	termPattern  = regexp.MustCompile(`[a-z][a-z0-9]{2,30}`)
	numberInTerm = regexp.MustCompile(`[0-9]{3,}`)
)

// AlertTerms returns the distinct terms of inc the word model counts: the
// lowercase words of every string in the raw data (identifiers, hashes and
// numbers left out), plus its incident type and severity as "type:" and
// "sev:" terms. Field names are not terms: they say which vendor wrote
// the alert, not what happened.
func AlertTerms(inc Incident) []string {
	terms := newBoundedSet(maxAlertTerms)
	terms.add("type:" + metaValue(inc.IncidentType))
	terms.add("sev:" + metaValue(inc.Severity))
	walkStrings(inc.RawData, 0, func(s string) {
		for _, t := range termPattern.FindAllString(strings.ToLower(withoutEmbeddedFieldNames(s)), -1) {
			if !numberInTerm.MatchString(t) && !hexFragment(t) {
				terms.add(t)
			}
		}
	})
	return terms.sorted()
}

// hexFragment reports a term made of hexadecimal digits with at least
// one decimal digit among them ("d7b", "e4f5a6b7"): a piece of a GUID,
// hash or message id, random by construction, which the model would
// otherwise learn chance class associations for.
func hexFragment(t string) bool {
	digit := false
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c < 'a' || c > 'f':
			return false
		}
	}
	return digit
}

// embeddedTag and embeddedKey find the field names a log record carries
// inside one string: an XML event's tags (with their attributes, which
// name fields too) and the keys of a "Key=value" record.
var (
	embeddedTag = regexp.MustCompile(`<[^<>]{1,300}>`)
	embeddedKey = regexp.MustCompile(`(^|[\s,;{(])[A-Za-z_][A-Za-z0-9_.]{0,60}=`)
)

// withoutEmbeddedFieldNames drops the field names of a log record carried
// as text (a forwarded Windows event's XML or key=value lines), which are
// no more terms than the JSON keys around them. A key inside a URL's query
// follows "?" or "&" and stays.
func withoutEmbeddedFieldNames(s string) string {
	if strings.IndexByte(s, '<') >= 0 {
		s = embeddedTag.ReplaceAllString(s, " ")
	}
	if strings.IndexByte(s, '=') >= 0 {
		s = embeddedKey.ReplaceAllString(s, "$1 ")
	}
	return s
}

// maxAlertTerms bounds the distinct terms read from one alert, so a
// hostile payload cannot make triage count without end; the labelled
// alerts carry at most a few hundred.
const maxAlertTerms = 4096

// metaValue folds a caller-given type or severity into one term: lowercase,
// at most 40 bytes, anything but letters, digits, dots and dashes as "_",
// so no value can break the model file's lines or columns.
func metaValue(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if len(s) > 40 {
		s = s[:40]
	}
	return strings.Map(func(r rune) rune {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') || r == '.' || r == '-' {
			return r
		}
		return '_'
	}, s)
}

// walkStrings calls fn on every string value under v, down to the depth
// the other readers of raw data stop at (maxWalkDepth).
func walkStrings(v any, depth int, fn func(string)) {
	if depth >= maxWalkDepth {
		return
	}
	switch x := v.(type) {
	case string:
		fn(x)
	case map[string]any:
		for _, e := range x {
			walkStrings(e, depth+1, fn)
		}
	case []any:
		for _, e := range x {
			walkStrings(e, depth+1, fn)
		}
	}
}

// metaTerm reports a term the model adds itself (type and severity).
func metaTerm(t string) bool { return strings.HasPrefix(t, "type:") || strings.HasPrefix(t, "sev:") }

// wordJudgement is what the model made of one alert.
type wordJudgement struct {
	// logp is the log-likelihood per class (wordClasses order), prior included.
	logp [3]float64
	// known are the alert's terms the model has counts for.
	known []string
}

// judge scores terms. Terms the model never counted carry no weight.
func (m *WordModel) judge(terms []string) wordJudgement {
	var j wordJudgement
	total := float64(m.Docs[0] + m.Docs[1] + m.Docs[2])
	for c := range wordClasses {
		j.logp[c] = math.Log(float64(m.Docs[c]) / total)
	}
	for _, t := range terms {
		counts, ok := m.Terms[t]
		if !ok {
			continue
		}
		j.known = append(j.known, t)
		for c := range wordClasses {
			j.logp[c] += m.termWeight(counts, c)
		}
	}
	return j
}

// termWeight is the log-probability that an alert of class c contains a
// term seen in counts alerts per class.
func (m *WordModel) termWeight(counts [3]int, c int) float64 {
	return math.Log((float64(counts[c]) + wordSmoothing) / (float64(m.Docs[c]) + 2*wordSmoothing))
}

// argmax returns the index of the largest value.
func argmax(v [3]float64) int {
	best := 0
	for c := 1; c < len(v); c++ {
		if v[c] > v[best] {
			best = c
		}
	}
	return best
}

// telling returns up to n of j's known terms that most favour class win
// over class other, strongest first: the words an analyst can check.
func (m *WordModel) telling(j wordJudgement, win, other, n int) []string {
	type scored struct {
		term string
		lift float64
	}
	var list []scored
	for _, t := range j.known {
		if metaTerm(t) {
			continue
		}
		counts := m.Terms[t]
		if lift := m.termWeight(counts, win) - m.termWeight(counts, other); lift > 0 {
			list = append(list, scored{t, lift})
		}
	}
	sort.Slice(list, func(a, b int) bool {
		if list[a].lift != list[b].lift {
			return list[a].lift > list[b].lift
		}
		return list[a].term < list[b].term
	})
	out := []string{}
	for i := 0; i < len(list) && i < n; i++ {
		out = append(out, list[i].term)
	}
	return out
}

// classIndex is label's column in the model, or -1.
func classIndex(label string) int { return slices.Index(wordClasses[:], label) }
