package app

import (
	"os"
	"runtime/debug"
	"testing"
)

// keepGC restores the process's collector settings after a test.
func keepGC(t *testing.T) {
	before := currentGC()
	t.Cleanup(func() {
		debug.SetGCPercent(before.Percent)
		debug.SetMemoryLimit(before.MemoryLimit)
	})
}

// unsetEnv removes an environment variable for the test's duration.
func unsetEnv(t *testing.T, key string) {
	t.Setenv(key, "")
	if err := os.Unsetenv(key); err != nil {
		t.Fatal(err)
	}
}

func TestTuneGCAppliesVigilsDefaultsWhenTheEnvironmentLeavesThemOpen(t *testing.T) {
	keepGC(t)
	unsetEnv(t, "GOGC")
	unsetEnv(t, "GOMEMLIMIT")
	debug.SetGCPercent(100)
	got := TuneGC()
	want := GCSettings{Percent: DefaultGCPercent, MemoryLimit: DefaultMemoryLimit}
	if got != want || currentGC() != want {
		t.Fatalf("TuneGC() = %v, in effect %v; want %v", got, currentGC(), want)
	}
	if s := got.String(); s != "GOGC=400 GOMEMLIMIT=1024MiB" {
		t.Fatalf("String() = %q", s)
	}
}

func TestTuneGCLeavesWhatTheEnvironmentChose(t *testing.T) {
	keepGC(t)
	// The runtime reads both variables at start; set them as it would have.
	t.Setenv("GOGC", "150")
	t.Setenv("GOMEMLIMIT", "300MiB")
	debug.SetGCPercent(150)
	debug.SetMemoryLimit(300 << 20)
	got := TuneGC()
	if want := (GCSettings{Percent: 150, MemoryLimit: 300 << 20}); got != want {
		t.Fatalf("TuneGC() = %v, want the environment's %v", got, want)
	}
}
