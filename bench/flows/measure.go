package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
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

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64)
}

func printRows(rows []row) {
	fmt.Println("| path | ops | ops/s | p50 ms | p99 ms | vs baseline |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, r := range rows {
		ratio := "baseline"
		if b := r.baseline; b != nil {
			ratio = fmt.Sprintf("p50 x%.2f, throughput x%.2f", float64(r.pct(0.5))/float64(b.pct(0.5)), r.perSecond()/b.perSecond())
		}
		fmt.Printf("| %s | %d | %.1f | %s | %s | %s |\n", r.name, r.ops, r.perSecond(), ms(r.pct(0.5)), ms(r.pct(0.99)), ratio)
	}
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
