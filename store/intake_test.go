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

func TestCompleteIntakesMarksEachWithItsIncident(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	var items []*store.IntakeItem
	for range 3 {
		it, err := st.EnqueueAlert(ctx, "edr", []byte(`{}`), nil)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it)
	}
	done := []store.IntakeCompletion{
		{Seq: items[0].Seq, IncidentID: "inc-a"},
		{Seq: items[2].Seq, IncidentID: "inc-c"},
	}
	if err := st.CompleteIntakes(ctx, done); err != nil {
		t.Fatal(err)
	}
	left, err := st.NextIntakes(ctx, 10, store.IntakeAlert)
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0].Seq != items[1].Seq {
		t.Fatalf("queued after completing two of three: %+v", left)
	}
	want := map[int64]string{items[0].Seq: "inc-a", items[2].Seq: "inc-c"}
	for seq, incidentID := range want {
		var it store.IntakeItem
		if err := st.DB().Take(&it, "seq = ?", seq).Error; err != nil {
			t.Fatal(err)
		}
		if it.Status != store.IntakeDone || it.IncidentID != incidentID {
			t.Errorf("entry %d: status %s incident %q, want done with %q", seq, it.Status, it.IncidentID, incidentID)
		}
	}
}
