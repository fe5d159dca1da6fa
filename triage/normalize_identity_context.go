package triage

import (
	"regexp"
	"sort"
	"strings"
)

// Integrations attach correlated context to a sign-in under names of their
// own: how many distinct accounts the same address tried, how many
// failures came before the success, what the session did right after.
// These readers find it by what a key means rather than by one spelling,
// wherever it sits in the payload.

// maxContextDepth bounds how deep the context walk goes.
const maxContextDepth = 8

var (
	// distinctWords make a count one of distinct things.
	distinctWords = []string{"distinct", "unique", "different"}
	// triedWords make a count one of things tried or failed.
	triedWords = []string{"targeted", "tried", "attempted", "sprayed", "failed", "failure"}
	// accountNouns are what a sprayed count counts.
	accountNouns = []string{"user", "account", "subject", "identit", "principal", "victim"}
	// notAccountCounts are counts of something else or of successes.
	notAccountCounts = []string{"success", "succeed", "lock", "compromis", "agent", "device", "countr", "ipaddress", "session", "group", "usual", "baseline", "average", "typical",
		"tenant", "licens", "active", "enabled", "member", "org"}
	// failureWords name a count of failed sign-ins.
	failureWords = []string{"fail", "wrong", "invalid", "incorrect", "badpassword"}
	// notFailureCounts are failure counts that are rates, baselines or
	// another thing's failures.
	notFailureCounts = []string{"rate", "ratio", "percent", "usual", "baseline", "average", "typical", "mfa", "push", "factor", "successes", "successcount", "succeeded"}
)

// contextCount is one numeric field met on the walk.
type contextCount struct {
	key   string // normalised key
	value float64
	// failing is set when a sibling field counts failures, so a bare
	// "distinct users" beside it counts accounts tried, not an office
	// address's many ordinary users.
	failing bool
}

// readCorrelatedContext raises the identity counts from numeric fields
// whose names mean "distinct accounts tried" or "failed sign-ins", and
// reads what the session did after the sign-in, anywhere in the payload.
func readCorrelatedContext(f *IdentityFields, raw map[string]any) {
	if ip, _ := raw["factorRefusedFromAddress"].(string); ip != "" {
		f.RefusedElsewhere = true
	}
	var counts []contextCount
	var after []string
	walkContext(raw, 0, false, &counts, &after)
	for _, c := range counts {
		switch {
		case accountCount(c.key) && (c.failing || explicitlyTried(c.key)):
			f.TargetedUsers = max(f.TargetedUsers, int(c.value))
		case failureCount(c.key):
			f.FailedAttempts = max(f.FailedAttempts, int(c.value))
		}
	}
	for _, item := range after {
		k := normKey(item)
		if firstSubstring(k, followOnTamper) != "" {
			f.AccountTamper = true
		}
		if firstSubstring(k, payoutTargets) != "" && changeVerbRe.MatchString(strings.ToLower(item)) {
			f.PayoutChange = true
		}
	}
}

// walkContext collects numeric fields (outside baseline and follow-on
// objects) and the strings of follow-on objects.
func walkContext(v any, depth int, followOn bool, counts *[]contextCount, after *[]string) {
	if depth > maxContextDepth {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		failing := false
		for _, k := range keys {
			if _, ok := asNumber(t[k]); ok && (failureSibling(k)) {
				failing = true
			}
		}
		for _, k := range keys {
			child := t[k]
			if n, ok := asNumber(child); ok && !followOn && !asideKey(k) {
				if _, isBool := child.(bool); !isBool {
					*counts = append(*counts, contextCount{normKey(k), n, failing})
				}
			}
			walkContext(child, depth+1, followOn || followOnKey(k), counts, after)
		}
	case []any:
		for _, x := range t {
			walkContext(x, depth+1, followOn, counts, after)
		}
	case string:
		if followOn {
			*after = append(*after, t)
		}
	}
}

// followOnSegments are followOnWords and "then" ("then_actions").
var followOnSegments = setOf(append([]string{"then"}, followOnWords...)...)

// followOnKey reports a key naming what happened after the event.
func followOnKey(raw string) bool {
	k := normKey(raw)
	for _, s := range keySegments(raw) {
		if followOnSegments[s] {
			return true
		}
	}
	return containsAnyTerm(k, "afterlogin", "aftersignin", "postlogin", "postauth", "postsignin", "followedby", "nextactions", "subsequentevents", "sessionactivity", "followingevents")
}

// failureSibling reports a count of failures by its key: a failure word,
// or Auth0's documented failed-password and failed-username event codes.
func failureSibling(raw string) bool {
	k := normKey(raw)
	return k == "fp" || k == "fu" || containsAnyTerm(k, "fail", "invalid", "wrong", "denied", "incorrect")
}

// explicitlyTried reports a count key that itself says the accounts were
// tried or failed, not merely seen.
func explicitlyTried(k string) bool {
	return firstSubstring(k, triedWords) != ""
}

func accountCount(k string) bool {
	if firstSubstring(k, accountNouns) == "" || firstSubstring(k, notAccountCounts) != "" {
		return false
	}
	if firstSubstring(k, distinctWords) != "" {
		return true
	}
	return firstSubstring(k, triedWords) != "" && firstSubstring(k, []string{"login", "logon", "signin", "attempt", "password"}) == ""
}

func failureCount(k string) bool {
	return firstSubstring(k, failureWords) != "" && firstSubstring(k, notFailureCounts) == "" && firstSubstring(k, accountNouns) == "" && !longWindowRe.MatchString(k)
}

// longWindowRe finds a count over days or longer: a history, not the
// burst before this sign-in.
var longWindowRe = regexp.MustCompile(`\d+(d|days?|w|weeks?|mo|months?|y|years?)$|month|week|year|lifetime|history`)

// changeVerbRe finds a word that makes an account field's mention a change.
var changeVerbRe = regexp.MustCompile(`\b(change[sd]?|updated?|edit(ed)?|modif\w*|add(ed)?|replaced?|new|set)\b`)

// followOnTamper are changes that keep an account for whoever made them:
// contact and recovery details replaced, a second factor removed, mail
// ruled or forwarded away.
var followOnTamper = []string{
	"changeemail", "emailchange", "updateemail", "emailupdate", "changephone", "phonechange",
	"updatephone", "phoneupdate", "recoveryemail", "recoveryphone", "changemobile", "mobilenumberchange",
	"mfadisable", "disablemfa", "mfaremove", "removemfa", "factordeactivate", "deactivatefactor", "resetfactor",
	"resetmfa", "mfareset", "deleteauthenticat", "removeauthenticat", "2svdisable",
	"inboxrule", "forwardingrule", "mailforward", "forwardingsmtp", "autoforward", "forwardto", "forwardingaddress",
	"externalforward", "mailfilter", "filtercreated",
}

// payoutTargets are where money goes; with a change verb, a payout change.
var payoutTargets = []string{"paymentelection", "directdeposit", "bankaccount", "bankdetail", "paymentmethod", "payoutaccount", "payrollaccount", "iban", "routingnumber"}
