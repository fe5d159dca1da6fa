package triage

import (
	"regexp"
	"strings"
)

// EndpointBehaviour is what the processes in an alert did, read from every
// command line and process name the payload carries (a detection's process
// tree, its storyline, its ancestors), not only the one process the alert
// is about: an intrusion is a sequence, and the detected step is often the
// harmless-looking one.
type EndpointBehaviour struct {
	// ReverseShell is set when a command wires a shell's input and output
	// to a network socket (/dev/tcp, nc -e, socat exec, a PowerShell
	// TCPClient loop), or the sensor names the behaviour so.
	ReverseShell bool `expr:"reverse_shell" json:"reverse_shell,omitempty"`
	// ServerSpawnsShell is set when a server or application runtime (a
	// JVM, IIS worker, web server, Node or PHP) started a shell: web
	// applications do not run shells, exploited ones do.
	ServerSpawnsShell bool `expr:"server_spawns_shell" json:"server_spawns_shell,omitempty"`
	// Discovery counts the distinct domain and host discovery commands
	// (whoami /all, net group "domain admins", nltest /domain_trusts, ...)
	// in the payload.
	Discovery int `expr:"discovery" json:"discovery,omitempty"`
	// RemoteAccess names the remote-access tool the payload mentions
	// (anydesk, screenconnect, quick assist, ...), or "".
	RemoteAccess string `expr:"remote_access" json:"remote_access,omitempty"`
	// AdminGroupAdd is set when a command adds an account to the local
	// or domain administrators group.
	AdminGroupAdd bool `expr:"admin_group_add" json:"admin_group_add,omitempty"`
	// ReverseTunnel is set when an SSH client forwards a port from an
	// outside host back into this machine.
	ReverseTunnel bool `expr:"reverse_tunnel" json:"reverse_tunnel,omitempty"`
	// Hostile names the first behaviour in the alert that no benign
	// identity of the program, the user or the device explains away
	// (an encoded command that downloads, shadow-copy deletion, credential dumping, mass
	// renames, a reverse shell or tunnel, an administrators-group add,
	// remote access followed by discovery, Office starting a system
	// binary), or "". Rules that vouch for who or what ran a process do
	// not weigh against what it did.
	Hostile string `expr:"hostile" json:"hostile,omitempty"`
	// DevTunnel is the command that opened a tunnel to a public relay
	// service (see devTunnelRe), or "".
	DevTunnel string `expr:"dev_tunnel" json:"dev_tunnel,omitempty"`
	// PersistenceEvent is set when the alert forwards a Windows event that
	// sets up persistence: a scheduled task or a service (see
	// persistenceEventCodes).
	PersistenceEvent bool `expr:"persistence_event" json:"persistence_event,omitempty"`
	// SystemNameMisplaced is the name of an operating-system component a
	// program or launch item carries outside the system's own folders: a
	// Windows system process name (svchost.exe, lsass.exe, ...) in a
	// user-writable folder, or an Apple label (com.apple.*) on a user's
	// launch agent that runs a program from the user's home; or "".
	SystemNameMisplaced string `expr:"system_name_misplaced" json:"system_name_misplaced,omitempty"`
	// SideLoad is the path of an unsigned copy of a Windows system
	// library in a user-writable folder (see sideloadedLibrary), or "".
	SideLoad string `expr:"side_load" json:"side_load,omitempty"`
	// Masquerade names the dual-use tool (rclone.exe, psexec.exe, ...)
	// whose original file name the renamed binary carries, or "".
	Masquerade string `expr:"masquerade" json:"masquerade,omitempty"`
	// CloudExfil names the consumer cloud storage a folder-sync tool was
	// pointed at, or "".
	CloudExfil string `expr:"cloud_exfil" json:"cloud_exfil,omitempty"`
	// DownloadExecute is set when one command fetches a file and runs it
	// as code (curl -o then rundll32, certutil then msiexec).
	DownloadExecute bool `expr:"download_execute" json:"download_execute,omitempty"`
	// LogClearing is set when a command clears event logs or the change
	// journal (wevtutil cl, Clear-EventLog, fsutil usn deletejournal), a
	// Unix shell's history (history -c, unset HISTFILE) or its login logs.
	LogClearing bool `expr:"log_clearing" json:"log_clearing,omitempty"`
	// DiskLockout is set when a command removes a BitLocker volume's key
	// protectors (manage-bde -protectors -delete,
	// Remove-BitLockerKeyProtector, a WMI DeleteKeyProtector call): with
	// only a recovery password left, whoever set it holds the disk.
	DiskLockout bool `expr:"disk_lockout" json:"disk_lockout,omitempty"`
	// DirectoryCopy is set when the Active Directory database was copied
	// out (ntdsutil install-from-media, ntds.dit from a shadow copy).
	DirectoryCopy bool `expr:"directory_copy" json:"directory_copy,omitempty"`
	// HiveSave is set when the SAM or SECURITY registry hive was saved to
	// a file (reg save HKLM\SAM, or copied out of a shadow copy).
	HiveSave bool `expr:"hive_save" json:"hive_save,omitempty"`
	// KernelThreadName is set to the kernel thread's name an executable
	// file runs under (kswapd0, kworker/0:1): kernel threads have no file
	// on disk, so a program so named is hiding in the process list.
	KernelThreadName string `expr:"kernel_thread_name" json:"kernel_thread_name,omitempty"`
	// ShellService is set when a service's program is a command shell
	// echoing into a named pipe or into a batch file it then runs: the
	// named-pipe impersonation of getsystem (Meterpreter, Cobalt Strike)
	// and Impacket smbexec's service per command. Installers register
	// programs, not shell one-liners.
	ShellService bool `expr:"shell_service" json:"shell_service,omitempty"`
	// SSHKeyPlanted is set when a command writes a key into an
	// authorized_keys file (appends it, copies over it, tees into it) or
	// locks one with chattr +i so that a clean-up cannot remove it.
	SSHKeyPlanted bool `expr:"ssh_key_planted" json:"ssh_key_planted,omitempty"`
	// PortRelay is set when a command listens on a port and relays what
	// connects to another host's port (socat TCP-LISTEN to TCP, netsh
	// portproxy, ssh -L open to other hosts): an internal service exposed
	// past the network's controls.
	PortRelay bool `expr:"port_relay" json:"port_relay,omitempty"`
	// PackedScript is set when a script interpreter runs code it first
	// decodes or decompresses from its own command line (see
	// packedInlineScriptRe; read with the command line in
	// readEndpointFields); it also makes the command encoded.
	PackedScript bool `expr:"packed_script" json:"packed_script,omitempty"`
	// PrivacyDBWrite is set when a command writes into macOS's privacy
	// consent database (TCC.db) directly, granting an app screen, camera,
	// disk or accessibility rights the user never gave; management
	// grants them through configuration profiles instead.
	PrivacyDBWrite bool `expr:"privacy_db_write" json:"privacy_db_write,omitempty"`
	// PrivacyGrantee is the program path such a write grants rights to,
	// when the write names one ("" for a bundle identifier).
	PrivacyGrantee string `expr:"privacy_grantee" json:"privacy_grantee,omitempty"`
	// BrowserDebugTheft is set when a browser is started with its remote
	// debugging port open on the user's own profile: the DevTools protocol
	// then hands out every cookie, which infostealers use to lift session
	// cookies past the browser's encryption. Test automation debugs a
	// throwaway profile, not the user's.
	BrowserDebugTheft bool `expr:"browser_debug_theft" json:"browser_debug_theft,omitempty"`
	// RemoteToolFromMail is set when a remote-access tool was installed
	// from a package a user fetched through an e-mail (an attachment or
	// a link in a message the alert carries).
	RemoteToolFromMail bool `expr:"remote_tool_from_mail" json:"remote_tool_from_mail,omitempty"`
	// PasswordPrompt is set when a script puts up a dialog that asks for
	// a password and hides what is typed (osascript's display dialog
	// ... with hidden answer), the way macOS information stealers ask
	// for the login password.
	PasswordPrompt bool `expr:"password_prompt" json:"password_prompt,omitempty"`
	// RemoteRelay is the relay host a remote-support client was set to
	// join (ScreenConnect's h= parameter), or "".
	RemoteRelay string `expr:"remote_relay" json:"remote_relay,omitempty"`
	// OwnRelay is set when that relay is under one of the organisation's
	// own domains as the payload gives them (its users' mail domain, its
	// declared primary domain): its own support instance.
	OwnRelay bool `expr:"own_relay" json:"own_relay,omitempty"`
	// RelayNamedForOrg is set when the relay's name carries one of the
	// organisation's names (its accounts' Windows domain included)
	// without being under its domain: its own instance, or a look-alike
	// an impersonator registered.
	RelayNamedForOrg bool `expr:"relay_named_for_org" json:"relay_named_for_org,omitempty"`
}

