package triage

import (
	"slices"
	"strings"
)

// replyToHistoryWords mark a key that counts the organisation's past mail
// with the reply-to address or its domain (Check Point's
// replyToDomainSeenBefore, threadsWithReplyToDomainLast90Days,
// priorMessagesFromReplyToDomain); replyToNotHistory mark keys about the
// domain itself (its age, its first sighting) that only look alike.
var (
	replyToHistoryWords = []string{"seen", "known", "prior", "previous", "thread", "messages", "history", "correspond", "outbound", "inbound"}
	replyToNotHistory   = []string{"firstseen", "domainage", "agedays", "ageindays", "daysold", "registered", "created", "whois", "mismatch", "free"}
)

// replyToKnown reports a payload that says the organisation has written
// with the reply-to domain before: two or more past messages or threads,
// or a plain "seen before". A signing or ticketing service sends as itself
// and sets the reply-to to the person behind the request; when that
// person's domain is an established correspondent, the differing reply-to
// diverts nothing.
func replyToKnown(d *doc) bool {
	for _, e := range d.entries {
		k := e.key
		// In-Reply-To is the threading header, not the reply address.
		if !strings.Contains(k, "replyto") || strings.Contains(k, "inreplyto") || firstSubstring(k, replyToNotHistory) != "" || firstSubstring(k, replyToHistoryWords) == "" {
			continue
		}
		if v, ok := e.val.(bool); ok && v {
			return true
		}
		if n, ok := asNumber(e.val); ok && n >= 2 {
			return true
		}
	}
	return false
}

// repliesDiverted reports a reply-to that sends answers to another
// organisation than the sender's: not the sender's own domain, not one
// the organisation already corresponds with (known, see replyToKnown),
// and not the recipients' own organisation, where a signing service's
// envelope answers the colleague who sent it.
func repliesDiverted(m emailMessage, known bool) bool {
	if m.replyToDomain == "" || m.senderDomain == "" {
		return false
	}
	r := registrableDomain(m.replyToDomain)
	return r != registrableDomain(m.senderDomain) && !slices.Contains(m.orgDomains, r) && !known
}
