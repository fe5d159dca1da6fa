package triage

import (
	"path"
	"strings"
)

// hijackedLibraries are Windows system libraries that programs load by
// bare name, so a copy planted beside a program in its own folder is
// loaded first: the libraries DLL side-loading and search-order hijacking
// plant most (T1574.002, T1574.001).
var hijackedLibraries = setOf("version.dll", "dbghelp.dll", "dbgcore.dll", "winmm.dll", "uxtheme.dll", "dwmapi.dll",
	"cryptbase.dll", "cryptsp.dll", "wtsapi32.dll", "userenv.dll", "winhttp.dll", "wininet.dll", "secur32.dll",
	"msimg32.dll", "dxgi.dll", "propsys.dll", "iphlpapi.dll", "netapi32.dll", "mpclient.dll", "wsock32.dll",
	"edputil.dll", "profapi.dll", "textshaping.dll", "dpapi.dll", "ktmw32.dll")

// sideloadedLibrary returns the path of a system library's name that the
// payload lists as a file in a user-writable folder with no signature (the
// signer missing, empty or "unsigned"), or "". Windows keeps its own
// copies, signed, in System32; an unsigned one in a user's folder is
// there to be loaded by the program beside it.
func sideloadedLibrary(d *doc) string {
	found := ""
	walkMaps(d.raw, 0, func(m map[string]any) {
		if found != "" {
			return
		}
		name, dir, signed := libraryEntity(m)
		if hijackedLibraries[name] && !signed && writable(dir+"/") {
			found = dir + "/" + name
		}
	})
	return found
}

// libraryEntity reads one object as a file: its lower-case name, the
// folder it sits in, and whether it names a signer.
func libraryEntity(m map[string]any) (name, dir string, signed bool) {
	fields := map[string]any{}
	for k, v := range m {
		fields[normKey(k)] = v
	}
	text := func(keys ...string) string {
		for _, k := range keys {
			if s, ok := fields[k].(string); ok && strings.TrimSpace(s) != "" {
				return slashPath(strings.TrimSpace(s))
			}
		}
		return ""
	}
	name = text("filename", "name", "imagename")
	where := text("filepath", "folderpath", "path", "directory", "filedirectory")
	switch {
	case name == "" && strings.HasSuffix(where, ".dll"):
		name, dir = path.Base(where), path.Dir(where)
	case strings.HasSuffix(where, "/"+name):
		dir = path.Dir(where)
	default:
		dir = strings.TrimSuffix(where, "/")
	}
	signer := strings.ToLower(text("signer", "signername", "publisher", "signaturesigner", "certificatesubject"))
	status := normKey(text("signaturestatus", "signingstatus", "signaturestate"))
	signed = signer != "" && signer != "unsigned" && signer != "none" && !strings.Contains(status, "unsigned") && !strings.Contains(status, "notsigned")
	return name, dir, signed
}
