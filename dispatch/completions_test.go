package dispatch

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// TestCompletionsMarkEveryEntryDone: entries completed side by side are
// all marked done, each with its own incident, whichever batch takes them.
func TestCompletionsMarkEveryEntryDone(t *testing.T) {
	ctx := context.Background()
	st, cleanup, err := testenv.NewStore(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	const n = 40
	items := make([]*store.IntakeItem, n)
	for i := range items {
		if items[i], err = st.EnqueueAlert(ctx, "edr", []byte(`{}`), nil); err != nil {
			t.Fatal(err)
		}
	}
	c := newCompletions(st)
	var wg sync.WaitGroup
	for i, it := range items {
		wg.Go(func() {
			if err := c.complete(it.Seq, fmt.Sprintf("inc-%d", i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	for i, it := range items {
		var got store.IntakeItem
		if err := st.DB().Take(&got, "seq = ?", it.Seq).Error; err != nil {
			t.Fatal(err)
		}
		if got.Status != store.IntakeDone || got.IncidentID != fmt.Sprintf("inc-%d", i) {
			t.Errorf("entry %d: status %s incident %q", i, got.Status, got.IncidentID)
		}
	}
}
