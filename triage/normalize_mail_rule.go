package triage

import (
	"regexp"
	"strings"
)

// A mailbox rule is where a business e-mail compromise settles in: the
// intruder hides replies about invoices and payments from the owner, or
// forwards them out, under a name nobody will notice (".", ".."). Microsoft
// 365's audit log (New-InboxRule, Set-InboxRule, Set-Mailbox forwarding),
// Entra ID's suspicious inbox forwarding detection, Defender alerts and
// the SIEMs that carry them all report the rule's name, conditions and
// actions, in parameters or in a line of text.

// MailRuleFields describe a mailbox rule or forwarding setting the alert
// reports.
type MailRuleFields struct {
	// Present is set when the alert is about a mailbox rule or forwarding.
	Present bool `expr:"present" json:"present,omitempty"`
	// Name is the rule's name ("" when not reported).
	Name string `expr:"name" json:"name,omitempty"`
	// ObscureName is set for a name made to go unnoticed: punctuation
	// only, or one or two characters.
	ObscureName bool `expr:"obscure_name" json:"obscure_name,omitempty"`
	// Known is set when the rule's actions were read.
	Known bool `expr:"known" json:"known,omitempty"`
	// Hides is set when the rule deletes mail or moves it where its owner
	// does not look (RSS feeds, conversation history, deleted items, junk).
	Hides bool `expr:"hides" json:"hides,omitempty"`
	// Financial is set when its conditions pick mail about invoices,
	// payments, bank details or payroll.
	Financial bool `expr:"financial" json:"financial,omitempty"`
	// ForwardsTo is the first address mail is forwarded or redirected to.
	ForwardsTo string `expr:"forwards_to" json:"forwards_to,omitempty"`
	// ForwardsExternal is set when that address is outside the mailbox
	// owner's domain (or a consumer mailbox when the owner is unknown).
	ForwardsExternal bool `expr:"forwards_external" json:"forwards_external,omitempty"`
}

var (
	// hidingAction is a move to a folder the owner does not read, or a
	// deletion.
	hidingAction = regexp.MustCompile(`movetofolder\W*(rss|conversation history|deleted items|junk|notes\b)|(softdelete|delete)message\W*(\$?true|1)\b|permanentdelete\W*(\$?true|1)\b`)
	// financialWords are what a payment-diversion rule looks for.
	financialWords = regexp.MustCompile(`invoice|payment|\bwire\b|remittance|\biban\b|\bbank|\bach\b|\bswift\b|payroll|direct deposit|\bw-?2\b|escrow|purchase order`)
	forwardTarget  = regexp.MustCompile(`(forwardto|redirectto|forwardasattachmentto|forwardingsmtpaddress|forwardingaddress)\W*(smtp:)?([a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,})`)
	cmdletRuleName = regexp.MustCompile(`-name\s+("[^"]*"|'[^']*'|\S+)`)
)

// mailRuleMarkers name the alert's subject in the payload's text with
// everything but letters and digits dropped (see doc.compactText); plain
// substrings, since every alert is checked.
var mailRuleMarkers = []string{"inboxrule", "mailboxrule", "forwardingrule", "inboxforwarding", "inboxmanipulation",
	"emailforwarding", "mailforwarding", "forwardingsmtpaddress", "forwardingaddress", "deliverforwarding"}

// mailRuleKeys hold a rule's name, conditions and actions, as parameters
// or as text.
var mailRuleKeys = []string{
	"movetofolder", "copytofolder", "forwardto", "redirectto", "forwardasattachmentto", "forwardingsmtpaddress",
	"forwardingaddress", "delivertomailboxandforward", "deletemessage", "softdeletemessage", "permanentdelete",
	"markasread", "subjectcontainswords", "subjectorbodycontainswords", "bodycontainswords", "mailboxruleactions", "mailboxruleconditions", "ruleparameters", "ruleactions",
	"ruleconditions", "inboxruleactions", "inboxruleconditions",
}

// readMailRule reads the mailbox rule or forwarding an alert reports.
func readMailRule(d *doc) MailRuleFields {
	if firstSubstring(d.compactText(), mailRuleMarkers) == "" {
		return MailRuleFields{}
	}
	f := MailRuleFields{Present: true}
	var lines []string
	for _, key := range mailRuleKeys {
		for _, v := range d.scalarStrs(key) {
			lines = append(lines, key+": "+strings.ToLower(strings.TrimSpace(v)))
		}
	}
	text := strings.Join(lines, "\n")
	f.Known = len(lines) > 0
	f.Name = mailRuleName(d, text)
	f.ObscureName = obscureRuleName(f.Name)
	for _, line := range lines {
		f.Hides = f.Hides || hidingAction.MatchString(line)
	}
	f.Financial = financialWords.MatchString(text)
	if m := forwardTarget.FindStringSubmatch(text); m != nil {
		f.ForwardsTo = m[3]
		f.ForwardsExternal = forwardsOutside(d, m[3])
	}
	return f
}

// divertsMail reports a rule that hides mail from its owner or sends it
// out of the organisation.
func (m MailRuleFields) divertsMail() bool {
	return m.Hides || m.ForwardsExternal
}

// harmless reports a rule whose actions were read and do neither: a user
// filing their own mail.
func (m MailRuleFields) harmless() bool {
	return m.Present && m.Known && !m.divertsMail()
}

// mailRuleName is the rule's name: a named field; the tail of the audit
// log's object ("contoso.com/j.doe\\.") or of the Identity parameter; the
// -Name of a cmdlet line; or the audit log's Name parameter.
func mailRuleName(d *doc, text string) string {
	if n := d.scalarStr("mailboxrulename", "inboxrulename", "rulename"); n != "" {
		return n
	}
	for _, id := range d.scalarStrs("objectid", "officeobjectid", "identity") {
		if i := strings.LastIndexByte(id, '\\'); i >= 0 && i < len(id)-1 {
			return id[i+1:]
		}
	}
	if m := cmdletRuleName.FindStringSubmatch(text); m != nil {
		return strings.Trim(m[1], `"'`)
	}
	// Walking {"Name": "Name", "Value": "."} records both the pair's own
	// "Name" fields (the parameters' names) and the Name parameter's
	// value under one key; the value is the one that names no parameter.
	for _, e := range d.entries {
		s, ok := e.val.(string)
		if ok && e.key == "name" && strings.HasSuffix(e.scope, "parameters.name") && !auditParameterNames[normKey(s)] {
			return s
		}
	}
	return ""
}

// auditParameterNames are the parameters an inbox-rule cmdlet takes besides
// the rule's actions and conditions.
var auditParameterNames = setOf(append([]string{"name", "identity", "force", "alwaysdeleteoutputs", "stopprocessingrules",
	"from", "sentto", "enabled", "priority", "mailbox", "confirm"}, mailRuleKeys...)...)

// obscureRuleName reports a name made to go unnoticed.
func obscureRuleName(name string) bool {
	name = strings.TrimSpace(name)
	if name == "" {
		return false
	}
	if len([]rune(name)) <= 2 {
		return true
	}
	return strings.IndexFunc(name, func(r rune) bool {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 127
	}) < 0
}

// forwardsOutside reports whether addr is outside the mailbox owner's
// organisation (see forwardingDestinations), or, with no owner in the
// payload, a consumer mailbox.
func forwardsOutside(d *doc, addr string) bool {
	outside, _, _, known := forwardingDestinations(d, []string{addr})
	if !known {
		return freeMailDomains[registrableDomain(emailDomain(addr))]
	}
	return outside > 0
}
