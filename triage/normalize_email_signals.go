package triage

import (
	"regexp"
	"strings"
)

// This file reads what an e-mail alert says about the message beyond its
// headers: verdicts reached after delivery, malware named by a sandbox,
// the lures that need no link (callback numbers, extortion, payment
// reconnaissance), a forged own-domain From, and a mailbox taken over.

var (
	// malwareNameRe matches anti-virus and sandbox detection names
	// ("Trojan.Qakbot.XLSB", "W32.Trojan.GuLoader", "Trojan:Win32/Emotet").
	malwareNameRe = regexp.MustCompile(`\b(?:trojan|backdoor|ransom|worm|trojandownloader|trojanspy|trojandropper|downloader|dropper|infostealer|stealer|spyware|exploit|w32|win32|win64|msil|o97m|x97m|w97m)[.:/][a-z0-9][a-z0-9._/-]{2,}`)

	// malwareFamilies are families e-mail sandboxes commonly name; a
	// family on its own ("verdict: Qakbot") is as telling as a full
	// detection name.
	malwareFamilies = []string{
		"qakbot", "qbot", "emotet", "icedid", "guloader", "formbook", "xloader", "agenttesla", "agent tesla", "remcos",
		"asyncrat", "lummac2", "lumma stealer", "redline stealer", "raccoon stealer", "vidar stealer", "bumblebee loader", "pikabot", "darkgate", "lokibot",
		"njrat", "ursnif", "trickbot", "dridex", "netwire", "snake keylogger", "nanocore", "cobalt strike",
		"latrodectus", "strelastealer", "wikiloader", "amadey", "smokeloader",
	}

	// laterVerdictTerms mark a verdict reached after the message was
	// delivered: a retrospective sandbox result, a reclassification, a
	// purge from mailboxes already holding the message.
	laterVerdictTerms = []string{
		"retrospective verdict", "retrospective detection", "retrospective alert", "reclassification", "post-delivery", "post delivery",
		"zero-hour auto purge", "phish zap", "malware zap", "mailbox auto remediation", "post remediated", "post-remediated", "removed after delivery",
	}

	phoneRe      = regexp.MustCompile(`(?:\+\d{1,3}[\s.-]?)?(?:\(\d{3}\)|\d{3})[\s.-]\d{3}[\s.-]\d{4}\b|\+\d{1,3}[\s.-]?\d{2,4}[\s.-]\d{3,4}[\s.-]\d{3,4}\b`)
	callVerbs    = []string{"call ", "call:", "phone ", "dial ", "contact our", "reach our", "contact us", "reach us", "customer care", "helpline", "help desk", "billing desk", "billing department", "support line", "toll free", "toll-free"}
	disputeTerms = []string{"did not authorize", "didn't authorize", "did not make", "didn't make", "not authorized", "unauthorized", "to cancel", "cancel this", "cancel your", "cancellation", "refund", "dispute", "if this wasn't you", "if this was not you", "not you?"}
	billingTerms = []string{"invoice", "renewal", "renewed", "subscription", "charge", "charged", "order", "purchase", "receipt", "payment", "billing", "membership", "plan"}

	bitcoinRe       = regexp.MustCompile(`\b(?:bc1[a-z0-9]{25,60}|[13][a-z1-9]{25,34}|0x[a-f0-9]{40})\b`)
	cryptoTerms     = []string{"bitcoin", "btc", "cryptocurrency", "crypto wallet", "wallet address", "monero", "ethereum"}
	extortionThreat = []string{"hacked", "recorded you", "recorded a video", "video of you", "webcam", "your contacts", "is your password", "your password is", "malware on your", "access to your device", "access to all your", "intimate", "embarrassing", "adult website", "porn", "send it to", "expose", "publish the", "leak the", "remote access to your"}

	reconAsks    = []string{"who handles", "who is responsible for", "who is in charge of", "who manages", "who takes care of", "who processes", "contact for", "contact details for", "contact of", "email address of", "point of contact", "the right person", "who should i"}
	reconTargets = []string{"accounts payable", "accounts department", "accounting", "invoice", "payment", "payroll", "wire", "finance", "billing", "vendor", "supplier"}

	hidingRulePlaces = []string{"rss", "mark as read", "markasread", "marked as read", "mark read", "delete", "conversation history", "archive", "junk", "movetofolder", "moved to"}
	internalPhish    = []string{"internal phishing", "internal-to-internal", "internal recipients received", "sent to internal", "internal recipients", "phishing to colleagues", "internal spam"}
)

// readMessageSignals fills the fields of this file from the whole alert d
// and the message m already read.
func readMessageSignals(d *doc, m emailMessage, f *EmailFields) {
	// What the product says is read apart from what the message says: a
	// security newsletter may name Emotet or explain inbox rules.
	text := productText(d)
	f.MalwareName = malwareName(text)
	f.LaterVerdict = containsAnyTerm(text, laterVerdictTerms...)
	if v, ok := d.boolean("postremediated", "retrospective", "zapped", "postdelivery"); ok && v {
		f.LaterVerdict = true
	}
	f.ClickFixLure = clickFixLure(d.text)
	f.CallbackLure = callbackLure(d.text) || containsAnyTerm(insightText(d), "callback", "call-back", "phone number")
	f.DeviceCodeLure = deviceCodeLure(m.content + "\n" + lowerJoin(linkURLs(m)))
	f.Extortion = f.ThreatType == "extortion" || extortion(d.text)
	f.PaymentRecon = f.ThreatType == "recon" || containsAnyTerm(m.content, reconAsks...) && containsAnyTerm(m.content, reconTargets...) && len(m.links) == 0 && len(m.attachments) == 0
	f.MailboxHidingRule = containsAnyTerm(text, "inbox rule", "mail rule", "mailbox rule", "new-inboxrule", "newinboxrule", "set-inboxrule") && containsAnyTerm(text, hidingRulePlaces...)
	f.InternalPhishBurst = containsAnyTerm(text, internalPhish...)
	if f.Internal && !f.OwnTenantSender {
		f.OwnDomainSpoof = ownDomainSpoof(d, m, f)
		if f.OwnDomainSpoof {
			// Mail that only claims the organisation's domain is not
			// internal mail.
			f.Internal = false
		}
	}
}

