package app

import (
	"runtime/debug"
	"testing"
)

func TestStampPrefersLinkerThenBuildInfo(t *testing.T) {
	checkout := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	tagged := &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "fedcba9876543210"}}}
	cases := []struct {
		name, version, commit string
		bi                    *debug.BuildInfo
		wantV, wantC          string
	}{
		{"checkout", "", "", checkout, "devel", "0123456789ab-dirty"},
		{"module version", "", "", tagged, "v1.4.0", "fedcba987654"},
		{"linker wins", "v2.0.0", "abc", tagged, "v2.0.0", "abc"},
		{"no build info", "", "", nil, "devel", "unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, cm := stamp(c.version, c.commit, c.bi)
			if v != c.wantV || cm != c.wantC {
				t.Fatalf("stamp = %q %q, want %q %q", v, cm, c.wantV, c.wantC)
			}
		})
	}
}
