package triage

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Behavioural mail products (Abnormal's summaryInsights, several SOAR
// enrichments) state what they established about a message as short
// sentences rather than fields: "SPF, DKIM and DMARC pass", "Sender
// domain registered 14 years ago", "Known vendor: 214 messages exchanged
// over 26 months". These are read into the same fields the header
// readers fill.

// insightKeys are where products list such sentences.
var insightKeys = []string{"summaryinsights", "insights"}

var (
	// insightMechRe names the mechanisms an insight says passed, and
	// insightPassRe is the saying ("pass", "passed", "authenticated"; not
	// "password" or "bypass").
	insightMechRe = regexp.MustCompile(`\b(spf|dkim|dmarc)\b`)
	insightPassRe = regexp.MustCompile(`\bpass(es|ed)?\b|\bauthenticated\b`)
	// insightAgeRe reads a sender domain's age with its unit;
	// insightYearRe its registration year.
	insightAgeRe  = regexp.MustCompile(`(sender|vendor) domain (was )?registered (over |more than )?(\d{1,4}) (day|week|month|year)s? ago|established sender domain \((\d{1,3}) years?\)`)
	insightYearRe = regexp.MustCompile(`(sender|vendor) domain (was )?registered (in )?((19|20)\d\d)\b`)
	// insightHistoryRe is a record of earlier correspondence with the
	// sender; a count of messages counts from two.
	insightHistoryRe = regexp.MustCompile(`known (vendor|sender)|established (vendor|sender)|\b([2-9]|[1-9]\d+) (prior |previous )?(messages|e-?mails)|exchanged ([2-9]|[1-9]\d+)\b|communication history|prior (correspondence|conversation)|vendor of record`)
	// insightDenialRe marks an insight that speaks against the sender:
	// a look-alike of the known party, no history, a failure.
	insightDenialRe = regexp.MustCompile(`look-?alike|impersonat|\bno prior\b|\bnot a known\b|fail|compromis`)
)

// readMailInsights reads the product's insight sentences: passing
// authentication into auth (where headers said nothing), the sender
// domain's age, and a record of earlier correspondence.
func readMailInsights(d *doc, auth map[string]string, f *EmailFields) {
	for _, s := range d.strs(insightKeys...) {
		low := strings.ToLower(s)
		if insightDenialRe.MatchString(low) {
			continue
		}
		if insightPassRe.MatchString(low) {
			for _, mech := range insightMechRe.FindAllString(low, -1) {
				if _, known := auth[mech]; !known {
					auth[mech] = "pass"
				}
			}
		}
		if f.SenderAgeDays < 0 {
			f.SenderAgeDays = insightAge(d, low)
		}
		if insightHistoryRe.MatchString(low) && !strings.Contains(low, "first") {
			f.KnownCorrespondent = true
		}
	}
}

// insightAge is the sender domain's age in days an insight states, or -1.
func insightAge(d *doc, low string) int {
	if m := insightAgeRe.FindStringSubmatch(low); m != nil {
		if m[6] != "" {
			n, _ := strconv.Atoi(m[6])
			return n * 365
		}
		return ageInDays([]string{m[4] + " " + m[5]})
	}
	if m := insightYearRe.FindStringSubmatch(low); m != nil {
		year, _ := strconv.Atoi(m[4])
		at, ok := mailTime(d)
		if !ok || at.Year() < year {
			return -1
		}
		return int(at.Sub(time.Date(year, 12, 31, 0, 0, 0, 0, time.UTC)).Hours()/24) + 1
	}
	return -1
}

// mailTime is when the message or the alert about it happened: the
// event's own time, or the message's received or sent time.
func mailTime(d *doc) (time.Time, bool) {
	if at, ok := eventTime(d); ok {
		return at, true
	}
	return parseTime(d.str("receivedtime", "receiveddatetime", "senttime", "sentdatetime", "creationtime", "date"))
}
