package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func TestReplaysAreRefusedUntilSwept(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	fresh := &store.Replay{Key: "sig-fresh", ExpiresAt: time.Now().Add(time.Hour)}
	stale := &store.Replay{Key: "sig-stale", ExpiresAt: time.Now().Add(-time.Second)}
	for _, r := range []*store.Replay{fresh, stale} {
		if _, err := st.EnqueueAlert(ctx, "edr", []byte(`{}`), r); err != nil {
			t.Fatal(err)
		}
		if _, err := st.EnqueueAlert(ctx, "edr", []byte(`{}`), r); !errors.Is(err, store.ErrReplay) {
			t.Fatalf("second use of %s: %v, want ErrReplay", r.Key, err)
		}
	}
	if err := st.SweepReplays(ctx); err != nil {
		t.Fatal(err)
	}
	// The stale signature is forgotten (the timestamp window refuses it
	// now); the fresh one is still remembered.
	if _, err := st.EnqueueAlert(ctx, "edr", []byte(`{}`), stale); err != nil {
		t.Fatalf("stale signature after sweep: %v", err)
	}
	if _, err := st.EnqueueAlert(ctx, "edr", []byte(`{}`), fresh); !errors.Is(err, store.ErrReplay) {
		t.Fatalf("fresh signature after sweep: %v, want ErrReplay", err)
	}
}
