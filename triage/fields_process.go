package triage

import "strings"

// Endpoint products describe a process, its parent and its grandparent in
// fields whose names differ by vendor (Sysmon ParentCommandLine, ECS
// process.parent.command_line, Carbon Black parent_cmdline, Falcon
// parent_details.cmdline, Graph parentProcessImageFile.fileName, Splunk
// CIM parent_process) but whose place in the payload says which process
// they describe. processFacts reads them once, by role, so every endpoint
// reader and rule sees the same answer.

// processRole is which process of the chain a field describes.
type processRole int

const (
	roleSubject processRole = iota
	roleParent
	roleGrandparent
	// roleChild is a child process, or a container or pod the process
	// runs in: neither is the process itself.
	roleChild
	// roleInitiating is Defender's InitiatingProcess*: the parent when the
	// event also names the process it created, the subject otherwise.
	roleInitiating
	// roleInitiatingParent is Defender's InitiatingProcessParent*.
	roleInitiatingParent
)

// roleOfScope classifies a field by the path that holds it.
func roleOfScope(scope string) processRole {
	switch {
	case strings.Contains(scope, "grandparent") || strings.Contains(scope, "causalityactor") || strings.Contains(scope, "ancestor"):
		return roleGrandparent
	case strings.Contains(scope, "initiatingprocessparent"):
		return roleInitiatingParent
	case strings.Contains(scope, "initiatingprocess"):
		return roleInitiating
	case strings.Contains(scope, "parent") || strings.Contains(scope, "originator") || strings.Contains(scope, "lineage"):
		// SentinelOne's originator process started or wrote the threat;
		// GuardDuty's runtime lineage lists the ancestors, parent first.
		return roleParent
	case strings.Contains(scope, "childproc") || strings.Contains(scope, "child"):
		return roleChild
	case strings.Contains(scope, ".container") || strings.Contains(scope, ".pod") || strings.Contains(scope, "kubernetes"):
		// A container's image or a pod's name is not the process's.
		return roleChild
	}
	return roleSubject
}

// processAspect is what a field says about a process.
type processAspect int

const (
	aspectNone processAspect = iota
	aspectCommand
	aspectName
	aspectPath
)

// commandKeyNames hold a whole command line; "process" and "parentprocess"
// do so in the Splunk CIM and are read only as plain strings.
var commandKeyNames = setOf("commandline", "cmdline", "processcommandline", "processcmdline", "command", "cmd",
	"scriptblocktext", "parentcommandline", "parentcmdline", "imagecommandline", "processimagecommandline")

// argvKeyNames hold an argument vector as a list, as macOS and Linux
// sensors (Jamf Protect, Endpoint Security events, ECS's process.args)
// give it: read whole, never element by element.
var argvKeyNames = setOf("args", "argv", "processargs")

// nameKeyNames name the program a process runs.
var nameKeyNames = setOf("processname", "filename", "imagefilename", "imagename", "newprocessname", "processfilename",
	"basefilename", "originatorprocess", "parentname", "parentprocessname", "parentimagefilename", "parentbasefilename",
	"parentfilename", "parentprocessfilename", "processimagename", "imagefilefilename", "parentprocessimagefilefilename",
	"detailsfilename", "parentdetailsfilename", "initiatingprocessfilename", "initiatingprocessparentfilename",
	// Linux audit records name the program comm and its path exe.
	"comm")

// pathKeyNames give the program's full path.
var pathKeyNames = setOf("filepath", "imagepath", "image", "processpath", "folderpath", "executable", "processexecutable", "executablepath",
	"parentimage", "parentpath", "parentexecutable", "parentprocesspath", "parentprocessfilepath", "processimagepath",
	"imagefilefilepath", "parentprocessimagefilefilepath", "detailsfilepath", "parentdetailsfilepath",
	"initiatingprocessfolderpath", "targetfilename", "path",
	// Falco and Sysdig name the executable's path proc.exepath.
	"exepath", "procexepath", "processexepath", "exe")

// aspectOf classifies a field key. A bare "name" counts only inside a
// process or parent object (process.parent.name, parent.name).
func aspectOf(e entry) processAspect {
	k := e.key
	switch {
	case commandKeyNames[k] || argvKeyNames[k] || strings.HasSuffix(k, "commandline") || strings.HasSuffix(k, "cmdline"):
		return aspectCommand
	case nameKeyNames[k]:
		return aspectName
	case pathKeyNames[k]:
		return aspectPath
	case k == "name" && (strings.HasSuffix(e.scope, "process.name") || strings.HasSuffix(e.scope, "parent.name")):
		return aspectName
	case k == "process" || k == "parentprocess" || k == "parent":
		// The CIM's process and parent_process hold command lines, other
		// schemas a name; both start with the program.
		return aspectCommand
	}
	return aspectNone
}

// processFacts is one process chain as the payload describes it. Command
// lines keep their case; names are lowercased base names.
type processFacts struct {
	CommandLine, Name, Path                   string
	ParentCommandLine, ParentName, ParentPath string
	GrandparentName                           string
	// Commands is every command line in the payload, whatever process it
	// belongs to (trees, storylines, children), lowercased.
	Commands string
	// ParentNames is every parent name, path and command line in the
	// payload (a detection lists several behaviours), lowercased.
	ParentNames string
}

