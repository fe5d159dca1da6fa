package triage

import (
	"encoding/base64"
	"regexp"
	"strings"
	"unicode/utf16"
)

// EndpointContext describes who launched a process and through what, the
// part of an endpoint alert that tells administration from attack.
type EndpointContext struct {
	// DecodedCommand is the lowercased text of a PowerShell
	// -EncodedCommand argument ("" when there is none or it does not
	// decode).
	DecodedCommand string `expr:"decoded_command" json:"decoded_command,omitempty"`
	// ParentInstalled is set when the parent runs from an installed-program
	// folder (Program Files, the Configuration Manager client, /opt, /usr).
	ParentInstalled bool `expr:"parent_installed" json:"parent_installed,omitempty"`
	// SystemContext is set when the process runs as the operating system
	// itself: SYSTEM, LocalSystem, the machine account, or root (user id
	// 0 in a Linux audit record).
	SystemContext bool `expr:"system_context" json:"system_context,omitempty"`
	// ServiceAccount is set when the user is a service or automation
	// account by naming convention.
	ServiceAccount bool `expr:"service_account" json:"service_account,omitempty"`
	// RemoteManagement is set when the process was started through a
	// remote-management host: WinRM / PowerShell remoting (wsmprovhost)
	// or an SSH session.
	RemoteManagement bool `expr:"remote_management" json:"remote_management,omitempty"`
	// AutomationTool names the configuration-management tool whose own
	// launch markers the command, its parent or their working directory
	// carries (ansible, configmgr, puppet, chef, salt), or "".
	AutomationTool string `expr:"automation_tool" json:"automation_tool,omitempty"`
	// PasswordManager names the password manager the process is (by its
	// program, folder or signer: bitwarden, 1password, ...), or "". Its
	// import reads the browsers' saved passwords the way a stealer does.
	PasswordManager string `expr:"password_manager" json:"password_manager,omitempty"`
	// GroupPolicyScript is set when the script runs from the domain's
	// SYSVOL policy scripts folder, the way group policy deploys logon and
	// startup scripts.
	GroupPolicyScript bool `expr:"group_policy_script" json:"group_policy_script,omitempty"`
	// BuildOutput is set when the file sits in a software project's build
	// output (Visual Studio bin\Debug, Cargo target/release, a repos
	// folder): freshly compiled, unsigned and unknown to reputation.
	BuildOutput bool `expr:"build_output" json:"build_output,omitempty"`
	// MachineLearningOnly is set when every detection is a
	// machine-learning, static-AI or heuristic engine's verdict, with no
	// malware family named (see machineLearningOnly).
	MachineLearningOnly bool `expr:"machine_learning_only" json:"machine_learning_only,omitempty"`
	// BuildAgent is set when the parent is a continuous-integration agent
	// (Jenkins, GitLab Runner, Azure Pipelines, GitHub Actions, TeamCity,
	// Buildkite, Bamboo), whose job is to run shells for build steps.
	BuildAgent bool `expr:"build_agent" json:"build_agent,omitempty"`
	// ManagementAgent names the endpoint management or monitoring agent
	// (ninjarmmagent, taniumcx, ccmexec, agentexecutor, ...) found in the
	// process's ancestry, or "".
	ManagementAgent string `expr:"management_agent" json:"management_agent,omitempty"`
	// VendorUpdate names the vendor when an updater fetched a file and
	// every signature in the alert is that vendor's and valid, or "".
	VendorUpdate string `expr:"vendor_update" json:"vendor_update,omitempty"`
	// ApprovedChange is set when the alert carries the organisation's
	// record of an approved change or maintenance window.
	ApprovedChange bool `expr:"approved_change" json:"approved_change,omitempty"`
	// OrgDeployment names the endpoint-management tool that installed the
	// program (configmgr, intune, pdq, jamf, ...) by the payload's install
	// record or the tool's package cache, or "".
	OrgDeployment string `expr:"org_deployment" json:"org_deployment,omitempty"`
	// EstablishedJob is set when the process ran under a recurring job
	// with a history of earlier runs (a scheduled task, cron or backup
	// job), as the system, a service account or a management agent.
	EstablishedJob bool `expr:"established_job" json:"established_job,omitempty"`
	// BackupSoftware names the backup product (veeam, acronis, windows
	// server backup, ...) whose program is the process or one of its
	// launchers, or "": what takes, reads and rotates volume snapshots.
	BackupSoftware string `expr:"backup_software" json:"backup_software,omitempty"`
	// FleetHosts is how many of the organisation's own machines run the
	// same file (0 when not stated).
	FleetHosts int `expr:"fleet_hosts" json:"fleet_hosts,omitempty"`
}

// buildAgentRe recognises a CI agent by its program or working folder.
var buildAgentRe = regexp.MustCompile(`(?i)jenkins|\bagent\.jar\b|gitlab-runner|actions-runner|runner\.worker|vsts-agent|azagent|[\\/]agent[\\/]_work[\\/]|teamcity|buildagent|buildkite-agent|bamboo-agent`)

