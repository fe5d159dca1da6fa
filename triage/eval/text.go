package eval

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// WriteText prints the report for a terminal: accuracies, the confusion
// matrix, accuracy per folder and critical misses; with verbose, every
// wrong case with the label's rationale and the analyzer's reasoning.
func (r Report) WriteText(w io.Writer, verbose bool) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	exp := r.Expected()
	fmt.Fprintf(tw, "Cases: %d (malicious %d, suspicious %d, benign %d)\n", r.Total, exp[0], exp[1], exp[2])
	fmt.Fprintf(tw, "Exact accuracy:  %d/%d = %.1f%%\n", r.Exact, r.Total, 100*r.ExactAccuracy)
	fmt.Fprintf(tw, "Binary accuracy: %d/%d = %.1f%% (benign versus not benign)\n", r.Binary, r.Total, 100*r.BinaryAccuracy)
	fmt.Fprintf(tw, "\nConfusion matrix (rows: expected, columns: analyzer):\n")
	fmt.Fprintf(tw, "\t%s\t\n", strings.Join(ConfusionColumns, "\t"))
	for i, row := range r.Confusion {
		fmt.Fprintf(tw, "%s", ConfusionRows[i])
		for _, n := range row {
			fmt.Fprintf(tw, "\t%d", n)
		}
		fmt.Fprintf(tw, "\t\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nPer folder (exact):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, f := range r.Folders {
		fmt.Fprintf(tw, "  %s\t%d/%d\t%.1f%%\n", f.Folder, f.Exact, f.Total, 100*f.Accuracy)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nCritical misses (critical malicious called benign): %d\n", len(r.CriticalMisses))
	for _, m := range r.CriticalMisses {
		fmt.Fprintf(w, "  %s\n", m.File)
	}
	if !verbose {
		fmt.Fprintf(w, "\nWrong cases: %d (--verbose lists them)\n", len(r.Wrong))
		return nil
	}
	fmt.Fprintf(w, "\nWrong cases: %d\n", len(r.Wrong))
	for _, res := range r.Wrong {
		fmt.Fprintf(w, "\n%s [%s]: expected %s, got %s (confidence %.2f)\n", res.File, res.Severity, res.Expected, res.Got, res.Confidence)
		fmt.Fprintf(w, "  why %s: %s\n", res.Expected, res.Rationale)
		if res.Error != "" {
			fmt.Fprintf(w, "  analyzer error: %s\n", res.Error)
		} else {
			fmt.Fprintf(w, "  analyzer: %s\n", res.Reasoning)
		}
	}
	return nil
}