// logClearingRe finds commands that erase the record of what was done.
var logClearingRe = regexp.MustCompile(`(?i)wevtutil(\.exe)?"?\s+(cl|clear-log)\b|clear-eventlog\b|remove-eventlog\b|\[system\.diagnostics\.eventing\.reader\.eventlogsession\][^\n]*clearlog|fsutil(\.exe)?\s+usn\s+deletejournal|auditpol(\.exe)?\s+/clear` +
	// A Unix shell's history and login records: history -c, HISTFILE
	// pointed at nothing, the history file or the login logs deleted,
	// shredded or truncated.
	`|\bhistory\s+-c\b|\bunset\s+histfile\b|\bhistfile=/dev/null\b|\bhistsize=0\b|\b(rm|shred|truncate)\b[^\n|;&]*(\.(bash|zsh|sh)_history|/var/log/(auth\.log|secure|wtmp|btmp|lastlog|syslog|messages))\b|\bln\s+-sf\s+/dev/null\s+\S*_history\b`)

// reverseTunnelRe finds ssh or plink forwarding a remote port back in
// (-R port:host:port) to a host that is not on a private network.
var reverseTunnelRe = regexp.MustCompile(`(^|[\\/ "])(ssh|plink)(\.exe)?"?\s.*-[rd]\s*(\d+:|\d+\s)`)

