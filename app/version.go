package app

import (
	"runtime/debug"
	"strings"
)

// Version and Commit identify the running build. The linker may set them
// (-ldflags "-X github.com/vigil-soc/vigil/app.Version=v1.2.3 -X
// github.com/vigil-soc/vigil/app.Commit=abc123"); whatever it leaves empty
// comes from the build information Go records in the binary: the module
// version for `go install ...@v1.2.3`, the VCS revision for a build from a
// checkout.
var (
	Version string
	Commit  string
)

// devVersion names a build from a checkout with no version tag.
const devVersion = "devel"

func init() {
	Version, Commit = stamp(Version, Commit, readBuildInfo())
}

func readBuildInfo() *debug.BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return bi
}

// stamp fills what the linker left empty from the build information.
func stamp(version, commit string, bi *debug.BuildInfo) (string, string) {
	var revision string
	modified := false
	if bi != nil {
		if version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				revision = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	if commit == "" && revision != "" {
		commit = revision
		if len(commit) > 12 {
			commit = commit[:12]
		}
		if modified {
			commit += "-dirty"
		}
	}
	if version == "" {
		version = devVersion
	}
	if commit == "" {
		commit = "unknown"
	}
	return strings.TrimSpace(version), strings.TrimSpace(commit)
}

// VersionString is the one-line version the CLI prints.
func VersionString() string {
	return "vigil " + Version + " (commit " + Commit + ")"
}
