package groupcommit_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/groupcommit"
)

// Items handed in while a write is under way share the next write, in
// order, and every caller gets its own items' outcomes.
func TestConcurrentCallersShareWrites(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var sizes []int
	b := &groupcommit.Batcher[int, int]{MaxBatch: 100, MaxWriters: 1, Timeout: time.Second,
		Write: func(_ context.Context, batch []int) []int {
			mu.Lock()
			first := len(sizes) == 0
			sizes = append(sizes, len(batch))
			mu.Unlock()
			if first {
				<-release // hold the first write while the others queue
			}
			out := make([]int, len(batch))
			for i, v := range batch {
				out[i] = v * 10
			}
			return out
		}}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		if got := b.Do(1); got[0] != 10 {
			t.Errorf("first caller got %v", got)
		}
	}()
	for {
		mu.Lock()
		started := len(sizes) == 1
		mu.Unlock()
		if started {
			break
		}
		time.Sleep(time.Millisecond)
	}
	var queued sync.WaitGroup
	for c := 0; c < 20; c++ {
		wg.Add(1)
		queued.Add(1)
		go func(c int) {
			defer wg.Done()
			queued.Done()
			got := b.Do(100+2*c, 101+2*c)
			if len(got) != 2 || got[0] != (100+2*c)*10 || got[1] != (101+2*c)*10 {
				t.Errorf("caller %d got %v", c, got)
			}
		}(c)
	}
	queued.Wait()
	time.Sleep(50 * time.Millisecond) // let the twenty queue behind the held write
	close(release)
	wg.Wait()
	total := 0
	for _, n := range sizes {
		total += n
	}
	// Twenty callers queued behind one held write share one write (a
	// straggler on a loaded machine may make it two), never twenty.
	if total != 41 || sizes[0] != 1 || len(sizes) > 3 {
		t.Fatalf("writes of %v items: the queued callers should share a write", sizes)
	}
}

// A batch never holds more than MaxBatch items.
func TestBatchesAreBounded(t *testing.T) {
	var mu sync.Mutex
	biggest := 0
	b := &groupcommit.Batcher[int, bool]{MaxBatch: 3, MaxWriters: 2, Timeout: time.Second,
		Write: func(_ context.Context, batch []int) []bool {
			mu.Lock()
			biggest = max(biggest, len(batch))
			mu.Unlock()
			return make([]bool, len(batch))
		}}
	if got := b.Do(1, 2, 3, 4, 5, 6, 7); len(got) != 7 {
		t.Fatalf("%d outcomes for 7 items", len(got))
	}
	if biggest > 3 {
		t.Fatalf("a batch of %d items, bound 3", biggest)
	}
}
