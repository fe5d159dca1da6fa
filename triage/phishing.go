package triage

import (
	"fmt"
	"net/netip"
	"path"
	"slices"
	"strings"
)

// Evidence groups the phishing analyzer's own signals share with verdict
// rules that read the same fact (see Rule.Group).
const (
	groupLookalikeSender = "lookalike_sender"
	groupAuthFailed      = "auth_failed"
)

// phishingThresholds: see malwareThresholds for how the malicious bar
// was set.
var phishingThresholds = thresholds{malicious: 0.75, suspicious: 0.25, benign: -0.25, maxPositiveForBenign: 0.30}

// credentialKeywords in a link's path or query are typical of pages that
// harvest credentials.
var credentialKeywords = []string{
	"login", "log-in", "signin", "sign-in", "logon", "verify", "verification", "validate",
	"account", "password", "passwd", "credential", "update", "unlock", "webscr", "secure",
}

var urgencyPhrases = []string{
	"urgent", "immediately", "immediate action", "action required", "suspended", "suspension",
	"verify your account", "confirm your account", "password expires", "password will expire",
	"password has expired", "account will be closed", "account will be disabled", "within 24 hours",
	"within 48 hours", "final notice", "last warning", "unusual activity", "unusual sign-in",
	"account locked", "has been locked", "deactivated",
}

var urlShorteners = setOf(
	"bit.ly", "tinyurl.com", "t.co", "goo.gl", "ow.ly", "is.gd", "buff.ly", "rebrand.ly",
	"cutt.ly", "shorturl.at", "rb.gy", "t.ly", "tiny.cc", "s.id", "bl.ink",
)

// internalRoles are display names attackers use to pose as colleagues.
var internalRoles = []string{
	"it support", "it helpdesk", "helpdesk", "help desk", "service desk", "it department",
	"it team", "administrator", "security team", "payroll", "human resources", "hr department", "ceo",
}

// riskyExtensions rarely arrive by mail for legitimate reasons but are the
// usual first stage of malware or HTML credential phishing.
var riskyExtensions = setOf(
	"html", "htm", "shtml", "xhtml", "svg", "iso", "img", "vhd", "vhdx", "exe", "scr", "pif",
	"js", "jse", "vbs", "vbe", "wsf", "hta", "lnk", "msi", "bat", "cmd", "ps1", "jar",
	"docm", "xlsm", "xlsb", "pptm", "dotm", "xlam", "one", "cab",
)

var archiveExtensions = setOf("zip", "rar", "7z", "gz", "ace", "tar")

var documentExtensions = setOf("pdf", "doc", "docx", "xls", "xlsx", "txt", "jpg", "jpeg", "png", "rtf")

// linkFindings records the first link that triggered each signal.
type linkFindings struct {
	credential, credentialWhy string
	rawIP, shortener          string
	mismatchURL, mismatchText string
	lookalikeURL              string
	lookalike                 lookalike
}

