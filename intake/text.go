package intake

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Caps on sender-supplied text. Titles and types end up in listings, chat
// messages and metric labels, so they are kept short; an over-long alert id
// is more likely garbage than a key worth deduplicating on.
const (
	maxTitleRunes       = 200
	maxDescriptionRunes = 2000
	maxAlertIDRunes     = 200
	maxTypeRunes        = 64
	maxSourceRunes      = 200
	maxSeverityRawRunes = 64
)

// Event times outside these bounds are treated as absent rather than
// rejected: a sender with a broken clock or a seconds/milliseconds mix-up
// still gets its alert through, just without a trusted event time.
var (
	earliestEvent = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	latestEvent   = time.Date(2101, 1, 1, 0, 0, 0, 0, time.UTC) // exclusive
)

// isInvisible reports runes that must not reach a one-line display: control
// characters could forge extra lines in logs and chat messages, and bidi
// overrides could make "exe.pdf" read as "fdp.exe".
func isInvisible(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}

// cleanLine folds s onto one trimmed line with single spaces.
func cleanLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if isInvisible(r) {
			return ' '
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

func cleanTitle(s string) string { return truncateRunes(cleanLine(s), maxTitleRunes) }

// cleanDescription keeps line structure, which matters for raw log lines,
// but drops other control and bidi characters.
func cleanDescription(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case isInvisible(r):
			return -1
		}
		return r
	}, s)
	return truncateRunes(strings.TrimSpace(s), maxDescriptionRunes)
}

// cleanAlertID trims the id and drops it when it is too long to be a real
// upstream id, so that it cannot bloat the deduplication index.
func cleanAlertID(s string) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) > maxAlertIDRunes {
		return ""
	}
	return s
}

// normaliseType lower-cases a sender's incident type and spells word
// separators as spaces, so "Suspicious_Login" files with "suspicious login".
func normaliseType(s string) string {
	s = strings.ToLower(strings.NewReplacer("_", " ", "-", " ").Replace(s))
	return cutRunes(cleanLine(s), maxTypeRunes)
}

// humanize turns an identifier such as "malware_detected" into a title
// ("Malware detected").
func humanize(s string) string {
	s = cleanLine(strings.ReplaceAll(s, "_", " "))
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// truncateRunes caps s at n runes, marking a cut with an ellipsis so that a
// reader knows the text continues in the raw data.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return strings.TrimRightFunc(cutRunes(s, n-1), unicode.IsSpace) + "…"
}

// cutRunes returns at most the first n runes of s.
func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// typeRule assigns typ to text containing any of keywords.
type typeRule struct {
	typ      string
	keywords []string
}

// Keyword rules for deriving an incident type from free text. The first
// matching rule wins, so order expresses precedence: "credential phishing"
// is phishing in generic alerts. Log-search names rank login first because
// searches are mostly written around authentication events.
var (
	genericTypeRules = []typeRule{
		{"phishing", []string{"phish"}},
		{"malware", []string{"malware", "ransom", "virus", "trojan"}},
		{"suspicious login", []string{"login", "logon", "auth", "brute", "credential"}},
	}
	logSearchTypeRules = []typeRule{
		{"suspicious login", []string{"login", "logon", "auth", "brute"}},
		{"malware", []string{"malware", "virus"}},
		{"phishing", []string{"phish"}},
	}
)

// classify returns the type of the first rule with a keyword in text, or "".
func classify(text string, rules []typeRule) string {
	text = strings.ToLower(text)
	for _, r := range rules {
		for _, k := range r.keywords {
			if strings.Contains(text, k) {
				return r.typ
			}
		}
	}
	return ""
}

// decimal parses s as a plain decimal number ("3", "-1", "1700000000.5").
// strconv alone would also accept "NaN", "Inf", hex floats and exponents,
// none of which a sender means as a severity level or a time.
func decimal(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	digits, dot := 0, false
	for i, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '-' && i == 0:
		case c == '.' && !dot && digits > 0:
			dot = true
		default:
			return 0, false
		}
	}
	if digits == 0 || strings.HasSuffix(s, ".") {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	return f, err == nil && !math.IsInf(f, 0)
}

// parseTime parses an RFC 3339 time (fractional seconds allowed).
func parseTime(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339, strings.TrimSpace(s))
	if err != nil {
		return time.Time{}, false
	}
	return plausible(t), true
}

// anyTime reads an RFC 3339 string or unix seconds given as a number or a
// string of digits.
func anyTime(v any) (time.Time, bool) {
	switch t := v.(type) {
	case float64:
		return fromUnix(t, time.Second), true
	case string:
		if f, ok := decimal(t); ok {
			return fromUnix(f, time.Second), true
		}
		return parseTime(t)
	}
	return time.Time{}, false
}

// fromUnix converts a unix time counted in unit (time.Second or
// time.Millisecond). The range check happens on the float so that huge or
// negative values cannot overflow the integer conversion.
func fromUnix(v float64, unit time.Duration) time.Time {
	secs := v * unit.Seconds()
	if math.IsNaN(secs) || secs < float64(earliestEvent.Unix()) || secs >= float64(latestEvent.Unix()) {
		return time.Time{}
	}
	if unit == time.Millisecond {
		return time.UnixMilli(int64(math.Floor(v))).UTC()
	}
	whole := math.Floor(v)
	// Microsecond rounding hides float noise such as .123000001.
	micros := math.Round((v - whole) * 1e6)
	return time.Unix(int64(whole), int64(micros)*1000).UTC()
}

// plausible returns t in UTC, or the zero time when t lies outside the
// years 2000 to 2100.
func plausible(t time.Time) time.Time {
	if t.Before(earliestEvent) || !t.Before(latestEvent) {
		return time.Time{}
	}
	return t.UTC()
}