var privateTargetRe = regexp.MustCompile(`@(10\.|127\.|192\.168\.|172\.(1[6-9]|2[0-9]|3[01])\.)`)

// encodedDownload reports an encoded or hidden command that fetches code:
// management tools encode their scripts too, but they do not hide a
// download in them.
func encodedDownload(f *EndpointFields) bool {
	if !f.Encoded || !hiddenCommand(f) {
		return false
	}
	text := f.CommandLine + "\n" + f.Context.DecodedCommand
	return firstSubstring(text, downloadCradles) != "" || rawAddressURLRe.MatchString(text)
}

// hiddenCommand reports a command that conceals itself: a base64
// argument, decoding at run time, a hidden window, caret or character-code
// obfuscation. Invoke-Expression of a plainly written download is not
// hidden: installers document it.
func hiddenCommand(f *EndpointFields) bool {
	return f.Context.DecodedCommand != "" || encodedPowerShell(f.CommandLine) != "" ||
		containsAnyTerm(f.CommandLine, "frombase64string", "-w hidden", "-windowstyle hidden", "-win hidden", "^p^o^w", "[char]", "-join", "gzipstream", "deflatestream")
}

var rawAddressURLRe = regexp.MustCompile(`https?://(\d{1,3}\.){3}\d{1,3}`)

// hostileBehaviour names the first behaviour of f that identity-based
// benign evidence must not cancel.
func hostileBehaviour(f *EndpointFields) string {
	b := f.Behaviour
	for _, c := range []struct {
		on   bool
		name string
	}{
		{f.ShadowDelete, "shadow copy deletion"}, {f.RansomNote, "ransom note"}, {f.MassRename, "mass file renames"}, {f.CredentialDump, "credential dumping"},
		{b.ReverseShell, "reverse shell"}, {b.ReverseTunnel, "reverse tunnel"}, {encodedDownload(f), "encoded download cradle"},
		{b.AdminGroupAdd, "administrators group add"}, {b.RemoteAccess != "" && b.Discovery >= 2, "remote access then discovery"},
		{f.OfficeParent && f.LOLBin, "office application starts a system binary"},
		{b.CloudExfil != "", "folder sync to consumer cloud storage"}, {b.Masquerade != "", "renamed dual-use tool"},
		{b.DownloadExecute, "download run as code"}, {b.ShellService, "shell one-liner installed as a service"}, {b.BrowserDebugTheft, "browser debugged on the user's own profile"}, {b.LogClearing, "event logs cleared"}, {b.DiskLockout, "disk encryption keys taken from the owner"}, {b.SideLoad != "", "unsigned system library in a user folder"}, {b.SystemNameMisplaced != "", "system component's name outside the system folders"}, {b.ServerSpawnsShell && f.CredentialDump, "web server worker dumping credentials"}, {b.ServerSpawnsShell && b.SSHKeyPlanted, "server process planting an SSH key"},
	} {
		if c.on {
			return c.name
		}
	}
	return ""
}