// analyzePhishing scores a message; f carries the normalized fields, which
// fill in the sender where this reader does not know the vendor's keys.
func analyzePhishing(ind Indicators, d *doc, f EmailFields) Analysis {
	m := readEmail(d, ind)
	if m.senderDomain == "" && f.SenderDomain != "" {
		m.sender, m.senderDomain = strings.ToLower(f.Sender), strings.ToLower(f.SenderDomain)
		if m.displayName == "" {
			m.displayName = f.DisplayName
		}
		if m.replyToDomain == "" {
			m.replyToDomain = f.ReplyToDomain
		}
	}
	ev := &evidence{label: "Phishing"}

	lookalikeSender := false
	if m.senderDomain != "" {
		if l, ok := brandLookalike(m.senderDomain); ok {
			ev.addGrouped(groupLookalikeSender, 0.40, "sender domain %s imitates %s: it %s", m.senderDomain, l.target, l.how)
			lookalikeSender = true
		} else if l, ok := orgLookalike(m.senderDomain, m.orgDomains); ok && l.tenant && authAligned(m.auth) {
			ev.add(0.10, "sender domain %s carries the organisation's name as a tenant of another service, which authenticated it", m.senderDomain)
		} else if ok {
			ev.addGrouped(groupLookalikeSender, 0.40, "sender domain %s imitates the recipient organisation %s: it %s", m.senderDomain, l.target, l.how)
			lookalikeSender = true
		}
	}

	impersonation := false
	if f.DisplayNameBrand != "" {
		ev.add(0.20, "display name %q claims to be %s but the mail comes from %s", truncate(m.displayName, 60), f.DisplayNameBrand, m.senderDomain)
		impersonation = true
	}
	if role := matchedTerms(strings.ToLower(m.displayName), internalRoles); len(role) > 0 && len(m.orgDomains) > 0 && m.senderDomain != "" && !m.internal {
		ev.add(0.15, "display name %q poses as internal %s but the sender %s is external", truncate(m.displayName, 60), role[0], m.senderDomain)
		impersonation = true
	}

	freeMail := freeMailDomains[registrableDomain(m.senderDomain)]
	authPassed, authFailed := scoreAuth(ev, m.auth, lookalikeSender || freeMail)

	lf := assessLinks(m, lookalikeSender, authPassed)
	if lf.credential != "" {
		ev.add(0.30, "link %s looks like a credential-harvesting page (%s)", truncate(lf.credential, 100), lf.credentialWhy)
	}
	if lookalikeSender && lf.credential != "" {
		ev.add(0.15, "a look-alike sender combined with a credential link is the classic credential-phishing pattern")
	}
	if lf.lookalikeURL != "" {
		ev.add(0.30, "link %s points to a domain imitating %s", truncate(lf.lookalikeURL, 100), lf.lookalike.target)
	}
	if lf.rawIP != "" {
		ev.add(0.20, "link %s uses a raw IP address instead of a domain", truncate(lf.rawIP, 100))
	}
	if lf.shortener != "" {
		ev.add(0.10, "link %s uses a URL shortener that hides the destination", truncate(lf.shortener, 100))
	}
	if lf.mismatchURL != "" {
		ev.add(0.20, "link text %q does not match its real destination %s", truncate(lf.mismatchText, 60), truncate(lf.mismatchURL, 100))
	}

	if phrases := matchedTerms(m.content, urgencyPhrases); len(phrases) > 0 {
		if len(phrases) > 3 {
			phrases = phrases[:3]
		}
		ev.add(0.15, "subject or body uses pressure language (%s)", quoteList(phrases))
	}
	replyDiverted := repliesDiverted(m, replyToKnown(d))
	if replyDiverted {
		ev.add(0.15, "reply-to domain %s differs from sender domain %s, diverting replies", m.replyToDomain, m.senderDomain)
	}
	riskyAttachment := scoreAttachments(ev, m)

	// Benign context. Bulk-mail credit is withheld when authentication fails
	// (marketing headers are trivial to forge), for look-alike senders and
	// when a credential link is present: phishers rent mailing platforms too.
	bulkCredit := !authFailed && !lookalikeSender && lf.credential == ""
	if m.platform != "" && bulkCredit {
		ev.add(-0.20, "sent through the bulk-mail platform %s", m.platform)
	}
	if m.listUnsubscribe && bulkCredit {
		ev.add(-0.10, "carries a List-Unsubscribe header, typical of legitimate newsletters")
	}
	if b, ok := ownerBrand(m.senderDomain); ok && m.senderDomain != "" && authPassed && !freeMail {
		ev.add(-0.10, "sender domain %s belongs to %s and passed authentication", m.senderDomain, b.name)
	}

	class := phishingThresholds.classify(ev)
	category := "phishing"
	switch {
	case class == ClassBenign && bulkCredit && (m.platform != "" || m.listUnsubscribe):
		category = "newsletter"
	case class == ClassBenign:
		category = "legitimate_email"
	case class == ClassUnknown:
		// Too little evidence to name a technique.
	case lf.credential != "" || lf.lookalikeURL != "":
		category = "credential_phishing"
	case riskyAttachment:
		category = "malware_delivery"
	case impersonation || lookalikeSender || replyDiverted:
		category = "impersonation"
	}
	var recommended []string
	switch class {
	case ClassMalicious:
		recommended = []string{ActionQuarantineEmail, ActionBlockSender, ActionNotifyUser, ActionCreateTicket}
	case ClassSuspicious:
		recommended = []string{ActionQuarantineEmail, ActionCreateTicket}
	case ClassUnknown:
		recommended = []string{ActionCreateTicket}
	}
	return buildAnalysis(ev, class, category, recommended)
}