// readProcessFacts resolves the process chain of d.
func readProcessFacts(d *doc) processFacts {
	var byRole [roleInitiatingParent + 1][aspectPath + 1]string
	var argvs [roleInitiatingParent + 1]string
	var all, parents []string
	for _, e := range d.entries {
		aspect := aspectOf(e)
		if aspect == aspectNone {
			continue
		}
		if argvKeyNames[e.key] {
			// An argument vector stands in for a command line only
			// where the payload gives none (see below).
			if argv := argvString(e.val); argv != "" && argvs[roleOfScope(e.scope)] == "" {
				argvs[roleOfScope(e.scope)] = argv
			}
			continue
		}
		s := scalarString(e.val)
		if s == "" {
			continue
		}
		if aspect == aspectCommand && isBareProgram(e.key, s) {
			// The CIM's process holds a command line, Trellix's a name.
			aspect = aspectName
		}
		if aspect == aspectCommand {
			all = append(all, s)
		}
		role := roleOfScope(e.scope)
		if role == roleParent || role == roleInitiating {
			parents = append(parents, s)
		}
		if byRole[role][aspect] == "" {
			byRole[role][aspect] = s
		}
	}
	for role, argv := range argvs {
		if argv != "" && byRole[role][aspectCommand] == "" {
			byRole[role][aspectCommand] = argv
			all = append(all, argv)
		}
	}
	subject, parent, grand := byRole[roleSubject], byRole[roleParent], byRole[roleGrandparent]
	direct := subject[aspectCommand] != "" || subject[aspectName] != ""
	init, initParent := byRole[roleInitiating], byRole[roleInitiatingParent]
	if direct {
		parent = fillFrom(parent, init)
		grand = fillFrom(grand, initParent)
	} else {
		subject = fillFrom(init, subject)
		parent = fillFrom(parent, initParent)
	}
	p := processFacts{
		CommandLine:       subject[aspectCommand],
		Path:              subject[aspectPath],
		ParentCommandLine: parent[aspectCommand],
		ParentPath:        parent[aspectPath],
		Commands:          lowerJoin(all),
		ParentNames:       lowerJoin(parents),
	}
	p.Name = programName(subject[aspectName], subject[aspectPath], subject[aspectCommand])
	p.ParentName = programName(parent[aspectName], parent[aspectPath], parent[aspectCommand])
	p.GrandparentName = programName(grand[aspectName], grand[aspectPath], grand[aspectCommand])
	return p
}

// argvString joins an argument vector given as a list of strings into
// one command line, or returns "" for anything else.
func argvString(v any) string {
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		return ""
	}
	args := make([]string, 0, len(list))
	for _, a := range list {
		s, ok := a.(string)
		if !ok {
			return ""
		}
		args = append(args, s)
	}
	return strings.Join(args, " ")
}

// isBareProgram reports a "process" or "parent" field that names a
// program without arguments.
func isBareProgram(key, value string) bool {
	switch key {
	case "process", "parentprocess", "parent":
		return programOf(value) == value && !strings.Contains(value, " -") && !strings.Contains(value, " /")
	}
	return false
}

// fillFrom fills the aspects to leaves empty from from.
func fillFrom(to, from [aspectPath + 1]string) [aspectPath + 1]string {
	for i := range to {
		if to[i] == "" {
			to[i] = from[i]
		}
	}
	return to
}

// programName is the lowercased base name of the program, from the first
// of a name, a path or a command line that is given.
func programName(name, path, command string) string {
	for _, s := range []string{name, path} {
		if s = strings.TrimSpace(s); s != "" {
			return baseName(programOf(s))
		}
	}
	if command != "" {
		return baseName(programOf(command))
	}
	return ""
}

// programOf returns the program a string names, whether it is a bare name,
// a path (with spaces: C:\Program Files\App\app.exe) or a whole command
// line, quoted or not.
func programOf(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) {
		return commandImage(s)
	}
	if first := commandImage(s); !strings.ContainsAny(first, `\/`) {
		// A bare program name ends at the first space (cmd /c ...).
		return first
	}
	lower := strings.ToLower(s)
	for _, ext := range []string{".exe", ".com", ".bat", ".cmd", ".scr"} {
		if i := strings.Index(lower, ext); i >= 0 && (i+len(ext) == len(s) || s[i+len(ext)] == ' ' || s[i+len(ext)] == '"') {
			return s[:i+len(ext)]
		}
	}
	if strings.ContainsAny(s, `\`) && !strings.Contains(s, " -") && !strings.Contains(s, " /") {
		return s
	}
	return commandImage(s)
}

// scalarString returns v when it is a non-empty string, or the first
// non-empty string of a list of strings (ECS process.args, CIM multivalues).
func scalarString(v any) string {
	switch t := v.(type) {
	case string:
		return strings.TrimSpace(t)
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
				return strings.TrimSpace(s)
			}
		}
	}
	return ""
}

// subjectStr is scalarStr limited to fields that describe the process
// itself, not its parent, grandparent or children.
func (d *doc) subjectStr(names ...string) string {
	want := setOf(names...)
	for _, e := range d.entries {
		if !want[e.key] || roleOfScope(e.scope) != roleSubject {
			continue
		}
		if s := scalarString(e.val); s != "" {
			return s
		}
	}
	return ""
}

// subjectBool is boolean limited to fields that describe the process
// itself: a signed parent does not make its child signed.
func (d *doc) subjectBool(names ...string) (value, found bool) {
	want := setOf(names...)
	for _, e := range d.entries {
		if !want[e.key] || roleOfScope(e.scope) != roleSubject {
			continue
		}
		if b, ok := asBool(e.val); ok {
			return b, true
		}
	}
	return false, false
}