// ownBrowserProfileRe finds a browser's user-data directory pointed at the
// browser's own profile store (Chrome, Edge, Brave "User Data").
var ownBrowserProfileRe = regexp.MustCompile(`user-data-dir="?[^"\n]*\\(google\\chrome|microsoft\\edge|bravesoftware\\brave-browser)\\user data`)

// shellServiceRe finds a command shell that echoes into a named pipe
// (getsystem: "cmd.exe /c echo qhtbvl > \\.\pipe\qhtbvl") or, as
// smbexec does, echoes a command into a batch file to run and delete.
var shellServiceRe = regexp.MustCompile(`(cmd(\.exe)?|%comspec%)"?\s+(/q\s+)?/c\s+echo\s[^\n]{0,120}(>|&gt;)\s*\\\\\.\\pipe\\|%comspec%\s+/q\s+/c\s+echo\s[^\n]{0,200}\.bat\s*&\s*%comspec%`)

var adminGroupAddRe = regexp.MustCompile(`net1?(\.exe)?\s+(localgroup|group)\s+"?(administrators|domain admins|enterprise admins)"?\s+\S+.*\s/add\b|add-(localgroupmember|adgroupmember)\s.*(administrators|domain admins)`)

var reverseShellRe = regexp.MustCompile(`\b(nc|ncat|netcat)(\.exe)?\s.*\s-(e|c)\s|socat\s.*exec:|pty\.spawn\(|\bsh\s+-i\b.*[<>]&|net\.sockets\.tcpclient|fsockopen\(`)

// devSocketRe finds bash's network pseudo-device, and shellOnSocketRe a
// shell's input or output duplicated onto a descriptor (">& /dev/tcp/...
// 0>&1", "<&5"): together they are a reverse shell. The device alone
// opens a socket, which health checks and readiness probes do to see that
// a port answers ("timeout 3 bash -c '</dev/tcp/db/5432'", "exec
// 3<>/dev/tcp/127.0.0.1/6432").
var (
	devSocketRe     = regexp.MustCompile(`/dev/(tcp|udp)/[^\s/]+/\d+`)
	shellOnSocketRe = regexp.MustCompile(`[<>]&|\bsh\s+-i\b|\bbash\s+-i\b`)
)

// reverseShell reports a reverse shell in commands or, when no command
// shows a socket opened only to probe a port, in the sensor's own name
// for the detection (GuardDuty's Execution:Runtime/ReverseShell).
func reverseShell(commands, text string) bool {
	if reverseShellRe.MatchString(commands) {
		return true
	}
	if devSocketRe.MatchString(commands) {
		return shellOnSocketRe.MatchString(commands)
	}
	return containsAnyTerm(text, "reverse shell", "reverseshell", "reverse_shell")
}

// packedInlineScriptRe finds a script interpreter told to run code it
// first decodes or decompresses from its own arguments: Python's
// exec(zlib.decompress(base64.b64decode(...))), Node's
// eval(Buffer.from(..., 'base64')) or eval(atob(...)), or a shell piping
// an encoded string through base64, xxd or openssl into an interpreter
// ("echo 6375... | xxd -p -r | sh").
var packedInlineScriptRe = regexp.MustCompile(`\b(exec|eval)\s*\(\s*(zlib\.decompress|base64\.b64decode|marshal\.loads|bytes\.fromhex|codecs\.decode|__import__\(\s*['"](zlib|base64|marshal|codecs)|buffer\.from\(|atob\()` +
	`|\b(base64\s+(-d|--decode)|xxd\s+(-p\s+-r|-r\s+-p|-rp|-pr)|openssl\s+(enc\s+-d|base64\s+-d))[^|\n]{0,60}\|\s*(sudo\s+)?(sh|bash|zsh|dash|python3?|perl)\b`)

// privacyDBWriteRe finds a SQL write into a TCC.db consent database.
var privacyDBWriteRe = regexp.MustCompile(`com\.apple\.tcc/tcc\.db\S*\s.*\b(insert|update|replace)\b`)

// privacyGranteeRe finds the program path a consent row is written for:
// the quoted path after the service name in the row's values.
var privacyGranteeRe = regexp.MustCompile(`'ktccservice[a-z]+'\s*,\s*'(/[^']+)'`)