// scoreAuth adds SPF/DKIM/DMARC evidence. Passing authentication on a
// look-alike or free-mail domain earns no credit (noCredit): it only proves
// the sender controls that mailbox, not that they are who they claim to be.
func scoreAuth(ev *evidence, auth map[string]string, noCredit bool) (passed, failed bool) {
	weights := map[string]float64{"spf": 0.10, "dkim": 0.10, "dmarc": 0.20}
	var failWeight float64
	var fails, passes []string
	for _, mech := range authMechs {
		switch auth[mech] {
		case "fail":
			failWeight += weights[mech]
			fails = append(fails, mech+"=fail")
		case "softfail":
			failWeight += 0.05
			fails = append(fails, mech+"=softfail")
		case "pass":
			passes = append(passes, mech+"=pass")
		}
	}
	if failWeight > 0 {
		ev.addGrouped(groupAuthFailed, min(failWeight, 0.30), "sender authentication failed (%s)", strings.Join(fails, ", "))
		return false, true
	}
	if len(passes) == 0 || noCredit {
		return len(passes) > 0, false
	}
	w := -0.05
	if len(passes) >= 2 {
		w = -0.15
	}
	ev.add(w, "sender authentication passed (%s)", strings.Join(passes, ", "))
	return true, false
}

// assessLinks inspects every link once. Links on a brand's own domain or a
// bulk-mail platform are exempt from the credential-keyword rule (they are
// real login or preference pages), as are links to the sender's own,
// authenticated, non-look-alike domain: a genuine service mail saying
// "sign in to your account" should not look like phishing. Links on the
// recipients' own domain or their tenant on a tenant platform are exempt
// too.
func assessLinks(m emailMessage, lookalikeSender, authPassed bool) linkFindings {
	var lf linkFindings
	senderReg := registrableDomain(m.senderDomain)
	for _, l := range m.links {
		u, host, ok := linkHost(l.url)
		if !ok {
			continue
		}
		reg := registrableDomain(host)
		_, branded := ownerBrand(host)
		trusted := branded || bulkMailDomains[reg] != ""
		own := m.senderDomain != "" && reg == senderReg && !lookalikeSender && authPassed
		// The recipients' own domain serves their own sign-in pages; a
		// harvesting page cannot be hosted there without a breach of its own.
		orgOwn := slices.Contains(m.orgDomains, reg) || m.internal && reg == senderReg || orgTenantOnPlatform(host, m.orgDomains) || orgTenantInPath(host, u.Path, m.orgDomains)
		addr, ipErr := netip.ParseAddr(host)
		isIP := ipErr == nil && addr.IsValid()
		if isIP && lf.rawIP == "" {
			lf.rawIP = l.url
		}
		if urlShorteners[host] && lf.shortener == "" {
			lf.shortener = l.url
		}
		if lf.credential == "" && !trusted && !own && !orgOwn {
			// Paths glue words together (/myaccount, /verifylogin.php), so a
			// plain substring test is used here rather than word matching.
			target := strings.ToLower(u.EscapedPath() + "?" + u.RawQuery)
			if kw := firstSubstring(target, credentialKeywords); kw != "" {
				lf.credential, lf.credentialWhy = l.url, fmt.Sprintf("path or query contains %q", kw)
			} else if kw := matchedTerms(strings.ToLower(l.display), credentialKeywords); len(kw) > 0 && l.display != "" {
				lf.credential, lf.credentialWhy = l.url, fmt.Sprintf("link text mentions %q", kw[0])
			}
		}
		// A link merely containing a brand name is common in legitimate
		// mail, so it only counts when disguised or when the same link is a
		// credential page.
		if lf.lookalikeURL == "" && !isIP && reg != senderReg {
			la, ok := brandLookalike(host)
			if !ok {
				la, ok = orgLookalike(host, m.orgDomains)
			}
			if ok && (la.disguised || lf.credential == l.url) {
				lf.lookalikeURL, lf.lookalike = l.url, la
			}
		}
		if lf.mismatchURL == "" && l.display != "" && !trusted {
			if shown := displayedHost(l.display); shown != "" && registrableDomain(shown) != reg {
				lf.mismatchURL, lf.mismatchText = l.url, l.display
			}
		}
	}
	return lf
}

