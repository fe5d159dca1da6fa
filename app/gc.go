package app

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
)

// The garbage collector's defaults for a Vigil process. Vigil's live heap
// is small and every request allocates, so Go's default (collect when the
// heap has doubled) runs a collection many times a second under load. A
// heap allowed to grow to five times the live data collects a quarter as
// often: at a million incidents the default list page went from 2983 to
// 3435 requests per second and its p99 from 18.0 to 15.2 ms
// (bench/README.md). The soft limit keeps a process with a large live heap
// from growing past it unchecked.
const (
	// DefaultGCPercent is the GOGC a Vigil process runs with when GOGC is
	// not set.
	DefaultGCPercent = 400
	// DefaultMemoryLimit is the soft memory limit (bytes) a Vigil process
	// runs with when GOMEMLIMIT is not set.
	DefaultMemoryLimit = 1 << 30
)

// GCSettings are the garbage collector settings a process runs with.
type GCSettings struct {
	// Percent is GOGC: how far the heap grows past the live data before a
	// collection, in percent.
	Percent int
	// MemoryLimit is the soft memory limit in bytes (math.MaxInt64: none).
	MemoryLimit int64
}

// TuneGC applies Vigil's garbage collector defaults, each only where its
// environment variable (GOGC, GOMEMLIMIT) leaves the choice to Vigil, and
// returns the settings now in effect. Every process that serves Vigil's
// API or runs its worker calls it first, and so do the benchmarks that
// host them.
func TuneGC() GCSettings {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(DefaultGCPercent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(DefaultMemoryLimit)
	}
	return currentGC()
}

// currentGC reads the garbage collector settings in effect.
func currentGC() GCSettings {
	samples := []metrics.Sample{{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"}}
	metrics.Read(samples)
	return GCSettings{Percent: int(int64(samples[0].Value.Uint64())), MemoryLimit: int64(samples[1].Value.Uint64())}
}

// String renders the settings as the environment variables would.
func (g GCSettings) String() string {
	if g.MemoryLimit == math.MaxInt64 {
		return fmt.Sprintf("GOGC=%d GOMEMLIMIT=off", g.Percent)
	}
	return fmt.Sprintf("GOGC=%d GOMEMLIMIT=%dMiB", g.Percent, g.MemoryLimit>>20)
}