// portRelayRe finds a listener that relays connections to another host:
// socat from a TCP listener to a TCP address, a netsh port proxy, or an
// ssh local forward bound to every interface.
var portRelayRe = regexp.MustCompile(`\bsocat\s.*tcp[46]?-listen:\d+\S*\s+tcp[46]?:[^\s:]+:\d+|\bnetsh(\.exe)?\s+interface\s+portproxy\s+add\b|\bssh\s.*-l\s*(0\.0\.0\.0|\*):\d+:|\bssh\s.*\s-g\s.*-l\s*\d+:`)

// sshKeyWriteRe finds a command writing into an authorized_keys file or
// making one immutable.
var sshKeyWriteRe = regexp.MustCompile(`(>>?|\btee( -a)?|\bcp|\bmv|chattr \+i)\s*\S*/\.ssh/authorized_keys2?\b`)

// discoveryCommands are the enumeration steps of hands-on intruders: who
// am I, who administers the domain, which domains trust it, what is near.
var discoveryCommands = []*regexp.Regexp{
	regexp.MustCompile(`whoami(\.exe)?\s+/(all|groups|priv)`),
	regexp.MustCompile(`net1?(\.exe)?\s+group\s+"?(domain admins|enterprise admins|domain computers)`),
	regexp.MustCompile(`net1?(\.exe)?\s+(user|accounts)\s+.*/domain`),
	regexp.MustCompile(`nltest(\.exe)?\s+/(domain_trusts|dclist|dsgetdc)`),
	regexp.MustCompile(`net1?(\.exe)?\s+view\b`),
	regexp.MustCompile(`\badfind(\.exe)?\b`),
	regexp.MustCompile(`\bget-ad(user|computer|group|domain)\b`),
	regexp.MustCompile(`\b(quser|query user)\b`),
	regexp.MustCompile(`\bsysteminfo(\.exe)?\b`),
	regexp.MustCompile(`\barp\s+-a\b`),
}

// remoteAccessTools are remote-support tools, each with the names its
// processes, services and relays carry.
var remoteAccessTools = [][2]string{
	{"anydesk", "anydesk"}, {"screenconnect", "screenconnect"}, {"connectwise control", "screenconnect"},
	{"quickassist", "quick assist"}, {"quick assist", "quick assist"}, {"teamviewer", "teamviewer"},
	{"splashtop", "splashtop"}, {"rustdesk", "rustdesk"}, {"ateraagent", "atera"}, {"atera networks", "atera"}, {"logmein", "logmein"},
	{"supremo", "supremo"}, {"netsupport", "netsupport"}, {"simplehelp", "simplehelp"}, {"remoteutilities", "remote utilities"},
}

// serverRuntimes are processes that serve requests; a shell below one is
// the mark of an exploited application or a web shell.
var serverRuntimes = setOf("java", "java.exe", "w3wp.exe", "httpd", "apache2", "nginx", "node", "node.exe", "php-fpm", "php", "php-cgi.exe", "tomcat", "tomcat9.exe", "catalina.sh", "sqlservr.exe", "python3", "gunicorn", "uwsgi", "ruby",
	"redis-server", "mysqld", "mariadbd", "mongod")

var shells = setOf("sh", "bash", "dash", "zsh", "ash", "cmd.exe", "powershell.exe", "pwsh.exe", "pwsh")