// displayedHost returns the host a link's visible text claims to lead to.
func displayedHost(text string) string {
	if m := urlRe.FindString(text); m != "" {
		if _, host, ok := linkHost(trimURL(m)); ok {
			return host
		}
	}
	shown := ""
	forEachBareDomain(text, func(d string) bool {
		shown = d
		return false
	})
	return shown
}

// displayBrand finds a brand named in a sender display name. Spaces are
// removed first so "Wells Fargo" and "Office 365" match their aliases.
func displayBrand(display string) (brand, bool) {
	if display == "" {
		return brand{}, false
	}
	lower := strings.ToLower(display)
	compact := compactName(lower)
	for _, b := range brands {
		phrases := b.display
		if phrases == nil {
			phrases = b.aliases
		}
		for _, p := range phrases {
			if containsTerm(lower, p) || len(compactName(p)) >= 6 && strings.Contains(compact, compactName(p)) {
				return b, true
			}
		}
	}
	return brand{}, false
}

func compactName(s string) string {
	return strings.NewReplacer(" ", "", "-", "", ".", "", "_", "").Replace(s)
}

func scoreAttachments(ev *evidence, m emailMessage) bool {
	passwordHint := containsTerm(m.content, "password") || containsTerm(m.content, "pwd") || containsTerm(m.content, "passcode")
	fired := false
	for _, a := range m.attachments {
		ext := strings.TrimPrefix(path.Ext(a.name), ".")
		inner := strings.TrimPrefix(path.Ext(strings.TrimSuffix(a.name, "."+ext)), ".")
		switch {
		case riskyExtensions[ext] && documentExtensions[inner]:
			ev.add(0.40, "attachment %q hides a .%s file behind a .%s double extension", truncate(a.name, 80), ext, inner)
		case riskyExtensions[ext]:
			ev.add(0.30, "attachment %q has a high-risk file type (.%s)", truncate(a.name, 80), ext)
		case archiveExtensions[ext] && (a.encrypted || passwordHint):
			ev.add(0.30, "attachment %q is a password-protected archive, which evades content scanning", truncate(a.name, 80))
		default:
			continue
		}
		// One attachment signal is enough; more would double count a single lure.
		fired = true
		break
	}
	return fired
}

func quoteList(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// firstMarker returns the name paired with the first marker found in text,
// or "": markers pair a substring with what it names.
func firstMarker(text string, markers [][2]string) string {
	for _, m := range markers {
		if strings.Contains(text, m[0]) {
			return m[1]
		}
	}
	return ""
}

func firstSubstring(text string, terms []string) string {
	for _, t := range terms {
		if strings.Contains(text, t) {
			return t
		}
	}
	return ""
}

// authAligned reports DMARC passing with SPF or DKIM, or a composite
// authentication pass: the sending domain vouched for the message.
func authAligned(auth map[string]string) bool {
	return auth["dmarc"] == "pass" && (auth["spf"] == "pass" || auth["dkim"] == "pass") || auth["compauth"] == "pass"
}
