package store

import "sync"

// runWatch wakes callers in this process that wait for hunt runs to end:
// the API answering an execute request waits on the run its worker, in
// the same process, is finishing. A caller in another process learns the
// end from the workflow's result instead.
type runWatch struct {
	mu      sync.Mutex
	waiting map[string][]chan struct{}
}

// WatchHuntRun returns a channel closed when this process records the end
// of run runID (FinishHuntRun or EndHuntRun, after their commit), and a
// function that stops watching. A run that ended before the watch began
// does not close it; a store made for a transaction (InTx) never does.
func (s *Store) WatchHuntRun(runID string) (ended <-chan struct{}, stop func()) {
	ch := make(chan struct{})
	w := s.runs
	if w == nil {
		return ch, func() {}
	}
	w.mu.Lock()
	if w.waiting == nil {
		w.waiting = map[string][]chan struct{}{}
	}
	w.waiting[runID] = append(w.waiting[runID], ch)
	w.mu.Unlock()
	return ch, func() {
		w.mu.Lock()
		defer w.mu.Unlock()
		list := w.waiting[runID]
		for i, c := range list {
			if c == ch {
				list = append(list[:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(w.waiting, runID)
		} else {
			w.waiting[runID] = list
		}
	}
}

// ended wakes the callers watching runID.
func (w *runWatch) ended(runID string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.waiting[runID] {
		close(c)
	}
	delete(w.waiting, runID)
}