// readEndpointBehaviour reads the behaviour of every process in the payload.
func readEndpointBehaviour(d *doc, p processFacts, f *EndpointFields) {
	b := &f.Behaviour
	commands := p.Commands + "\n" + f.CommandLine + "\n" + f.Context.DecodedCommand
	// The sensor's own name for the behaviour counts too (GuardDuty's
	// Execution:Runtime/ReverseShell, EDR detections titled so).
	b.ReverseShell = reverseShell(commands, d.text)
	// XDR products put the shell as the actor and the command it ran as
	// the action, so the server is then the grandparent; when they name
	// no parent, the root of the chain (the causality actor) started the
	// shell itself.
	b.ServerSpawnsShell = serverRuntimes[f.Parent] && shells[f.Process] || serverRuntimes[p.GrandparentName] && shells[f.Parent] ||
		f.Parent == "" && serverRuntimes[p.GrandparentName] && shells[f.Process]
	b.AdminGroupAdd = adminGroupAddRe.MatchString(commands) || adminGroupAddRe.MatchString(d.text)
	for _, re := range discoveryCommands {
		if re.MatchString(commands) {
			b.Discovery++
		}
	}
	// Process trees, storylines and ancestry lists name the tool in
	// whichever field the vendor chose, so the whole payload is read.
	tree := d.text + "\n" + commands
	b.RemoteAccess = firstMarker(tree, remoteAccessTools)
	b.ReverseTunnel = reverseTunnelRe.MatchString(f.CommandLine) && !privateTargetRe.MatchString(f.CommandLine)
	b.LogClearing = logClearingRe.MatchString(commands) || logClearingRe.MatchString(d.text)
	b.DiskLockout = diskLockoutRe.MatchString(commands) || diskLockoutRe.MatchString(d.text)
	b.RemoteToolFromMail = b.RemoteAccess != "" && remoteToolFromMail(d, tree)
	b.PasswordPrompt = strings.Contains(tree, "hidden answer") && passwordPromptRe.MatchString(tree)
	if b.RemoteAccess != "" {
		b.RemoteRelay = remoteRelay(tree)
		if b.RemoteRelay != "" {
			id := readOrgIdentity(d)
			b.OwnRelay = relayOnOwnDomain(b.RemoteRelay, id)
			b.RelayNamedForOrg = !b.OwnRelay && relayNamedForOrg(b.RemoteRelay, id)
		}
	}
	b.KernelThreadName = kernelThreadDisguise(f.Process, f.FilePath)
	b.SSHKeyPlanted = sshKeyWriteRe.MatchString(tree)
	b.PortRelay = portRelayRe.MatchString(strings.ToLower(commands))
	b.PrivacyDBWrite = privacyDBWriteRe.MatchString(tree)
	if b.PrivacyDBWrite {
		if m := privacyGranteeRe.FindStringSubmatch(tree); m != nil {
			b.PrivacyGrantee = m[1]
		}
	}
	b.ShellService = strings.Contains(tree, "echo") && (strings.Contains(tree, `\pipe\`) || strings.Contains(tree, "%comspec%")) && shellServiceRe.MatchString(tree)
	b.BrowserDebugTheft = strings.Contains(tree, "remote-debugging-port") && ownBrowserProfileRe.MatchString(tree)
	b.SideLoad = sideloadedLibrary(d)
	b.PersistenceEvent = persistenceEvent(d)
	b.DevTunnel = devTunnel(strings.ToLower(commands))
	b.SystemNameMisplaced = misplacedSystemName(f)
	if b.SystemNameMisplaced == "" {
		b.SystemNameMisplaced = misplacedAppleAgent(d)
	}
	b.Hostile = hostileBehaviour(f)
}

// diskLockoutRe finds a BitLocker volume's key protectors being removed:
// manage-bde's -protectors -delete, PowerShell's
// Remove-BitLockerKeyProtector, Win32_EncryptableVolume's
// DeleteKeyProtector(s).
var diskLockoutRe = regexp.MustCompile(`manage-bde(\.exe)?\s+(-|/)protectors\s+(-|/)delete\b|remove-bitlockerkeyprotector\b|deletekeyprotectors?\b`)

// passwordPromptRe finds an AppleScript dialog with a hidden answer.
var passwordPromptRe = regexp.MustCompile(`display dialog[^\n]{0,400}hidden answer`)

// kernelThreadRe matches the names Linux gives its kernel threads.
var kernelThreadRe = regexp.MustCompile(`^(kworker|kswapd\d*|ksoftirqd|kthreadd|kblockd|khugepaged|kcompactd\d*|migration|rcu_(sched|bh|preempt|gp)|watchdog|jbd2|kauditd|khungtaskd|kdevtmpfs|kintegrityd|writeback|ksmd|oom_reaper)(/.*)?$`)

// kernelThreadDisguise returns the kernel thread's name that a process
// with an executable file takes, or "". A file under /proc is the kernel's
// own view, not a program.
func kernelThreadDisguise(process, path string) string {
	name := strings.Trim(strings.ToLower(process), "[]")
	p := strings.ToLower(path)
	if name == "" || p == "" || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "/proc/") {
		return ""
	}
	if kernelThreadRe.MatchString(name) {
		return name
	}
	return ""
}
