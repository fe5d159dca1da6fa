package triage

import (
	"regexp"
	"strings"
)

// Endpoint alerts on software that manages or updates itself look like
// attacks (encoded PowerShell, an executable written to a downloads
// folder) and are told apart by where they came from: a management
// agent's service as the ancestor, an updater and its download signed by
// the same vendor, a change the organisation approved. Attacks that use
// legitimate tools are told apart by what was done with them: a renamed
// copy, a sync to a consumer cloud drive, a download that is run at once,
// the directory database copied out.

// managementAgents are the processes of endpoint management, inventory
// and monitoring agents that run scripts the organisation assigns them:
// NinjaOne, Tanium, Configuration Manager (its client, package runner and
// task sequence manager), Intune, SCOM, ConnectWise
// Automate, BigFix, Datto RMM, Kaseya, ManageEngine, Automox, PDQ, Jamf.
// Remote-support tools attackers install for themselves are not here.
var managementAgents = []string{
	"ninjarmmagent.exe", "ninjarmmagentpatcher.exe", "taniumclient.exe", "taniumcx.exe", "ccmexec.exe", "smsswd.exe", "tsmanager.exe",
	"agentexecutor.exe", "intunemanagementextension.exe", "microsoft.management.services.intunewindowsagent.exe",
	"monitoringhost.exe", "healthservice.exe", "ltsvc.exe", "besclient.exe", "aemagent.exe", "agentmon.exe",
	"dcagentservice.exe", "amagent.exe", "pdqdeployrunner", "jamfagent", "/usr/local/jamf/bin/jamf",
}

// updaterRe recognises a program whose job is to fetch and install its
// vendor's next version.
var updaterRe = regexp.MustCompile(`(?i)(updater|autoupdate|update[ _-]?(service|agent|helper|checker)|maintenanceservice|softwareupdate|\bgup\.exe|googleupdate|msedgeupdate|updatesvc)`)

// changeKeys name the organisation's record of an approved change, or of
// the service-desk request the activity answers.
var changeKeys = []string{"changeticket", "servicedeskticket", "supportticket", "helpdeskticket", "changerequest", "changeid", "changenumber", "changewindow", "maintenancewindow", "approvedchange", "changeapproval"}

// dualUseTools are legitimate programs intruders rename to hide: a copy
// running under another name is not the administrator's copy.
var dualUseTools = setOf("rclone.exe", "rclone", "psexec.exe", "psexec64.exe", "procdump.exe", "procdump64.exe", "7za.exe", "7z.exe",
	"plink.exe", "nc.exe", "ncat.exe", "ngrok.exe", "anydesk.exe", "winscp.exe", "megacmd.exe", "restic.exe", "cmd.exe", "powershell.exe", "rundll32.exe", "nltest.exe", "adfind.exe")

// consumerCloudStorage are file-sharing services outside the
// organisation's control that exfiltration tools are pointed at.
var consumerCloudStorage = []string{"mega.nz", "mega.co.nz", "mega.io", "pcloud.com", "dropboxapi.com", "file.io", "gofile.io", "anonfiles", "transfer.sh", "sendspace.com", "4shared.com", "pixeldrain.com", "temp.sh", "catbox.moe", "filemail.com", "type = mega"}

// syncTools are command-line tools that copy whole folders to remote storage.
var syncToolRe = regexp.MustCompile(`(?i)\b(rclone|megacmd|mega-put|megasync|restic)\b|\scopy\s+\S+\s+[a-z0-9_-]+:[^\\/\s]*\s.*--(config|transfers)`)

// uploadClientRe finds an HTTP client sending a file: curl's form, upload
// and binary-body options, PowerShell's web cmdlets with a file or form
// body.
var uploadClientRe = regexp.MustCompile(`(?i)\bcurl(\.exe)?\s[^\n]*(\s-F\s|--form\s|\s-T\s|--upload-file\s|--data-binary\s+"?@)|invoke-(webrequest|restmethod)[^\n]*\s-(infile|form)\b`)

