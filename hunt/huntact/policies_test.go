package huntact

import (
	"context"
	"testing"

	"github.com/vigil-soc/vigil/outbound"
)

// The outbound policy is read once per run, at its first HTTP query, and
// again for the next run: an admin's change holds from the next run.
func TestOutboundPolicyReadOncePerRun(t *testing.T) {
	var reads int
	current := outbound.Policy{AllowHTTP: true}
	read := func(context.Context) outbound.Policy { reads++; return current }
	var r runPolicies
	ctx := context.Background()
	for _, step := range []struct {
		run       string
		change    bool
		wantHTTP  bool
		wantReads int
	}{
		{"r1", false, true, 1},
		{"r1", true, true, 1}, // changed mid-run: r1 keeps what it read
		{"r1", false, true, 1},
		{"r2", false, false, 2},
		{"r2", false, false, 2},
	} {
		if step.change {
			current = outbound.Policy{}
		}
		if got := r.forRun(step.run, read)(ctx); got.AllowHTTP != step.wantHTTP || reads != step.wantReads {
			t.Fatalf("%s: allow_http %v after %d reads, want %v after %d", step.run, got.AllowHTTP, reads, step.wantHTTP, step.wantReads)
		}
	}
	getter := r.forRun("r3", read)
	if reads != 2 {
		t.Fatal("a run that makes no HTTP query read the policy")
	}
	r.done("r1")
	if _, ok := r.m["r1"]; ok || getter(ctx).AllowHTTP {
		t.Fatal("a finished run is kept, or r3 read a stale policy")
	}
}
