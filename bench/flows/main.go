// Command flows measures Vigil's workflow paths against bare Temporal
// baselines on the same dev server in the same run: approval latency
// against a bare signal round trip, actions per second against a bare
// workflow with one activity, and playbook per-step overhead against a
// bare sequential activity call.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
)

// Goals the ratios are held to (see bench/README.md).
const (
	// approvalGoal bounds approve → completed p99 against the bare
	// signal → completed p99.
	approvalGoal = 1.5
	// playbookGoal bounds a playbook step against a bare sequential
	// activity.
	playbookGoal = 1.5
)

func main() {
	n := flag.Int("n", 100, "operations per measurement")
	c := flag.Int("c", 8, "concurrency for throughput measurements")
	steps := flag.String("steps", "10,100,1000", "playbook lengths to run")
	flag.Parse()
	if err := run(*n, *c, *steps); err != nil {
		log.Fatal(err)
	}
}

func run(n, c int, steps string) error {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		return err
	}
	defer tmp.Stop()
	dir, err := os.MkdirTemp("", "vigil-bench-flows")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	h, err := newHarness(ctx, tmp.Client, dir)
	if err != nil {
		return err
	}
	defer h.close()

	fmt.Printf("# Vigil workflow paths, %s, %d CPUs, %s/%s, %s, store %s\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), h.store.Dialect())
	signal, stopBare, err := bareSignalRoundTrip(ctx, tmp.Client, n)
	if err != nil {
		return err
	}
	approve, err := h.approvalLatency(n)
	if err != nil {
		stopBare()
		return err
	}
	appr, err := measurePair(n, "bare signal → waiting workflow completed", signal, "approve → action completed (API)", approve)
	stopBare()
	if err != nil {
		return err
	}
	one, err := bareWorkflowWithActivity(ctx, tmp.Client, n, c)
	if err != nil {
		return err
	}
	auto, err := h.actionThroughput(ctx, n, c)
	if err != nil {
		return err
	}
	auto.baseline = &one
	verdicts := []verdict{latencyVerdict(appr, approvalGoal), throughputVerdict(auto, 0)}

	lengths := parseList(steps)
	bare := make(map[int]float64, len(lengths))
	for _, n := range lengths {
		if bare[n], err = bareSequentialActivities(ctx, tmp.Client, n); err != nil {
			return err
		}
	}
	pb, err := h.playbookScaling(ctx, lengths, bare)
	if err != nil {
		return err
	}
	printVerdicts(append(verdicts, pb...))
	return nil
}
