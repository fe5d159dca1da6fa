package triage

import (
	"net/netip"
	"regexp"
	"strings"
)

// OpenSSH's daemon logs every attempt to syslog in fixed words: "Accepted
// password for deploy from 193.32.162.74 port 51234 ssh2", "Failed
// password for invalid user admin from ...". Log relays (Wazuh's full_log
// and previous_output, a SIEM's _raw or message) carry those lines as
// they are, so the line states the outcome, the method, the account and
// the address, and the lines before it the guessing that led there.

var sshdLineRe = regexp.MustCompile(`\b(Accepted|Failed) (password|publickey|keyboard-interactive/pam|keyboard-interactive|hostbased|gssapi-with-mic) for (?:invalid user )?(\S+) from ([0-9a-fA-F.:]+)`)

// sshdLogKeys hold the line the alert is about.
var sshdLogKeys = []string{"fulllog", "raw", "message", "log", "msg", "event", "eventoriginal"}

// sshdHistoryKeys hold the lines the relay saw before it.
var sshdHistoryKeys = []string{"previousoutput", "previouslogs", "previousevents", "relatedevents", "relatedlogs"}

// readSSHDLog reads an OpenSSH authentication line into the sign-in: its
// outcome, account and address, a password as the only factor, and the
// failed attempts from the same address before it.
func readSSHDLog(f *IdentityFields, d *doc) {
	var line []string
	for _, s := range d.scalarStrs(sshdLogKeys...) {
		if m := sshdLineRe.FindStringSubmatch(s); m != nil {
			line = m
			break
		}
	}
	if line == nil {
		return
	}
	outcome, method, user, addr := line[1], line[2], line[3], line[4]
	if outcome == "Accepted" {
		f.Result = "success"
	} else {
		f.Result = "failure"
	}
	if f.User == "" {
		f.User = user
	}
	if ip, err := netip.ParseAddr(addr); err == nil {
		f.SourceIP = addr
		f.InternalSource = ip.IsPrivate() || ip.IsLoopback()
	}
	if strings.HasPrefix(method, "password") || strings.HasPrefix(method, "keyboard-interactive") {
		f.SingleFactor = true
	}
	failed, users := 0, map[string]bool{}
	for _, s := range d.strs(sshdHistoryKeys...) {
		for _, m := range sshdLineRe.FindAllStringSubmatch(s, -1) {
			if m[1] == "Failed" && m[4] == addr {
				failed++
				users[m[3]] = true
			}
		}
	}
	f.FailedAttempts = max(f.FailedAttempts, failed)
	if len(users) > 1 {
		f.TargetedUsers = max(f.TargetedUsers, len(users))
	}
}
