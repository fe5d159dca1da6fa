package triage

import (
	"net/netip"
	"reflect"
	"sort"
	"strings"
)

// Identity providers export sign-ins as lists of events (an Entra sign-in
// log page, an Okta event hook, a Google Workspace activity report), and
// the evidence of an attack is spread over them: many wrong passwords and
// then a right one, prompts refused and then one approved. A chain folds
// such a list into one view of the sign-in the verdict is about, with the
// counts the single-event readers already understand.

// maxChainEvents bounds the events read from one list.
const maxChainEvents = 500

// chainEvent is one sign-in event of a chain, read on its own.
type chainEvent struct {
	raw    map[string]any
	doc    *doc // raw, indexed once for the chain's own look-ups
	fields IdentityFields
}

// signInView returns the payload the identity readers should judge: raw
// itself when it holds no list of sign-in events, otherwise the focus event
// (the last successful sign-in, or the last event when none succeeded) with
// the chain's counts added at the top level, the earliest other successful
// sign-in as the previous one, and the rest of the payload kept as context
// below it so the event's own fields win.
func signInView(raw map[string]any) map[string]any {
	list, holder := longestEventList(raw)
	if len(list) == 0 {
		return raw
	}
	events := make([]chainEvent, 0, len(list))
	for _, m := range list {
		events = append(events, chainEvent{raw: m, doc: newDoc(m), fields: readIdentityFields(m)})
	}
	sortChronologically(events)
	focus := len(events) - 1
	for i := len(events) - 1; i >= 0; i-- {
		if events[i].fields.Result == "success" && signInEvent(events[i].fields) {
			focus = i
			break
		}
	}
	focus = tamperingSession(events, focus)
	fe := events[focus].fields
	view := make(map[string]any, len(events[focus].raw)+8)
	for k, v := range events[focus].raw {
		view[k] = v
	}
	s := summarizeChain(events, focus)
	if s.failures > 0 {
		view["failedAttempts"] = s.failures
	}
	if s.users > 1 {
		view["targetedUsers"] = s.users
	}
	if s.denied > 0 {
		view["mfaDenied"] = s.denied
	}
	if s.pushes > 0 {
		view["mfaPushes"] = s.pushes
	}
	if s.tamper != "" {
		view["chainAccountChange"] = s.tamper
	}
	if s.grant != "" {
		view["chainPrivilegeGrant"] = s.grant
	}
	if s.enrolled != "" {
		view["chainFactorEnrolled"] = s.enrolled
	}
	if s.deniedElsewhere != "" && fe.Result == "success" {
		view["factorRefusedFromAddress"] = s.deniedElsewhere
	}
	for i := 0; i < focus; i++ {
		e := events[i].fields
		if e.Result == "success" && e.SourceIP != "" && e.SourceIP != fe.SourceIP && sameUser(e.User, fe.User) {
			view["previousSignIn"] = events[i].raw
			break
		}
	}
	// A sign-in is several events (password, then factor, then SSO); the
	// provider's risk behaviours may sit on an earlier one of the same
	// user and address.
	focusDoc := newDoc(view)
	if !focusDoc.has("behaviors") {
		for i := focus - 1; i >= 0; i-- {
			e := events[i]
			if b := e.doc.str("behaviors"); b != "" && sameUser(e.fields.User, fe.User) && e.fields.SourceIP == fe.SourceIP {
				view["sessionBehaviors"] = map[string]any{"behaviors": b}
				break
			}
		}
	}
	// Likewise the provider's risk assessment of the session (Okta's
	// debugData.risk), made when it started.
	if !focusDoc.has("risk") {
		for i := focus - 1; i >= 0; i-- {
			e := events[i]
			if r := e.doc.scalarStr("risk"); r != "" && sameUser(e.fields.User, fe.User) && e.fields.SourceIP == fe.SourceIP {
				view["sessionRiskAssessment"] = map[string]any{"risk": r}
				break
			}
		}
	}
	// Likewise where the address is: a later event of the session (a
	// sign-in with the factor just enrolled) may leave out the network and
	// place its first sign-in from the same address recorded.
	if fe.ASN == "" && fe.Country == "" && fe.SourceIP != "" {
		for i := focus - 1; i >= 0; i-- {
			e := events[i].fields
			if (e.ASN != "" || e.Country != "") && sameUser(e.User, fe.User) && e.SourceIP == fe.SourceIP {
				view["sessionNetwork"] = map[string]any{"asn": e.ASN, "isp": e.ISP, "country": e.Country, "city": e.City}
				break
			}
		}
	}
	// The provider's reasons for flagging the session (Tor, a changed
	// fingerprint) may likewise sit on an earlier event of the same user
	// and address, while the focus carries only what the session went on
	// to do.
	if reasons := earlierSessionReasons(events, focus); len(reasons) > 0 {
		view["sessionRisk"] = map[string]any{"reasons": reasons}
	}
	// Likewise the second factor: Okta records it on the session start,
	// and the single sign-on that follows is what the chain focuses on.
	if !focusDoc.has("factorresult") {
		for i := focus - 1; i >= 0; i-- {
			e := events[i]
			if r := e.doc.str("factorresult"); r != "" && sameUser(e.fields.User, fe.User) && e.fields.SourceIP == fe.SourceIP {
				view["sessionFactor"] = map[string]any{"factor": e.doc.str("factor"), "factorResult": r}
				break
			}
		}
	}
	if ctx := withoutList(raw, holder); len(ctx) > 0 {
		view["chainContext"] = ctx
	}
	return view
}

