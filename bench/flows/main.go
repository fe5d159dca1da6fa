// Command flows measures Vigil's workflow paths against bare Temporal
// baselines on the same dev server in the same run: approval latency
// against a bare signal round trip, actions per second against a bare
// workflow with one activity, and playbook per-step overhead against a
// bare sequential activity call; and how late a connector call can still
// start after the kill switch is activated under load. Its verdicts are
// appended to -verdicts for the summary of make bench.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/app"
	"github.com/vigil-soc/vigil/bench/internal/sealed"
	"github.com/vigil-soc/vigil/bench/internal/verdict"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/payloadcodec"
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
	rounds := flag.Int("rounds", 1, "rounds of the playbook measurement; the table of medians follows")
	playbooksOnly := flag.Bool("playbooks-only", false, "measure only playbook run time")
	approvalsOnly := flag.Bool("approvals-only", false, "measure only approve → completed beside the bare signal")
	file := flag.String("verdicts", verdict.DefaultFile(), "append the verdicts as JSON lines to this file, for bench/summary (default $"+verdict.EnvFile+")")
	keys := flag.String("payload-keys", os.Getenv("VIGIL_PAYLOAD_KEYS"), "seal Vigil's Temporal payloads with these keys (id:base64key,..., as VIGIL_PAYLOAD_KEYS); the bare baselines stay unencrypted (default $VIGIL_PAYLOAD_KEYS)")
	flag.Parse()
	// The process hosts Vigil's API and worker as `vigil serve` does.
	log.Printf("garbage collector: %s", app.TuneGC())
	codec, err := sealed.Codec(*keys)
	if err != nil {
		log.Fatal(err)
	}
	vs, err := run(*n, *c, *steps, *rounds, *playbooksOnly, *approvalsOnly, codec)
	if codec != nil {
		// The summary sets these lines beside bench/load's, whose titles
		// say the same.
		for i := range vs {
			vs[i].Path += " (Vigil's payloads encrypted)"
		}
	}
	// What was measured before a failure still reaches the summary.
	if err := verdict.Append(*file, vs); err != nil {
		log.Print(err)
	}
	if err != nil {
		log.Fatal(err)
	}
}

func run(n, c int, steps string, rounds int, playbooksOnly, approvalsOnly bool, codec *payloadcodec.Codec) ([]verdict.Verdict, error) {
	ctx := context.Background()
	tmp, err := testenv.StartTemporal(ctx)
	if err != nil {
		return nil, err
	}
	defer tmp.Stop()
	vigilClient, closeVigilClient, err := sealed.Client(tmp.Client, codec)
	if err != nil {
		return nil, err
	}
	defer closeVigilClient()
	dir, err := os.MkdirTemp("", "vigil-bench-flows")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	h, err := newHarness(ctx, vigilClient, dir)
	if err != nil {
		return nil, err
	}
	defer h.close()

	encrypted := ""
	if codec != nil {
		encrypted = ", Vigil's payloads encrypted"
	}
	fmt.Printf("# Vigil workflow paths, %s, %d CPUs, %s/%s, %s, store %s%s\n\n",
		time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version(), h.store.Dialect(), encrypted)
	if approvalsOnly {
		appr, err := approvalPair(ctx, h, tmp.Client, n)
		if err != nil {
			return nil, err
		}
		vs := []verdict.Verdict{latencyVerdict(appr, approvalGoal)}
		printVerdicts(vs)
		return vs, nil
	}
	var vs []verdict.Verdict
	if !playbooksOnly {
		if vs, err = workflowPaths(ctx, h, tmp.Client, n, c); err != nil {
			return vs, err
		}
	}
	pb, err := playbookRounds(ctx, h, tmp.Client, parseList(steps), rounds)
	return append(vs, pb...), err
}

// approvalPair measures approve → completed beside the bare signal round
// trip, interleaved in the same run.
func approvalPair(ctx context.Context, h *harness, tc client.Client, n int) (row, error) {
	signal, stopBare, err := bareSignalRoundTrip(ctx, tc, n)
	if err != nil {
		return row{}, err
	}
	defer stopBare()
	approve, err := h.approvalLatency(n)
	if err != nil {
		return row{}, err
	}
	return measurePair(n, "bare signal → waiting workflow completed", signal, "approve → action completed (API)", approve)
}

// workflowPaths measures approvals and actions beside their baselines,
// then the kill switch under the same action load.
func workflowPaths(ctx context.Context, h *harness, tc client.Client, n, c int) ([]verdict.Verdict, error) {
	appr, err := approvalPair(ctx, h, tc, n)
	if err != nil {
		return nil, err
	}
	one, err := bareWorkflowWithActivity(ctx, tc, n, c)
	if err != nil {
		return nil, err
	}
	auto, err := h.actionThroughput(ctx, n, c)
	if err != nil {
		return nil, err
	}
	auto.baseline = &one
	vs := []verdict.Verdict{latencyVerdict(appr, approvalGoal), throughputVerdict(auto, 0)}
	printVerdicts(vs)
	ks, err := h.killSwitchUnderLoad(ctx, c)
	if err != nil {
		return vs, err
	}
	return append(vs, ks), nil
}