// buildOutputRe finds a software project's build output: Visual Studio
// and dotnet bin, obj and publish folders, Cargo's target, CMake-style
// out folders, a CI workspace, Go's build cache and Xcode's DerivedData,
// or a bin, build, dist or out folder inside a source tree.
var buildOutputRe = regexp.MustCompile(`(?im)[\\/](source[\\/]repos|bin[\\/](debug|release)|obj[\\/](debug|release)|publish|target[\\/](debug|release)|out[\\/](debug|release)|node_modules[\\/]\.bin|jenkins[\\/]workspace|_work[\\/]\d+|go-build\d*|deriveddata)[\\/]|[\\/](src|source|repos|git|projects)[\\/][^\n]*[\\/](bin|build|dist|out)[\\/][^\\/\n]+$`)

// toolchainWriters are compilers and linkers, which write a program
// into its project's tree when they build it: Go's compile and link, the
// MSVC, .NET, Rust, C, Swift and Java toolchains.
var toolchainWriters = setOf("link.exe", "link", "compile.exe", "compile", "go.exe", "go", "ld", "ld.lld", "lld-link.exe",
	"cl.exe", "csc.exe", "vbc.exe", "msbuild.exe", "dotnet.exe", "dotnet", "rustc", "rustc.exe", "cargo", "cargo.exe",
	"gcc", "g++", "clang", "clang++", "cc", "swiftc", "swift-frontend", "javac", "zig", "zig.exe")

// sourceTreeRe finds a folder people keep source code in.
var sourceTreeRe = regexp.MustCompile(`(?i)[\\/](src|source|repos|git|projects|code|workspace)[\\/]`)

// machineLearningDetectionRe names a verdict by a machine-learning,
// static-AI or heuristic engine rather than a signature for a family.
var machineLearningDetectionRe = regexp.MustCompile(`(?i)machine[- ]learning|\bml\b|\bml/|static ai|on-write|local analysis|file analysis ml|sensor-based ml|cloud-based ml|\bheuristic|predictive|\bai\b`)

// namedThreatTerms name a ransomware or malware family in a detection.
var namedThreatTerms = append(append([]string{}, ransomwareTerms...), malwareFamilyTerms...)

// machineLearningOnly reports an alert whose detections are all a
// machine-learning or heuristic engine's verdict: one detection or engine
// (SentinelOne's "On-Write Static AI") names such an engine and none names
// a malware family or ransomware, read as the malware analyzer reads them
// (detectionTexts: a description's background sentences name nothing).
func machineLearningOnly(d *doc) bool {
	detections := append(detectionTexts(d), d.strs("engines", "engine", "detectionengine", "detectionengines")...)
	if name, _ := firstDetection(detections, namedThreatTerms); name != "" {
		return false
	}
	for _, det := range detections {
		if machineLearningDetectionRe.MatchString(det) {
			return true
		}
	}
	return false
}

// encFlagRe finds a command-line flag starting with e and a base64
// argument after it; encodedCommandArg keeps the flags PowerShell reads as
// -EncodedCommand.
var encFlagRe = regexp.MustCompile(`(?i)(?:^|\s)[-/](e[a-z]*)\s+([a-z0-9+/=]{16,})`)

// encodedCommandArg returns the flag, as written, and the base64 argument
// of PowerShell's -EncodedCommand in any abbreviation PowerShell accepts
// (-e, -ec, -en, -enc, ...), or "" when cmd has none.
func encodedCommandArg(cmd string) (flag, arg string) {
	for _, m := range encFlagRe.FindAllStringSubmatch(cmd, 20) {
		if f := strings.ToLower(m[1]); f == "ec" || strings.HasPrefix("encodedcommand", f) {
			return m[1], m[2]
		}
	}
	return "", ""
}

// decodePowerShell decodes the base64, UTF-16LE argument of PowerShell's
// -EncodedCommand, returning "" when there is none.
func decodePowerShell(cmd string) string {
	_, arg := encodedCommandArg(cmd)
	if arg == "" {
		return ""
	}
	raw, err := base64.StdEncoding.DecodeString(arg)
	if err != nil || len(raw)%2 != 0 {
		return ""
	}
	units := make([]uint16, len(raw)/2)
	for i := range units {
		units[i] = uint16(raw[2*i]) | uint16(raw[2*i+1])<<8
	}
	return strings.ToLower(string(utf16.Decode(units)))
}