// tamperingSession moves the focus from a sign-in that came after the
// chain's last account change (a recovery detail replaced, a second factor
// switched off) to the successful sign-in that made it: the last one
// before the change, of the same user and, where both state one, from the
// same address. The owner signing in again afterwards is not the session
// to judge.
func tamperingSession(events []chainEvent, focus int) int {
	t := -1
	for i := len(events) - 1; i > 0; i-- {
		if e := events[i].fields; e.AccountTamper && !replacedFactor(events, i) {
			t = i
			break
		}
	}
	if t < 0 || focus <= t {
		return focus
	}
	te := events[t].fields
	for j := t - 1; j >= 0; j-- {
		e := events[j].fields
		if e.Result == "success" && signInEvent(e) && sameUser(e.User, te.User) && sameAddress(e.SourceIP, te.SourceIP) {
			return j
		}
	}
	return focus
}

// chainSummary is what the events around the focus add up to.
type chainSummary struct {
	failures int    // wrong passwords for the focus user before it
	users    int    // distinct accounts that failed from the focus's address
	denied   int    // second-factor prompts refused before it
	pushes   int    // second-factor prompts sent before it
	tamper   string // the account change made at or after it, if any
	grant    string // the privilege grant made after it, if any
	// enrolled is a second factor the same user enrolled from the same
	// address, before or after it: the session keeping the account.
	enrolled string
	// deniedElsewhere is the address of a refused second factor from
	// another address than the focus's: the password was right there.
	deniedElsewhere string
}

func summarizeChain(events []chainEvent, focus int) chainSummary {
	var s chainSummary
	fe := events[focus].fields
	failedUsers := map[string]bool{}
	sent := 0
	for i, ev := range events {
		e := ev.fields
		if i != focus && factorEnrolment(e.Event) && e.Result == "success" && sameUser(e.User, fe.User) && sameAddress(e.SourceIP, fe.SourceIP) {
			s.enrolled = e.Event
		}
		if i > focus {
			if e.AccountTamper && sameUser(e.User, fe.User) && !replacedFactor(events, i) {
				s.tamper = e.Event
			}
			if e.PrivilegeGrant && sameUser(e.User, fe.User) {
				s.grant = e.Event
			}
			continue
		}
		if strings.Contains(normKey(e.Event), "push") && strings.Contains(normKey(e.Event), "send") {
			sent++
		}
		if i == focus || e.Result != "failure" {
			continue
		}
		switch {
		case secondFactorRefused(ev):
			if sameUser(e.User, fe.User) {
				s.denied++
				if e.SourceIP != "" && fe.SourceIP != "" && e.SourceIP != fe.SourceIP {
					s.deniedElsewhere = e.SourceIP
				}
			}
		default:
			if sameUser(e.User, fe.User) {
				s.failures++
			}
			if fe.SourceIP == "" || sameNetwork(e.SourceIP, fe.SourceIP) {
				failedUsers[strings.ToLower(e.User)] = true
			}
		}
	}
	if fe.AccountTamper && !replacedFactor(events, focus) {
		s.tamper = fe.Event
	}
	if fe.Result != "success" {
		failedUsers[strings.ToLower(fe.User)] = true
	}
	s.users = len(failedUsers)
	s.pushes = max(sent, s.denied)
	if s.denied > 0 && fe.Result == "success" {
		s.pushes = max(s.pushes, s.denied+1)
	}
	return s
}

