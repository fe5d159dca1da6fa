package dispatch

import (
	"context"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
)

type countingPurger struct{ calls int }

func (p *countingPurger) PurgeExpired(context.Context) (int64, error) {
	p.calls++
	return 0, nil
}

// TestSweepPurgesIntelCache: every sweep purges the intel cache, which
// otherwise keeps every indicator it ever rated.
func TestSweepPurgesIntelCache(t *testing.T) {
	ctx := context.Background()
	st, cleanup, err := testenv.NewStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	p := &countingPurger{}
	d := NewDispatcher(st, &Launcher{Store: st}, nil, testenv.Logger())
	d.IntelCache = p
	d.sweep(ctx)
	d.sweep(ctx)
	if p.calls != 2 {
		t.Fatalf("intel cache purged %d times in two sweeps", p.calls)
	}
}
