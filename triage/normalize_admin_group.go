package triage

import "regexp"

// Windows records a member added to a security group as event 4728 (a
// global group), 4732 (a domain-local or local one) or 4756 (a universal
// one), with the message "A member was added to a security-enabled ...
// group". Which group decides what the new member holds: Domain Admins,
// Enterprise Admins and Schema Admins hold the whole directory. So does
// Administrators on a domain controller, but the same name on a member
// server or workstation is a local group, so only the three are read.

var (
	groupMemberAddedCodes = setOf("4728", "4732", "4756")
	groupMemberAddedRe    = regexp.MustCompile(`a member was added to a security-enabled (global|local|universal) group|added to (the )?(domain|enterprise|schema) admins`)
	directoryAdminGroupRe = regexp.MustCompile(`\b(domain admins|enterprise admins|schema admins)\b`)
)

// directoryAdminGroupAdd names the directory-wide administrators group an
// account was added to, or "" when the payload records no such addition.
func directoryAdminGroupAdd(d *doc) string {
	code := windowsEventCode(d)
	if !groupMemberAddedCodes[code] && !groupMemberAddedRe.MatchString(d.text) {
		return ""
	}
	return directoryAdminGroupRe.FindString(d.text)
}
