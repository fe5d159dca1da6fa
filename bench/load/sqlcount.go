package main

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"gorm.io/gorm"
)

// sqlCounter counts the statements Vigil sends through its store, by
// shape (the statement with its values and placeholders folded), so a
// path's cost is read in statements per operation rather than guessed.
type sqlCounter struct {
	on     atomic.Bool
	mu     sync.Mutex
	shapes map[string]int
	total  int
	last   time.Time
}

// countSQL registers the counter's callbacks on db; counting starts when
// start is called.
func countSQL(db *gorm.DB) (*sqlCounter, error) {
	c := &sqlCounter{shapes: map[string]int{}}
	cb := db.Callback()
	for _, reg := range []func() error{
		func() error { return cb.Create().After("gorm:create").Register("bench:count_create", c.count) },
		func() error { return cb.Query().After("gorm:query").Register("bench:count_query", c.count) },
		func() error { return cb.Update().After("gorm:update").Register("bench:count_update", c.count) },
		func() error { return cb.Delete().After("gorm:delete").Register("bench:count_delete", c.count) },
		func() error { return cb.Row().After("gorm:row").Register("bench:count_row", c.count) },
		func() error { return cb.Raw().After("gorm:raw").Register("bench:count_raw", c.count) },
	} {
		if err := reg(); err != nil {
			return nil, fmt.Errorf("count statements: %w", err)
		}
	}
	return c, nil
}

// foldValues turns literals and placeholder lists into one symbol each.
var foldValues = regexp.MustCompile(`'[^']*'|\$\d+|\b\d+\b|\?`)

// foldLists collapses repeated placeholder groups of a multi-row statement.
var foldLists = regexp.MustCompile(`(\(_(?:,\s*_)*\))(?:,\s*\(_(?:,\s*_)*\))+`)

func (c *sqlCounter) count(db *gorm.DB) {
	if !c.on.Load() || db.Statement == nil {
		return
	}
	shape := foldValues.ReplaceAllString(db.Statement.SQL.String(), "_")
	shape = foldLists.ReplaceAllString(shape, "$1, ...")
	if len(shape) > 110 {
		shape = shape[:110] + "…"
	}
	c.mu.Lock()
	c.shapes[shape]++
	c.total++
	c.last = time.Now()
	c.mu.Unlock()
}

func (c *sqlCounter) start() {
	c.mu.Lock()
	c.shapes, c.total = map[string]int{}, 0
	c.mu.Unlock()
	c.on.Store(true)
}

// settle waits until no statement was counted for quiet (the runs the
// measured operations left behind have ended), then stops counting.
func (c *sqlCounter) settle(quiet, limit time.Duration) {
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		c.mu.Lock()
		idle := time.Since(c.last)
		c.mu.Unlock()
		if idle >= quiet {
			break
		}
		time.Sleep(quiet / 4)
	}
	c.on.Store(false)
}

// report writes statements per operation, the busiest shapes first.
func (c *sqlCounter) report(w io.Writer, what string, ops int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	type row struct {
		shape string
		n     int
	}
	rows := make([]row, 0, len(c.shapes))
	for s, n := range c.shapes {
		rows = append(rows, row{s, n})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].n > rows[j].n })
	fmt.Fprintf(w, "\nStatements per %s (%d %ss): %.2f\n\n| per op | statement |\n|--:|---|\n", what, ops, what, float64(c.total)/float64(ops))
	for _, r := range rows {
		fmt.Fprintf(w, "| %.2f | `%s` |\n", float64(r.n)/float64(ops), strings.ReplaceAll(r.shape, "|", `\|`))
	}
}