// downloadThenRunRe finds one command that fetches a file and runs it as
// code: curl or certutil or bitsadmin writing a file, then rundll32,
// regsvr32, msiexec or the file itself.
var downloadThenRunRe = regexp.MustCompile(`(?i)(curl(\.exe)?\s[^\n]*(-o|--output)\s|certutil(\.exe)?\s[^\n]*-urlcache|bitsadmin(\.exe)?\s[^\n]*/transfer|invoke-webrequest[^\n]*-outfile|wget(\.exe)?\s[^\n]*-o\s)[^\n]*(&&|&|;|\|\|)\s*[^\n]*(rundll32|regsvr32|msiexec|mshta|start\s)`)

// remoteOutputToShellRe finds a network client's reply piped straight into
// a Windows shell ("finger user@host | cmd", "curl -s url | powershell",
// nslookup's answer into cmd): the ClickFix lures' way to run a script no
// file ever held. Installers write files; none pipe a server's reply
// into cmd.
var remoteOutputToShellRe = regexp.MustCompile(`(?i)\b(finger|nslookup|curl|wget|tftp)(\.exe)?\s[^|\n]{1,200}\|\s*(cmd|powershell|pwsh)(\.exe)?\b`)

// ntdsCopyRe finds a copy of the Active Directory database: ntdsutil's
// install-from-media, or the database and SYSTEM hive lifted out of a
// shadow copy.
var ntdsCopyRe = regexp.MustCompile(`(?i)ntdsutil(\.exe)?"?\s[^\n]*\bifm\b|ntdsutil[^\n]*create full|(copy|esentutl|robocopy)[^\n]*\\windows\\ntds\\ntds\.dit|harddiskvolumeshadowcopy[^\n]*ntds\.dit`)

// hiveSaveRe finds the local account database's registry hives saved to a
// file (reg save HKLM\SAM, or the SAM or SECURITY hive copied out of a
// shadow copy): with SYSTEM's boot key, every local account's hash.
var hiveSaveRe = regexp.MustCompile(`(?i)\breg(\.exe)?"?\s+(save|export)\s+"?(hklm|hkey_local_machine)\\(sam|security)\b|harddiskvolumeshadowcopy\d*\\windows\\system32\\config\\(sam|security)\b`)

// readEndpointProvenance fills the provenance and tradecraft facts of f.
func readEndpointProvenance(d *doc, p processFacts, f *EndpointFields) {
	c := &f.Context
	chain := strings.ToLower(strings.Join([]string{f.Parent, p.GrandparentName, p.ParentNames, p.Commands,
		lowerJoin(d.strs("parentchain", "processchain", "ancestors", "processtree", "lineage", "originatorprocess")), ancestorNames(d)}, "\n"))
	for _, a := range managementAgents {
		if strings.Contains(chain, a) {
			c.ManagementAgent = strings.TrimSuffix(baseName(a), ".exe")
			break
		}
	}
	c.VendorUpdate = vendorUpdate(d, p, f)
	// The account the process ran as, where the alert also names the
	// console user or the tenant under a plainer key.
	for _, u := range d.strs("processuser", "processusername", "osactoreffectiveusername", "effectiveusername", "runasuser") {
		if u = strings.ToLower(u); u == "system" || strings.HasSuffix(u, `\system`) {
			c.SystemContext = true
		}
	}
	for _, k := range changeKeys {
		switch s := strings.ToLower(strings.TrimSpace(d.str(k))); s {
		case "", "none", "n/a", "na", "no", "false", "null", "unknown", "-":
		default:
			c.ApprovedChange = true
		}
	}
	all := p.Commands + "\n" + f.CommandLine + "\n" + d.text
	b := &f.Behaviour
	if ntdsCopyRe.MatchString(all) {
		f.CredentialDump, b.DirectoryCopy = true, true
	}
	b.HiveSave = hiveSaveRe.MatchString(all)
	if orig := baseName(d.str("originalfilename", "originalname", "peoriginalfilename", "fileoriginalname")); orig != "" && dualUseTools[orig] && f.Process != "" && bitless(f.Process) != bitless(orig) {
		b.Masquerade = orig
	}
	if syncToolRe.MatchString(all) || uploadClientRe.MatchString(all) || b.Masquerade == "rclone.exe" {
		if host := firstSubstring(all, consumerCloudStorage); host != "" {
			b.CloudExfil = host
		}
	}
	b.DownloadExecute = downloadThenRunRe.MatchString(strings.ReplaceAll(all, "\n", " \n")) || remoteOutputToShellRe.MatchString(all)
}

