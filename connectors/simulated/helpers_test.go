package simulated_test

import (
	"context"
	"errors"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/simulated"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// env is a simulated connector set on a fresh store with a fake clock.
type env struct {
	st    *store.Store
	set   connectors.Set
	clock *fakeClock
}

func newEnv(t *testing.T) env {
	t.Helper()
	st := testenv.OpenStore(t)
	clock := newClock()
	return env{st: st, set: simulated.New(st, simulated.WithClock(clock.Now)), clock: clock}
}

// mustOK returns a check that fails unless a call succeeded with a
// simulated result; curried so it takes a call's two results directly:
// mustOK(t)(gw.Quarantine(...)).
func mustOK(t *testing.T) func(connectors.Result, error) connectors.Result {
	return func(res connectors.Result, err error) connectors.Result {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		if !res.Success || !strings.HasPrefix(res.Message, "[simulated] ") || res.Output["simulated"] != true {
			t.Fatalf("result is not a successful simulated result: %+v", res)
		}
		return res
	}
}

// mustPermanent fails unless err is a permanent error with the message.
func mustPermanent(t *testing.T, err error, msg string) {
	t.Helper()
	if !errors.Is(err, connectors.ErrPermanent) {
		t.Fatalf("error %v is not permanent", err)
	}
	if err.Error() != msg {
		t.Fatalf("error %q, want %q", err.Error(), msg)
	}
}

// outputKeys returns the output's field names without the simulated flag.
func outputKeys(res connectors.Result) []string {
	var keys []string
	for k := range res.Output {
		if k != "simulated" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func mustKeys(t *testing.T, res connectors.Result, want ...string) {
	t.Helper()
	sort.Strings(want)
	if got := outputKeys(res); !reflect.DeepEqual(got, want) {
		t.Fatalf("output fields %v, want %v (output %v)", got, want, res.Output)
	}
}

func callCount(t *testing.T, st *store.Store, key string) int64 {
	t.Helper()
	n, err := simulated.CallCount(context.Background(), st, key)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func rowCount(t *testing.T, st *store.Store, table string) int64 {
	t.Helper()
	var n int64
	if err := st.DB().Table(table).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}
