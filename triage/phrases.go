package triage

import "strings"

// negations are the words that, just before a phrase, turn a statement
// around: "not a trusted domain", "no sign the key was leaked".
var negations = []string{"not ", "no ", "non-", "never ", "without ", "n't ", "isn't ", "wasn't ", "no sign ", "no evidence "}

// affirmedPhrase returns the first of phrases that occurs in text (both
// lowercase) without a negation in the few words before it, or "".
func affirmedPhrase(text string, phrases ...string) string {
	return firstUnnegated(text, phrases, func(before string) bool {
		if cut := strings.LastIndexAny(before, ".;\n"); cut >= 0 {
			before = before[cut+1:]
		}
		return firstSubstring(before, negations) != ""
	})
}

// firstUnnegated returns the first of phrases that occurs in text at a
// place the up to 24 characters before which negated does not call a
// negation, or "".
func firstUnnegated(text string, phrases []string, negated func(before string) bool) string {
	for _, p := range phrases {
		for off := 0; off < len(text); {
			i := strings.Index(text[off:], p)
			if i < 0 {
				break
			}
			start := off + i
			if !negated(text[max(0, start-24):start]) {
				return p
			}
			off = start + len(p)
		}
	}
	return ""
}