// secondFactorRefused tells a failure at the second factor (a prompt
// declined, ignored or reported) from a wrong password: the first means
// the password was right.
func secondFactorRefused(ev chainEvent) bool {
	if ev.fields.MFA == "denied" || ev.fields.MFA == "fraud" {
		return true
	}
	why := normKey(lowerJoin(ev.doc.strs("reason", "result", "factor", "failurereason", "authenticationstepresultdetail", "factorresult", "status", "method", "details")))
	if ev.doc.has("tunneltype") {
		// A VPN gateway denies the login itself
		// ("sslvpn_login_permission_denied"); only its token step is a
		// second factor.
		return containsAnyTerm(why, "token", "2fa", "mfa", "twofactor")
	}
	return containsAnyTerm(why, "declined", "rejected", "denied", "noresponse", "push", "strongauthentication", "mfa", "factor")
}

// replacedFactor reports that a factor removal at index i of events is the
// second half of the user swapping devices: the same user enrolled a new
// factor just before it, from the same address, in a chain without refused
// prompts. Removing the old phone after adding the new one is routine.
func replacedFactor(events []chainEvent, i int) bool {
	if i >= len(events) {
		return false
	}
	removal := events[i].fields
	if !strings.Contains(normKey(removal.Event), "deactivate") && !strings.Contains(normKey(removal.Event), "remove") {
		return false
	}
	for j := 0; j < i; j++ {
		e := events[j].fields
		if e.MFA == "denied" || e.MFA == "fraud" {
			return false
		}
		ev := normKey(e.Event)
		if (strings.Contains(ev, "factoractivate") || strings.Contains(ev, "enroll") || strings.Contains(ev, "registersecurityinfo")) &&
			e.Result == "success" && sameUser(e.User, removal.User) && e.SourceIP != "" && e.SourceIP == removal.SourceIP {
			return true
		}
	}
	return false
}

// signInEvent tells a sign-in from the prompts and changes around it: a
// push sent or a factor enrolled "succeeds" without anyone signing in.
func signInEvent(f IdentityFields) bool {
	ev := normKey(f.Event)
	for _, not := range []string{"push", "factoractivate", "factordeactivate", "mfafactor", "enroll", "updatepassword", "resetpassword", "passwordreset", "resetall"} {
		if strings.Contains(ev, not) {
			return false
		}
	}
	return true
}

// factorEnrolment reports whether an event name is a second factor being
// enrolled: Okta factor activation, Entra "User registered security
// info", Google 2SV enrolment, an MFA device paired.
func factorEnrolment(event string) bool {
	return containsAnyTerm(normKey(event), "factoractivate", "factorenroll", "2svenroll", "registeredsecurityinfo", "registersecurityinfo", "mfaregist", "mfadeviceregist")
}

// sameAddress is sameUser for addresses: unstated matches anything.
func sameAddress(a, b string) bool {
	return a == "" || b == "" || a == b
}

// sameNetwork reports two addresses of one source: equal, or in the same
// IPv4 /24 or IPv6 /64, the block a spraying tool rotates its addresses
// through.
func sameNetwork(a, b string) bool {
	if a == b {
		return true
	}
	x, errX := netip.ParseAddr(a)
	y, errY := netip.ParseAddr(b)
	if errX != nil || errY != nil || x.Is4() != y.Is4() {
		return false
	}
	bits := 64
	if x.Is4() {
		bits = 24
	}
	px, _ := x.Prefix(bits)
	return px.Contains(y)
}

