package store_test

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// openPostgres opens the test store on PostgreSQL, and skips the test when
// TEST_DATABASE_URL is not set; why says what the test needs PostgreSQL for.
func openPostgres(t *testing.T, why string) *store.Store {
	t.Helper()
	if os.Getenv("TEST_DATABASE_URL") == "" {
		t.Skip("TEST_DATABASE_URL not set: " + why)
	}
	st := testenv.OpenStore(t)
	if st.Dialect() != store.DialectPostgres {
		t.Fatalf("dialect %q, want postgres", st.Dialect())
	}
	return st
}

// After a burst that used every PostgreSQL connection the pool may open,
// the pool keeps them all: none is closed for being idle, so the next burst
// pays for no new server process, login or statement preparation.
func TestPostgresPoolKeepsItsConnectionsAfterABurst(t *testing.T) {
	st := openPostgres(t, "the pool under test is PostgreSQL's")
	sqlDB, err := st.SQL()
	if err != nil {
		t.Fatal(err)
	}
	size := sqlDB.Stats().MaxOpenConnections
	if size < 2 {
		t.Fatalf("pool of %d connections, want a bounded pool of several", size)
	}
	ctx := context.Background()
	// Each worker holds its connection until all of them hold one, so the
	// burst really opens the whole pool.
	var held, release sync.WaitGroup
	held.Add(size)
	release.Add(1)
	errs := make(chan error, size)
	for range size {
		go func() {
			conn, err := sqlDB.Conn(ctx)
			held.Done()
			if err != nil {
				errs <- err
				return
			}
			defer conn.Close()
			release.Wait()
			errs <- conn.PingContext(ctx)
		}()
	}
	held.Wait()
	release.Done()
	for range size {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	stats := sqlDB.Stats()
	if stats.MaxIdleClosed != 0 || stats.Idle != size {
		t.Fatalf("after a burst of %d: %d idle, %d closed for being idle; want all %d kept", size, stats.Idle, stats.MaxIdleClosed, size)
	}
}
