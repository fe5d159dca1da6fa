package eval

import (
	"context"
	"fmt"
	"sort"

	"github.com/vigil-soc/vigil/intel"
	"github.com/vigil-soc/vigil/triage"
)

// Columns of the confusion matrix: the three labels plus unknown, which an
// analyzer may answer but no case expects. An analyzer error counts as
// unknown.
var (
	ConfusionRows    = []string{triage.ClassMalicious, triage.ClassSuspicious, triage.ClassBenign}
	ConfusionColumns = []string{triage.ClassMalicious, triage.ClassSuspicious, triage.ClassBenign, triage.ClassUnknown}
)

// Result is what the analyzer said about one case.
type Result struct {
	File       string  `json:"file"`
	Folder     string  `json:"folder"`
	Severity   string  `json:"severity"`
	Expected   string  `json:"expected"`
	Got        string  `json:"got"`
	Confidence float64 `json:"confidence"`
	Reasoning  string  `json:"reasoning"`
	Rationale  string  `json:"rationale"`
	// Error is the analyzer's error, if it returned one; Got is then unknown.
	Error string `json:"error,omitempty"`
}

// Correct reports whether the analyzer gave exactly the expected label.
func (r Result) Correct() bool { return r.Got == r.Expected }

// BinaryCorrect reports whether the analyzer got benign versus not benign
// right; unknown is right for neither side, since nobody can act on it.
func (r Result) BinaryCorrect() bool {
	switch r.Got {
	case triage.ClassBenign:
		return r.Expected == triage.ClassBenign
	case triage.ClassMalicious, triage.ClassSuspicious:
		return r.Expected != triage.ClassBenign
	}
	return false
}

// CriticalMiss reports a critical malicious case called benign: the error
// that lets a live attack be closed without anyone looking.
func (r Result) CriticalMiss() bool {
	return r.Expected == triage.ClassMalicious && r.Severity == "critical" && r.Got == triage.ClassBenign
}

// FolderScore is exact accuracy within one folder of cases.
type FolderScore struct {
	Folder   string  `json:"folder"`
	Total    int     `json:"total"`
	Exact    int     `json:"exact"`
	Accuracy float64 `json:"accuracy"`
}

// Report is the outcome of Run. Accuracies are fractions in 0..1.
type Report struct {
	Total          int     `json:"total"`
	Exact          int     `json:"exact"`
	Binary         int     `json:"binary"`
	ExactAccuracy  float64 `json:"exact_accuracy"`
	BinaryAccuracy float64 `json:"binary_accuracy"`
	// Confusion counts cases by expected label (row, ConfusionRows order)
	// and the analyzer's answer (column, ConfusionColumns order).
	Confusion      [3][4]int     `json:"confusion"`
	CriticalMisses []Result      `json:"critical_misses"`
	Folders        []FolderScore `json:"folders"`
	Wrong          []Result      `json:"wrong"`
	Results        []Result      `json:"-"`
}

// Expected returns how many cases carry each label, in ConfusionRows order.
func (r Report) Expected() [3]int {
	var n [3]int
	for i, row := range r.Confusion {
		for _, c := range row {
			n[i] += c
		}
	}
	return n
}

// Option changes how Run prepares incidents.
type Option func(*config)

type config struct{ src intel.Source }

// WithIntel replaces the threat-intelligence source consulted before
// analysis; nil skips enrichment. The default is intel.NewSimulated(), the
// offline source the service uses when no subscription is configured.
func WithIntel(src intel.Source) Option { return func(c *config) { c.src = src } }

// Run analyzes every case as the service's triage workflow does: indicators
// extracted from the raw data, then rated by threat intelligence, then the
// analyzer. Analyzer errors are recorded against their case; the only error
// returned is a cancelled ctx.
func Run(ctx context.Context, analyzer triage.Analyzer, cases []Case, opts ...Option) (Report, error) {
	return run(ctx, func(Case) triage.Analyzer { return analyzer }, cases, opts...)
}

// run is Run with the analyzer picked per case.
func run(ctx context.Context, pick func(Case) triage.Analyzer, cases []Case, opts ...Option) (Report, error) {
	cfg := config{src: intel.NewSimulated()}
	for _, o := range opts {
		o(&cfg)
	}
	rep := Report{CriticalMisses: []Result{}, Folders: []FolderScore{}, Wrong: []Result{}}
	folders := map[string]*FolderScore{}
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return Report{}, err
		}
		res, err := runCase(ctx, pick(c), cfg, c)
		if err != nil {
			return Report{}, err
		}
		rep.add(res)
		f := folders[c.Folder]
		if f == nil {
			f = &FolderScore{Folder: c.Folder}
			folders[c.Folder] = f
		}
		f.Total++
		if res.Correct() {
			f.Exact++
		}
	}
	for _, f := range folders {
		f.Accuracy = ratio(f.Exact, f.Total)
		rep.Folders = append(rep.Folders, *f)
	}
	sort.Slice(rep.Folders, func(i, j int) bool { return rep.Folders[i].Folder < rep.Folders[j].Folder })
	rep.ExactAccuracy = ratio(rep.Exact, rep.Total)
	rep.BinaryAccuracy = ratio(rep.Binary, rep.Total)
	return rep, nil
}

func runCase(ctx context.Context, analyzer triage.Analyzer, cfg config, c Case) (Result, error) {
	res := Result{File: c.File, Folder: c.Folder, Severity: c.Severity, Expected: c.Expected, Rationale: c.Rationale}
	inc := c.Incident()
	ind := triage.ExtractIndicators(inc.RawData)
	if cfg.src != nil {
		// Partial intelligence is what the service analyzes on too.
		reps, err := enrich(ctx, cfg.src, ind)
		if err != nil && ctx.Err() != nil {
			return res, ctx.Err()
		}
		inc.Intel = reps
	}
	a, err := analyzer.Analyze(ctx, inc, ind)
	switch {
	case err != nil && ctx.Err() != nil:
		return res, ctx.Err()
	case err != nil:
		res.Got, res.Error = triage.ClassUnknown, err.Error()
	default:
		res.Got, res.Confidence, res.Reasoning = a.Verdict.Classification, a.Verdict.Confidence, a.Verdict.Reasoning
	}
	return res, nil
}

func (r *Report) add(res Result) {
	r.Results = append(r.Results, res)
	r.Total++
	row, col := index(ConfusionRows, res.Expected), index(ConfusionColumns, res.Got)
	if col < 0 {
		// An answer outside the four classes is as useless as unknown.
		col = index(ConfusionColumns, triage.ClassUnknown)
	}
	if row >= 0 {
		r.Confusion[row][col]++
	}
	if res.Correct() {
		r.Exact++
	} else {
		r.Wrong = append(r.Wrong, res)
	}
	if res.BinaryCorrect() {
		r.Binary++
	}
	if res.CriticalMiss() {
		r.CriticalMisses = append(r.CriticalMisses, res)
	}
}

func index(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// String is a one-line summary, e.g. for test logs.
func (r Report) String() string {
	return fmt.Sprintf("exact %d/%d (%.1f%%), binary %d/%d (%.1f%%), critical misses %d",
		r.Exact, r.Total, 100*r.ExactAccuracy, r.Binary, r.Total, 100*r.BinaryAccuracy, len(r.CriticalMisses))
}
