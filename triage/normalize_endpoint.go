package triage

import (
	"path"
	"regexp"
	"strings"
)

// lolbins are Windows binaries shipped with the system that attackers use to
// run or fetch code without dropping tools of their own.
var lolbins = setOf(
	"powershell.exe", "pwsh.exe", "cmd.exe", "wscript.exe", "cscript.exe", "mshta.exe", "rundll32.exe",
	"regsvr32.exe", "certutil.exe", "bitsadmin.exe", "msbuild.exe", "installutil.exe", "wmic.exe",
	"forfiles.exe", "cmstp.exe", "msiexec.exe", "odbcconf.exe", "regasm.exe", "regsvcs.exe", "hh.exe",
	"curl.exe", "schtasks.exe", "bash", "sh", "python", "python3", "osascript", "curl", "wget",
)

var browsers = []string{"chrome.exe", "msedge.exe", "firefox.exe", "iexplore.exe", "opera.exe", "brave.exe", "safari"}

// adminTools are remote-administration and management tools that are
// routine when admins or management agents run them and alarming otherwise.
var adminTools = []string{
	"psexec", "psexesvc", "anydesk", "teamviewer", "screenconnect", "connectwise", "splashtop",
	"ccmexec", "sccm", "intunemanagementextension", "ansible", "tanium", "bigfix", "kaseya",
	"ninjarmm", "pdq", "sysinternals", "procmon", "autoruns", "vmtoolsd",
}

// trustedPublishers are code-signing subjects of major vendors whose signed
// binaries are ordinary software (a stolen certificate is possible but
// rare, and intel or behaviour rules still fire on top).
var trustedPublishers = []string{
	"microsoft corporation", "microsoft windows", "google llc", "google inc", "apple inc",
	"mozilla corporation", "adobe inc", "adobe systems", "oracle america", "vmware, inc",
	"citrix systems", "cisco systems", "zoom video communications", "slack technologies",
	"dropbox, inc", "intel corporation", "nvidia corporation", "dell inc", "hp inc",
	"lenovo", "jetbrains s.r.o", "github, inc", "docker inc", "crowdstrike, inc", "sentinel labs",
	"notepad++", "7-zip", "software signing (apple)", "apple mac os application signing", "developer id application: jamf", "teamviewer germany", "jamf", "igor pavlov", "python software foundation", "node.js foundation", "openjs foundation",
}

// signerKeys name the code-signing subject of the process's binary.
var signerKeys = []string{"signer", "publisher", "publishername", "signername", "certificatesubject", "issuer", "signedby",
	"companyname", "signature", "signaturesubjectname", "signaturevendor", "signaturesigner"}

// ransomNoteRe recognises the files ransomware leaves beside what it
// encrypted.
var ransomNoteRe = regexp.MustCompile(`how[_ -]?to[_ -]?(decrypt|restore|recover)|restore[_-]my[_-]files|decrypt[_-](instructions|files)|[_!]readme[_!]?\.txt|readme[_-]for[_-]decrypt`)

// hostNameKeys are where products name the host an endpoint alert is
// about (Trend Vision One's host entity is an entityValue with a name).
var hostNameKeys = []string{"hostnamefield", "hostname", "computername", "devicename", "computerdnsname", "agentcomputername", "host", "computer", "endpoint", "machinename", "entityvaluename"}