// insightText is the gateway's own list of reasons, lowercased.
func insightText(d *doc) string {
	return lowerJoin(d.scalarStrs("summaryinsights", "insights", "reasons", "detectionreasons", "signals"))
}

func malwareName(text string) string {
	if m := malwareNameRe.FindString(text); m != "" {
		return strings.TrimRight(m, "._/-")
	}
	return firstSubstring(text, malwareFamilies)
}

// callbackLure reports a bill, renewal or order the reader did not expect
// together with a phone number to call to cancel or dispute it: callback
// phishing, which needs no link and often rides a genuine service's
// invoices.
func callbackLure(text string) bool {
	return phoneRe.MatchString(text) && containsAnyTerm(text, callVerbs...) && containsAnyTerm(text, disputeTerms...) && containsAnyTerm(text, billingTerms...)
}

// extortion reports a demand for cryptocurrency to a wallet address
// under a threat to the reader (sextortion and its kin). Text is
// lowercased, so legacy Bitcoin addresses are matched case-blind.
func extortion(text string) bool {
	return containsAnyTerm(text, cryptoTerms...) && bitcoinRe.MatchString(text) && containsAnyTerm(text, extortionThreat...)
}

// ownDomainSpoof reports mail whose From claims the organisation's own
// domain but which that domain did not vouch for: DMARC or SPF failed, or
// the gateway named it spoofing.
func ownDomainSpoof(d *doc, m emailMessage, f *EmailFields) bool {
	if f.AuthAligned {
		return false
	}
	if f.AuthFailed {
		return true
	}
	gateway := normKey(lowerJoin(d.scalarStrs("taxonomy", "reason", "reasonextra", "detectionmethods", "threattypes", "classification", "category")))
	return containsAnyTerm(gateway, "spoof", "dmarcreject", "dmarcpolicyreject", "dmarcfail")
}

// messageTextKeys hold the message's own words rather than the product's.
var messageTextKeys = setOf(append([]string{"bodysnippet", "messagebodysnippet", "subjecttext", "snippet", "preview"}, contentKeys...)...)

// productText is the lowercased text of the alert without the message's
// own subject and body: the product's verdicts, reasons and logs.
func productText(d *doc) string {
	var b strings.Builder
	for _, e := range d.entries {
		if messageTextKeys[e.key] {
			continue
		}
		switch v := e.val.(type) {
		case string:
			b.WriteString(strings.ToLower(v))
			b.WriteByte('\n')
		case []any:
			for _, x := range v {
				if s, ok := x.(string); ok {
					b.WriteString(strings.ToLower(s))
					b.WriteByte('\n')
				}
			}
		}
		if b.Len() > maxDocText {
			break
		}
	}
	return b.String()
}

// deviceCodePages are the pages where a user types a code to sign in a
// device on someone's behalf (OAuth device authorization): Microsoft's,
// Google's, GitHub's, AWS IAM Identity Center's.
var deviceCodePages = regexp.MustCompile(`(?i)(microsoft\.com/devicelogin|aka\.ms/devicelogin|login\.microsoftonline\.com/[^\s"]*/?(oauth2/)?deviceauth|login\.microsoft\.com/device|google\.com/device\b|github\.com/login/device|\.awsapps\.com/start/#/device|device\.sso\.[a-z0-9-]+\.amazonaws\.com)`)

// deviceCodeLure reports a message that sends its reader to a device-code
// sign-in page: whoever started the device sign-in holds the code, so the
// reader who enters it signs the sender's device in.
func deviceCodeLure(text string) bool {
	return deviceCodePages.MatchString(text)
}

// linkURLs lists the message's link targets.
func linkURLs(m emailMessage) []string {
	out := make([]string, 0, len(m.links))
	for _, l := range m.links {
		out = append(out, l.url)
	}
	return out
}

// runDialogRe and pasteRe find ClickFix's instructions: open the Run
// dialog with the Windows key and R, paste what the page put on the
// clipboard, press Enter.
var (
	runDialogRe = regexp.MustCompile(`\b(win(dows)?(\s+key)?|⊞)\s*\+\s*r\b|\bwindows\s+key\s+and\s+(the\s+)?(letter\s+)?r\b|\brun\s+dialog`)
	pasteRe     = regexp.MustCompile(`\bpaste\b|\bctrl\s*\+\s*v\b`)
)

// clickFixLure reports ClickFix's instructions in lower-case text.
func clickFixLure(text string) bool {
	return runDialogRe.MatchString(text) && pasteRe.MatchString(text)
}
