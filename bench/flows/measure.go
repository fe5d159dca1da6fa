package main

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vigil-soc/vigil/bench/internal/verdict"
)

// row is one measured path, with its baseline when it has one.
type row struct {
	name     string
	ops      int
	elapsed  time.Duration
	lat      []time.Duration
	baseline *row
}

func (r row) perSecond() float64 { return float64(r.ops) / r.elapsed.Seconds() }

func (r row) pct(p float64) time.Duration {
	if len(r.lat) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), r.lat...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// measure runs fn ops times on conc goroutines and records each latency.
func measure(name string, ops, conc int, fn func(i int) error) (row, error) {
	var (
		mu   sync.Mutex
		lat  = make([]time.Duration, 0, ops)
		errs []error
		wg   sync.WaitGroup
		next = make(chan int)
	)
	start := time.Now()
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				err := fn(i)
				mu.Lock()
				lat = append(lat, time.Since(t0))
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range ops {
		next <- i
	}
	close(next)
	wg.Wait()
	if len(errs) > 0 {
		return row{}, fmt.Errorf("%s: %d of %d failed, first: %w", name, len(errs), ops, errs[0])
	}
	return row{name: name, ops: ops, elapsed: time.Since(start), lat: lat}, nil
}

// measurePair runs ops operations of each of two paths one after the
// other, alternating a then b, so both meet the same background load on a
// shared machine; b's row gets a's as its baseline.
func measurePair(ops int, nameA string, a func(i int) error, nameB string, b func(i int) error) (row, error) {
	ra := row{name: nameA, ops: ops}
	rb := row{name: nameB, ops: ops, baseline: &ra}
	for i := range ops {
		for _, p := range []struct {
			r  *row
			fn func(int) error
		}{{&ra, a}, {&rb, b}} {
			t0 := time.Now()
			if err := p.fn(i); err != nil {
				return row{}, fmt.Errorf("%s: operation %d: %w", p.r.name, i, err)
			}
			d := time.Since(t0)
			p.r.lat = append(p.r.lat, d)
			p.r.elapsed += d
		}
	}
	return rb, nil
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64)
}

// latencyVerdict compares p99 latencies.
func latencyVerdict(r row, goal float64) verdict.Verdict {
	b := *r.baseline
	return verdict.AtMost(r.name,
		fmt.Sprintf("p50 %s ms, p99 %s ms", ms(r.pct(0.5)), ms(r.pct(0.99))),
		fmt.Sprintf("%s: p50 %s ms, p99 %s ms", b.name, ms(b.pct(0.5)), ms(b.pct(0.99))),
		float64(r.pct(0.99))/float64(b.pct(0.99)), verdict.OfP99, goal)
}

// throughputVerdict compares operations per second.
func throughputVerdict(r row, goal float64) verdict.Verdict {
	b := *r.baseline
	return verdict.AtLeast(r.name,
		fmt.Sprintf("%.1f/s (p50 %s ms)", r.perSecond(), ms(r.pct(0.5))),
		fmt.Sprintf("%s: %.1f/s", b.name, b.perSecond()),
		r.perSecond()/b.perSecond(), verdict.OfThroughput, goal)
}

func printVerdicts(vs []verdict.Verdict) {
	verdict.Print(os.Stdout, vs)
}

func parseList(s string) []int {
	var out []int
	for _, p := range strings.Split(s, ",") {
		if n, err := strconv.Atoi(strings.TrimSpace(p)); err == nil && n > 0 {
			out = append(out, n)
		}
	}
	return out
}