func readEndpointFields(d *doc, ind Indicators) EndpointFields {
	p := readProcessFacts(d)
	f := EndpointFields{
		Host:        d.scalarStr(hostNameKeys...),
		User:        d.str("username", "user", "accountname", "processuser", "initiatingprocessaccountname", "userprincipalname", "user_name"),
		CommandLine: strings.ToLower(p.CommandLine),
		FilePath:    p.Path,
		Signer:      d.subjectStr(signerKeys...),
		Hashes:      ind.Hashes,
		Prevalence:  -1,
		Process:     p.Name,
		Parent:      p.ParentName,
	}
	readActorAction(d, &f)
	if f.Process == "" && f.CommandLine != "" {
		f.Process = baseName(commandImage(f.CommandLine))
	}
	signer := strings.ToLower(f.Signer)
	if v, ok := d.subjectBool("signed", "issigned", "isvalidcertificate", "signatureverified", "validsignature", "signaturevalid", "signaturetrusted", "signatureexists"); ok {
		f.Signed, f.SignatureBad = v, !v
	} else if s := normKey(d.subjectStr("signaturestatus", "signaturestate", "certificatestatus", "signedstatus", "fileverificationtype", "verificationtype")); s != "" {
		f.Signed = s == "valid" || s == "signed" || s == "signedvalid" || s == "trusted" || s == "signedverified" || s == "verified"
		f.SignatureBad = firstSubstring(s, []string{"invalid", "unsigned", "notsigned", "expired", "revoked", "untrusted"}) != ""
	} else if signer != "" {
		f.Signed = true
	}
	f.TrustedSigner = f.Signed && !f.SignatureBad && firstSubstring(signer, trustedPublishers) != ""
	all := f.CommandLine + "\n" + d.text
	f.LOLBin = lolbins[f.Process]
	// A document's macro often starts cmd, which starts PowerShell: the
	// Office application is then the grandparent.
	// XDR products name the root of the chain (the causality actor);
	// when the parent is not given, a system binary under an Office root
	// was started by the document too.
	grandparent := p.GrandparentName
	f.OfficeParent = firstSubstring(f.Parent, officeApps) != "" || firstSubstring(grandparent, officeApps) != "" && (lolbins[f.Parent] || f.Parent == "" && lolbins[f.Process])
	f.BrowserParent = firstSubstring(f.Parent, browsers) != ""
	f.AdminTool = firstSubstring(f.Process+" "+f.Parent+" "+f.CommandLine+" "+strings.ToLower(f.FilePath), adminTools) != ""
	// A packed inline script is a behaviour of its own and an encoded
	// command too, so it is read here, before what weighs Encoded.
	f.Behaviour.PackedScript = packedInlineScriptRe.MatchString(f.CommandLine)
	f.Encoded = encodedPowerShell(all) != "" || containsAnyTerm(f.CommandLine, "-enc ", "frombase64string", "[char]", "iex(", "iex (", "invoke-expression", "^p^o^w", "-w hidden", "-windowstyle hidden") ||
		f.Behaviour.PackedScript
	_, f.ShadowDelete = shadowCopyDeletion(d.text)
	f.CredentialDump, f.EngineReadsLsass = lsassRead(foregroundText(d, d.text))
	// A file record's "modified" time under "files" indexes as
	// filesmodified too: a count of files never reaches 1e9, Unix times do.
	if n, ok := d.number("filesrenamed", "renamedfiles", "filesencrypted", "encryptedfiles", "modifiedfiles", "filesmodified"); ok && n >= 100 && n < 1e9 {
		f.MassRename = true
	} else if affirmedPhrase(d.text, "mass file rename", "mass rename", "files encrypted", "ransom note", "file encryption activity", "mass file modification") != "" {
		f.MassRename = true
	}
	f.RansomNote = ransomNoteRe.MatchString(d.text) || affirmedPhrase(d.text, "ransom note", "ransomnote") != ""
	f.UserWritable = userWritablePath([]string{f.FilePath}, f.CommandLine) != ""
	if v, ok := d.boolean("isadmin", "useradmin", "elevated", "iselevated"); ok && v {
		f.UserAdmin = true
	} else if tok := normKey(d.str("integritylevel", "tokenelevation", "logontype")); tok == "high" || tok == "system" || tok == "tokenelevationtypefull" {
		f.UserAdmin = true
	} else if priv := privileged(d); priv != "" {
		f.UserAdmin = true
	}
	rep := normKey(lowerJoin(d.strs("reputation", "filereputation", "hashreputation", "globalreputation", "reputationverdict", "wildfireverdict", "sandboxverdict")))
	// Carbon Black's vocabulary (KNOWN_MALWARE, SUSPECT_MALWARE, PUP,
	// COMPANY_BLACK_LIST, NOT_LISTED, TRUSTED_WHITE_LIST) is read by the
	// verdict word first: "known" alone is no clean bill.
	switch {
	case containsAnyTerm(rep, "malicious", "malware", "bad", "blacklist", "blocklist", "denylist"):
		f.Reputation = "malicious"
	case containsAnyTerm(rep, "suspicious", "suspect", "unknown", "rare", "pup", "notlisted", "heuristic"):
		f.Reputation = "suspicious"
	case containsAnyTerm(rep, "clean", "good", "trusted", "whitelist", "allowlist", "known"):
		f.Reputation = "clean"
	}
	if n, ok := d.number("prevalence", "globalprevalence", "orgprevalence", "machinecount", "devicecount"); ok {
		f.Prevalence = int(n)
	}
	f.ThreatClass = strings.ToLower(d.str("classification", "threatclassification", "malwaretype", "threattype", "category"))
	conf := normKey(d.str("confidencelevel", "confidence"))
	f.VendorConfident = conf == "malicious" || conf == "high"
	if n, ok := d.number("confidence"); ok && n >= 80 {
		f.VendorConfident = true
	}
	readEndpointContext(d, p, &f)
	readEndpointProvenance(d, p, &f)
	readEndpointBehaviour(d, p, &f)
	readEndpointEstablished(d, p, &f)
	return f
}

// baseName returns the lowercased file name of a Windows or POSIX path.
func baseName(p string) string {
	p = strings.ToLower(strings.Trim(strings.TrimSpace(p), `"'`))
	if p == "" {
		return ""
	}
	return path.Base(strings.ReplaceAll(p, `\`, "/"))
}

// readActorAction reads the actor/action pairs XDR products report (an
// actor process acting on an action process): the action process is the
// one the alert is about and the actor is its parent.
func readActorAction(d *doc, f *EndpointFields) {
	action := d.str("actionprocessimagename")
	if action == "" {
		return
	}
	f.Process = baseName(action)
	if cl := d.str("actionprocessimagecommandline", "actionprocesscommandline"); cl != "" {
		f.CommandLine = strings.ToLower(cl)
	}
	if f.Parent == "" {
		f.Parent = baseName(d.str("actorprocessimagename"))
	}
}

// commandImage returns the program a command line starts, honouring a
// quoted path with spaces ("C:\Program Files\App\app.exe" -x).
func commandImage(cl string) string {
	cl = strings.TrimSpace(cl)
	if rest, ok := strings.CutPrefix(cl, `"`); ok {
		if end := strings.IndexByte(rest, '"'); end >= 0 {
			return rest[:end]
		}
		return rest
	}
	if fields := strings.Fields(cl); len(fields) > 0 {
		return fields[0]
	}
	return ""
}