// automationMarkers are strings configuration-management tools put in the
// commands they run: Ansible's module files and become marker and its
// Windows exec wrapper, the Configuration Manager client's script folder,
// Puppet, Chef and Salt agents.
var automationMarkers = [][2]string{
	{"ansiballz_", "ansible"}, {"ansible-tmp-", "ansible"}, {"become-success-", "ansible"},
	{"$exec_wrapper", "ansible"}, {"exec_wrapper_str", "ansible"},
	{`\ccm\systemtemp\`, "configmgr"}, {`\ccm\scriptstore\`, "configmgr"},
	{"puppet agent", "puppet"}, {`\puppet labs\puppet\`, "puppet"}, {"/opt/puppetlabs/", "puppet"},
	{"chef-client", "chef"}, {"/opt/chef/", "chef"}, {"salt-call", "salt"}, {"salt-minion", "salt"},
}

var gpoScriptRe = regexp.MustCompile(`(?i)\\\\[^\\]+\\sysvol\\[^\\]+\\(policies\\\{[0-9a-f-]+\}\\(user|machine)\\scripts|scripts)\\`)

// elevationTools run a person's command as another user.
var elevationTools = setOf("sudo", "su", "doas", "pkexec", "runuser", "sudo.exe", "runas.exe")

// passwordManagers map the names password managers' programs, folders and
// signers carry to the product.
var passwordManagers = [][2]string{
	{"bitwarden", "bitwarden"}, {"1password", "1password"}, {"agilebits", "1password"}, {"dashlane", "dashlane"},
	{"lastpass", "lastpass"}, {"keepassxc", "keepassxc"}, {"keepass", "keepass"}, {"roboform", "roboform"},
	{"nordpass", "nordpass"}, {"enpass", "enpass"}, {"keeper security", "keeper"}, {"keeperpasswordmanager", "keeper"},
}

// installedProgramPath reports whether the lowercased path p lies in an
// installed-program folder: Program Files, the Configuration Manager
// client's folder, /opt or /usr.
func installedProgramPath(p string) bool {
	return containsAnyTerm(p, `\program files\`, `\program files (x86)\`, `\windows\ccm\`) || strings.HasPrefix(p, "/opt/") || strings.HasPrefix(p, "/usr/")
}

func readEndpointContext(d *doc, p processFacts, f *EndpointFields) {
	c := &f.Context
	rawCmd := p.CommandLine
	if rawCmd == "" {
		rawCmd = d.str("maliciousprocessarguments")
	}
	c.DecodedCommand = decodePowerShell(rawCmd)
	parentPath := strings.ToLower(p.ParentPath)
	if parentPath == "" {
		parentPath = strings.ToLower(p.ParentCommandLine)
	}
	// sudo and su live under /usr too, but a process they start is a
	// person's command run with elevation, not installed software.
	c.ParentInstalled = installedProgramPath(parentPath) && !elevationTools[f.Parent]
	user := strings.ToLower(f.User)
	sid := d.str("userid", "usersid", "sid")
	c.SystemContext = sid == "S-1-5-18" || (user == "root" || user == "0" && linuxAudit(d)) || user == "system" || strings.HasSuffix(user, `\system`) || strings.HasSuffix(user, "$") || strings.Contains(user, "localsystem")
	c.ServiceAccount = serviceAccount(f.User) || serviceAccount(d.str("initiatingusername", "accountname", "processuser"))
	c.RemoteManagement = f.Parent == "wsmprovhost.exe" || f.Parent == "sshd" || strings.Contains(strings.ToLower(d.str("originatorprocess")), "sshd")
	text := strings.ToLower(rawCmd) + "\n" + c.DecodedCommand + "\n" + strings.ToLower(f.FilePath)
	c.AutomationTool = firstMarker(text, automationMarkers)
	c.PasswordManager = firstMarker(strings.ToLower(f.Process+"\n"+f.FilePath+"\n"+f.Signer), passwordManagers)
	if c.AutomationTool == "" {
		c.AutomationTool = firstMarker(launcherText(d, p), automationMarkers)
	}
	c.BuildOutput = buildOutputRe.MatchString(f.FilePath+"\n"+strings.Join(d.scalarStrs("filepath", "actionfilepath", "targetfilename", "processpath", "folderpath", "filefolder"), "\n")) ||
		toolchainWriters[f.Parent] && sourceTreeRe.MatchString(f.FilePath)
	c.MachineLearningOnly = machineLearningOnly(d)
	c.BuildAgent = buildAgentRe.MatchString(p.ParentCommandLine + "\n" + p.ParentPath + "\n" + p.ParentName)
	c.GroupPolicyScript = gpoScriptRe.MatchString(rawCmd+" "+f.FilePath) && (f.Parent == "userinit.exe" || f.Parent == "gpscript.exe" || f.Parent == "" || lolbins[f.Parent])
}

// launcherText is what a configuration-management tool leaves around the
// process that launched the alert's process rather than on it: the
// parent's command line and path, and the working directory of either
// (Ansible runs its module from a staging folder, ansible-tmp-*, as a
// Python child). The marker there says who started the chain.
func launcherText(d *doc, p processFacts) string {
	parts := append([]string{p.ParentCommandLine, p.ParentPath}, d.strs("parentcwd", "cwd", "workingdirectory", "currentdirectory", "processcurrentdirectory", "parentworkingdirectory")...)
	return strings.ToLower(strings.Join(parts, "\n"))
}

// linuxAudit reports whether the payload is a Linux audit record, where a
// bare "0" user is the root user id rather than a missing name.
func linuxAudit(d *doc) bool {
	return d.has("auid", "euid", "uid", "audit") || strings.HasPrefix(strings.ToLower(d.str("filepath", "path", "file")), "/")
}