func sameUser(a, b string) bool {
	return a == "" || b == "" || strings.EqualFold(a, b)
}

// sortChronologically orders events by their own timestamps when every
// event has one, and keeps the list's order otherwise.
func sortChronologically(events []chainEvent) {
	times := make([]int64, len(events))
	for i, e := range events {
		t, ok := eventTime(e.doc)
		if !ok {
			return
		}
		times[i] = t.UnixNano()
	}
	idx := make([]int, len(events))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return times[idx[a]] < times[idx[b]] })
	sorted := make([]chainEvent, len(events))
	for i, j := range idx {
		sorted[i] = events[j]
	}
	copy(events, sorted)
}

// longestEventList finds the longest list of sign-in events in raw, within
// a few levels, and the map holding it (nil when raw's own value is it).
func longestEventList(raw map[string]any) (best []map[string]any, holder map[string]any) {
	type node struct {
		m     map[string]any
		depth int
	}
	queue := []node{{raw, 0}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if n.depth > 3 {
			continue
		}
		for _, k := range sortedKeys(n.m) {
			switch v := n.m[k].(type) {
			case map[string]any:
				queue = append(queue, node{v, n.depth + 1})
			case []any:
				if list := signInEvents(v); len(list) > len(best) {
					best, holder = list, n.m
				}
			}
		}
	}
	return best, holder
}

// signInEvents returns the list's sign-in or account events (each names
// a user and an outcome) when they are at least two and most of the list:
// a SIEM's contributing events may mix in a ticket or a note, which is
// context, not a sign-in. A provider's event the readers rewrite (see
// providerEvent) counts even alone, as an API response wraps one event
// in a list.
func signInEvents(v []any) []map[string]any {
	switch len(v) {
	case 0:
		return nil
	case 1:
		if m, ok := v[0].(map[string]any); ok {
			if ev := providerEvent(m); !sameMap(ev, m) {
				return []map[string]any{ev}
			}
		}
		return nil
	}
	out := make([]map[string]any, 0, min(len(v), maxChainEvents))
	for _, x := range v {
		m, ok := x.(map[string]any)
		if !ok {
			return nil
		}
		m = providerEvent(m)
		d := newDoc(m)
		// A VPN gateway's event carries its outcome in the action its
		// tunnel type qualifies (see vpnOutcome).
		if !d.has(userKeys...) || !d.has("errorcode", "outcome", "result", "events", "status", "success", "tunneltype") {
			continue
		}
		if len(out) < maxChainEvents {
			out = append(out, m)
		}
	}
	if len(out) < 2 || 2*len(out) < len(v) {
		return nil
	}
	return out
}

// withoutList copies raw's top level without the branch that holds the
// event list.
func withoutList(raw, holder map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range raw {
		if _, ok := v.([]any); ok && sameMap(raw, holder) {
			continue
		}
		if m, ok := v.(map[string]any); ok && holds(m, holder) {
			continue
		}
		out[k] = v
	}
	return out
}

// holds reports whether holder is m or a map nested in m.
func holds(m, holder map[string]any) bool {
	if sameMap(m, holder) {
		return true
	}
	for _, v := range m {
		if c, ok := v.(map[string]any); ok && holds(c, holder) {
			return true
		}
	}
	return false
}

// sameMap reports whether a and b are the same map, not merely equal ones.
func sameMap(a, b map[string]any) bool {
	return a != nil && b != nil && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// earlierSessionReasons collects the risk reasons of the events before
// focus that share its user and address.
func earlierSessionReasons(events []chainEvent, focus int) []any {
	fe := events[focus].fields
	if fe.SourceIP == "" {
		return nil
	}
	var out []any
	for i := 0; i < focus; i++ {
		e := events[i]
		if e.fields.SourceIP != fe.SourceIP || !sameUser(e.fields.User, fe.User) {
			continue
		}
		for _, r := range e.doc.strs(riskListKeys...) {
			out = append(out, r)
		}
	}
	return out
}
