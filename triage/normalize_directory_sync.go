package triage

import (
	"regexp"
	"slices"
	"strings"
)

// Entra Connect (formerly Azure AD Connect) synchronises password hashes
// to the cloud by replicating them from a domain controller under its own
// connector account, MSOL_<installation id>, from its own server. Identity
// detectors report that as a DCSync until they learn the server, which is
// why Microsoft's guidance on the alert is to check for exactly this.

var (
	// syncConnectorAccount is the connector account Entra Connect creates,
	// by name or by the description it gives the account.
	syncConnectorAccount = regexp.MustCompile(`\bmsol_[0-9a-f]{6,}\b|on-premises directory synchronization service account|account created by microsoft azure active directory connect`)
	// syncServer is the synchronisation service's process, its install
	// folder, or a server named for the role (AZADCONNECT01, ENTRACON-02,
	// nw-aadc02). "aadc" is all hex digits, so it must open a name or a
	// part of one after a hyphen, not sit inside an identifier.
	syncServer = regexp.MustCompile(`\bmiiserver\.exe\b|microsoft azure ad sync\b|adconnect|ad-connect|entracon|aad-?sync|(^|[^a-z0-9])([a-z0-9]+-)*aadc`)
	// replicationAlert is a detection of directory replication by its
	// wording.
	replicationAlert = regexp.MustCompile(`dcsync|replicat|getncchanges|drsuapi`)
	// krbtgtRequested is the forging key asked for; password-hash sync
	// never needs it.
	krbtgtRequested = regexp.MustCompile(`\bkrbtgt\b`)
	krbtgtDenied    = regexp.MustCompile(`\bkrbtgt\b[^.;,]{0,20}\bnot\b|\bno(t)? [a-z ]{0,20}\bkrbtgt\b`)
)

// directorySyncReplication reports a replication alert (by a's title,
// description or technique) that is Entra Connect's own password-hash
// sync: the payload's text names the connector account and places the
// requests on the synchronisation server, and krbtgt's secret was not
// among those asked for. The same account used from any other machine,
// or asking for krbtgt, stays an attack.
func directorySyncReplication(a AlertFields, text string) bool {
	if !replicationAlert.MatchString(a.Text) && !slices.Contains(a.Techniques, "T1003.006") {
		return false
	}
	if !syncConnectorAccount.MatchString(text) || !syncServer.MatchString(text) {
		return false
	}
	return !krbtgtRequested.MatchString(text) || krbtgtDenied.MatchString(text)
}

// replicationRightGUIDs are the control access rights a directory
// replication request exercises to read secrets: DS-Replication-Get-
// Changes-All and DS-Replication-Get-Changes-In-Filtered-Set.
var replicationRightGUIDs = []string{"1131f6ad-9c07-11d1-f79f-00c04fc2dcd2", "89e95b76-444d-4c62-991a-0facbeda640c"}

// replicationRightsUsed reports a Windows security event 4662 (an
// operation on a directory object) whose properties exercise a
// secret-reading replication right, by an account other than a domain
// controller's own machine account (NAME$): the raw event behind every
// DCSync detection, forwarded by a SIEM without a detection's name.
// directorySyncReplication still excuses Entra Connect's connector.
func replicationRightsUsed(d *doc) bool {
	if windowsEventCode(d) != "4662" || firstSubstring(d.text, replicationRightGUIDs) == "" {
		return false
	}
	account := strings.TrimSpace(d.str("subjectusername", "subjectaccount", "accountname", "username", "account"))
	return account != "" && !strings.HasSuffix(account, "$")
}

// shadowCredentialWrite returns the account that added a key credential
// to a directory object (Windows event 5136 on msDS-KeyCredentialLink),
// the Shadow Credentials technique that lets its writer authenticate as
// the object with a certificate. A computer writing its own key (NAME$)
// and Entra Connect's connector syncing Windows Hello keys do this by
// design and are not returned.
func shadowCredentialWrite(d *doc) string {
	if !strings.Contains(d.text, "msds-keycredentiallink") {
		return ""
	}
	if code := windowsEventCode(d); code != "" && code != "5136" {
		return ""
	}
	// Windows writes %%14674 for "Value Added".
	if op := strings.ToLower(d.scalarStr("operationtype")); op != "" && op != "%%14674" && !strings.Contains(op, "added") {
		return ""
	}
	writer := strings.TrimSpace(d.scalarStr("subjectusername", "srcuser", "sourceuser", "actor", "initiatedby"))
	if writer == "" || strings.HasSuffix(writer, "$") || syncConnectorAccount.MatchString(strings.ToLower(writer)) {
		return ""
	}
	return writer
}
