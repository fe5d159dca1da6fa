package triage

import (
	"regexp"
	"strings"
)

// Organisations collect reported phish in a shared mailbox (phishreport@,
// report-phish@, phishing-report@, abuse@) that the security team works
// from, and analysts open the reported links there or in a sandbox
// mailbox (soc-analysis@). A gateway alert about mail in that mailbox, or
// a click from it, is the reporting process at work.

// reportMailboxRe is the local part of such a mailbox.
var reportMailboxRe = regexp.MustCompile(`^(?:[a-z0-9]+[._-])?(?:phish(?:ing)?[._-]?(?:report|reports|reporting|analysis|triage|submissions?)|report[._-]?(?:a[._-]?)?phish(?:ing)?|abuse|soc[._-]?analysis|secops[._-]?analysis)$`)

// reportMailboxKeys hold the mailbox the alert's mail sits in or the
// account that clicked.
var reportMailboxKeys = append([]string{"accountupn", "useremailaddress", "clickedby"}, recipientKeys...)

// reportMailbox returns the recipient or clicking account that is a
// phishing-report or abuse mailbox, or "".
func reportMailbox(d *doc) string {
	for _, s := range d.scalarStrs(reportMailboxKeys...) {
		for _, match := range emailRe.FindAllString(strings.ToLower(s), 5) {
			if addr, _, ok := cleanEmail(match); ok && reportMailboxRe.MatchString(addr[:strings.LastIndexByte(addr, '@')]) {
				return addr
			}
		}
	}
	return ""
}
