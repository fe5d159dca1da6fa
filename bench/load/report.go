package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/vigil-soc/vigil/app"
)

// result is one table row. Baseline rows have no base; every other row is
// compared with the baseline it names.
type result struct {
	ID     string // row number as the README refers to it, e.g. "4b"
	Name   string
	Stats  stats
	BaseID string
	Base   *stats
}

// section is one table with the notes printed under it.
type section struct {
	Title   string
	Results []result
	Notes   []string
}

func (s *section) add(r result) { s.Results = append(s.Results, r) }

func (s *section) note(format string, args ...any) {
	s.Notes = append(s.Notes, fmt.Sprintf(format, args...))
}

// machine describes where the numbers were taken; absolute numbers mean
// little without it.
type machine struct {
	Date          time.Time
	CPUModel      string
	Postgres      string
	SQLite        string
	Args          string
	Elapsed       time.Duration
	WarmupPerCase int
	// LoadBefore is the one-minute load average before the run; later
	// readings would mostly count the bench's own threads.
	LoadBefore string
	// GC is the garbage collector's settings, Vigil's defaults unless the
	// environment chose (app.TuneGC): the process hosts Vigil's API and
	// worker as `vigil serve` does.
	GC app.GCSettings
}

// loadAvg reads the one-minute load average on Linux, so a report taken on
// a busy machine says so; elsewhere it is empty.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// cpuModel reads the processor name on Linux; elsewhere it stays unknown,
// which only costs the report one detail.
func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func writeReport(w io.Writer, m machine, sections []section) {
	fmt.Fprintf(w, "## Vigil load benchmark, %s\n\n", m.Date.UTC().Format("2006-01-02 15:04 MST"))
	cpu := fmt.Sprintf("%d CPUs", runtime.NumCPU())
	if m.CPUModel != "" {
		cpu += " (" + m.CPUModel + ")"
	}
	fmt.Fprintf(w, "Machine: %s, %s/%s, %s", cpu, runtime.GOOS, runtime.GOARCH, runtime.Version())
	if m.Postgres != "" {
		fmt.Fprintf(w, ", PostgreSQL %s", m.Postgres)
	}
	if m.SQLite != "" {
		fmt.Fprintf(w, ", SQLite %s", m.SQLite)
	}
	if m.LoadBefore != "" {
		fmt.Fprintf(w, "; load average %s before the run", m.LoadBefore)
	}
	fmt.Fprintf(w, "; %s", m.GC)
	fmt.Fprintf(w, ".\n\nRun: `%s`; %d warm-up operations before each measurement; total %s.\n",
		m.Args, m.WarmupPerCase, m.Elapsed.Round(time.Second))
	for _, s := range sections {
		fmt.Fprintf(w, "\n### %s\n\n", s.Title)
		fmt.Fprintln(w, "| # | Measurement | ops | failed | ops/s | p50 | p99 | baseline | ops/s ratio | p50 ratio |")
		fmt.Fprintln(w, "|---|---|--:|--:|--:|--:|--:|:-:|--:|--:|")
		for _, r := range s.Results {
			st := r.Stats
			base, opsRatio, p50Ratio := "—", "—", "—"
			if r.Base != nil {
				base = r.BaseID
				opsRatio = ratio(st.OpsPerSec(), r.Base.OpsPerSec())
				p50Ratio = ratio(st.P50.Seconds(), r.Base.P50.Seconds())
			}
			fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %s | %s | %s | %s | %s |\n",
				r.ID, r.Name, st.Ops, st.Failures, rate(st.OpsPerSec()), ms(st.P50), ms(st.P99),
				base, opsRatio, p50Ratio)
		}
		if len(s.Notes) > 0 {
			fmt.Fprintln(w)
			for _, n := range s.Notes {
				fmt.Fprintln(w, "- "+n)
			}
		}
	}
	for _, s := range sections {
		for _, r := range s.Results {
			if r.Stats.FirstErr != nil {
				fmt.Fprintf(w, "\nFirst failure in %s %s: %v\n", s.Title, r.Name, r.Stats.FirstErr)
			}
		}
	}
}

// ratio shows v/base with two significant digits at least, so a path at
// a thousandth of its baseline does not print as 0.00.
func ratio(v, base float64) string {
	if base == 0 || v == 0 {
		return "—"
	}
	r := v / base
	decimals := max(2, 1-int(math.Floor(math.Log10(r))))
	return fmt.Sprintf("%.*f×", decimals, r)
}

func rate(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}

// progress reports on stderr, so stdout stays a clean Markdown report.
func progress(scope, format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s [%s] %s\n", time.Now().Format("15:04:05"), scope, fmt.Sprintf(format, args...))
}

func progressStats(scope string, s stats) {
	progress(scope, "  %s ops/s, p50 %s, p99 %s, %d failed, %s",
		rate(s.OpsPerSec()), ms(s.P50), ms(s.P99), s.Failures, s.Elapsed.Round(time.Millisecond))
}