// ancestorNames joins every string the payload files under a grandparent
// or ancestor key, whatever the vendor calls the field
// (GrandparentImageFileName, grandparent_details, ancestors[]).
func ancestorNames(d *doc) string {
	var out []string
	for _, e := range d.entries {
		if s, ok := e.val.(string); ok && (strings.Contains(e.key, "grandparent") || strings.Contains(e.key, "ancestor")) {
			out = append(out, s)
		}
	}
	return lowerJoin(out)
}

// userPackageRe finds an installer package in a user's downloads, mail
// attachment cache or temporary folder.
var userPackageRe = regexp.MustCompile(`(?i)\\(downloads|content\.outlook|inetcache|temp)\\[^"\n]*\.(msi|exe)\b`)

// remoteToolFromMail reports an installer from a user's folders in an
// alert that also carries the e-mail it came by: an attachment cache, or
// a message's sender and subject or link.
func remoteToolFromMail(d *doc, text string) bool {
	if !userPackageRe.MatchString(text) {
		return false
	}
	return strings.Contains(text, `\content.outlook\`) || d.has("sender", "senderaddress", "emaillink", "mailfrom") && d.has("subject", "link", "url")
}

// bitless drops a 64-bit build's suffix (PsExec64.exe is PsExec.exe).
func bitless(name string) string {
	return strings.Replace(name, "64.exe", ".exe", 1)
}

// vendorUpdate names the vendor when the alert's program is an updater and
// every signature in the alert, the updater's and the download's, is the
// same vendor's and valid; "" otherwise.
func vendorUpdate(d *doc, p processFacts, f *EndpointFields) string {
	names := strings.ToLower(strings.Join([]string{f.Parent, f.Process, p.ParentNames, p.Commands, lowerJoin(d.strs("sourceprocessname", "actorprocessimagepath", "actorprocessimagename", "processname", "parentprocessname"))}, "\n"))
	if !updaterRe.MatchString(names) {
		return ""
	}
	status := normKey(lowerJoin(d.strs("signaturestatus", "actorprocesssignaturestatus", "actionprocesssignaturestatus", "fileverificationtype")))
	if containsAnyTerm(status, "unsigned", "notsigned", "invalid") {
		return ""
	}
	for _, k := range []string{"signaturevalid", "sourceprocesssignaturevalid", "targetsignaturevalid", "valid", "isvalidcertificate"} {
		if v, ok := d.boolean(k); ok && !v {
			return ""
		}
	}
	signerKeys := []string{"signer", "sourceprocesssigner", "targetsigner", "actorprocesssignaturevendor", "actionprocesssignaturevendor", "causalityactorprocesssignaturevendor", "signaturevendor", "publisher", "signername", "subject"}
	for _, v := range d.values(signerKeys...) {
		if v == nil {
			// A file whose signer the product left empty (Defender's
			// "signer": null) is unsigned.
			return ""
		}
	}
	vendors := map[string]bool{}
	for _, s := range d.strs(signerKeys...) {
		switch normKey(s) {
		case "unsigned", "notsigned", "nosignature", "none", "unknown", "na":
			// A file in the alert carries no signature at all.
			return ""
		}
		if v := signerOrg(s); v != "" {
			vendors[v] = true
		}
	}
	if len(vendors) != 1 {
		return ""
	}
	for v := range vendors {
		return v
	}
	return ""
}

// signerOrg reduces a certificate subject (CN="Citrix Systems, Inc.", O=...)
// or a vendor name to its organisation's leading word.
func signerOrg(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if i := strings.Index(s, "cn="); i >= 0 {
		s = s[i+3:]
		s = strings.TrimPrefix(s, `"`)
		if j := strings.IndexAny(s, `",`); j >= 0 {
			s = s[:j]
		}
	}
	f := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '.' || r == '"' })
	if len(f) == 0 || certificateAuthorities[f[0]] {
		return ""
	}
	return f[0]
}

// certificateAuthorities issue code-signing certificates; an issuer's name
// next to the subject's is not a second vendor.
var certificateAuthorities = setOf("digicert", "sectigo", "globalsign", "entrust", "verisign", "comodo", "thawte", "godaddy", "certum", "ssl", "symantec")
