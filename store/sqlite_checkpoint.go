package store

import (
	"context"
	"sync"
	"time"
)

// checkpointEvery is how often the store moves SQLite's write-ahead log
// into the database file.
const checkpointEvery = 250 * time.Millisecond

// checkpointer copies SQLite's write-ahead log into the database file in
// the background. SQLite's own automatic checkpoint runs inside the commit
// that crosses its threshold (1,000 pages), so one request in a few
// hundred waited for megabytes to be copied and synced; with the automatic
// checkpoint off (wal_autocheckpoint(0) in the DSN), this loop does the
// same work off every request's path. PASSIVE never waits for readers or
// writers: what it cannot copy now, the next round does.
type checkpointer struct {
	stop context.CancelFunc
	done sync.WaitGroup
}

// startCheckpointer runs the checkpoint loop until stopped.
func startCheckpointer(s *Store) *checkpointer {
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{stop: cancel}
	c.done.Add(1)
	go func() {
		defer c.done.Done()
		t := time.NewTicker(checkpointEvery)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				// An error (the database busy or closing) leaves the work
				// to the next round.
				_ = s.db.WithContext(ctx).Exec("PRAGMA wal_checkpoint(PASSIVE)").Error
			}
		}
	}()
	return c
}

// close stops the loop and waits for a checkpoint under way.
func (c *checkpointer) close() {
	if c == nil {
		return
	}
	c.stop()
	c.done.Wait()
}
