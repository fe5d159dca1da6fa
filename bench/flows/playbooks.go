package main

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/vigil-soc/vigil/bench/internal/verdict"
	"github.com/vigil-soc/vigil/store"
	"github.com/vigil-soc/vigil/workflows"
)

// playbookRounds measures, per round and per length, a bare workflow
// calling that many activities one after another and then a Vigil
// playbook of that many create_ticket action steps, and prints each
// round and the medians. The machine is shared, so one round says little.
func playbookRounds(ctx context.Context, h *harness, tc client.Client, lengths []int, rounds int) ([]verdict.Verdict, error) {
	if len(lengths) == 0 {
		return nil, nil
	}
	_, inc, err := h.call(http.MethodPost, "/api/incidents", h.admin, map[string]any{"incident_type": "bench", "source": "bench", "severity": "low"})
	if err != nil {
		return nil, err
	}
	incID := data(inc)["id"].(string)
	fmt.Printf("\n## Playbook run time by length (one create_ticket action step each)\n\n")
	fmt.Printf("Baseline: a bare workflow calling the same number of activities one after another, measured just before.\n\n")
	fmt.Println("| round | steps | run time s | ms per step | bare ms per activity | per step vs bare |")
	fmt.Println("|---|---|---|---|---|---|")
	vigil, bare := map[int][]float64{}, map[int][]float64{}
	for r := 1; r <= rounds; r++ {
		for _, n := range lengths {
			b, err := bareSequentialActivities(ctx, tc, n)
			if err != nil {
				return nil, err
			}
			el, err := h.runPlaybook(ctx, incID, n)
			if err != nil {
				return nil, err
			}
			per := float64(el.Microseconds()) / 1000 / float64(n)
			vigil[n], bare[n] = append(vigil[n], per), append(bare[n], b)
			fmt.Printf("| %d | %d | %.2f | %.1f | %.1f | x%.2f |\n", r, n, el.Seconds(), per, b, per/b)
		}
	}
	fmt.Printf("\nMedians over %d rounds:\n\n", rounds)
	var out []verdict.Verdict
	for _, n := range lengths {
		v, b := median(vigil[n]), median(bare[n])
		out = append(out, verdict.AtMost(fmt.Sprintf("playbook step, %d create_ticket steps", n),
			fmt.Sprintf("%.1f ms per step", v), fmt.Sprintf("bare sequential activity: %.1f ms", b),
			v/b, verdict.OfStep, playbookGoal))
	}
	printVerdicts(out)
	return out, nil
}

// runPlaybook creates a playbook of n action steps, runs it through the
// API and waits for the run (across continue-as-new) to end completed.
func (h *harness) runPlaybook(ctx context.Context, incID string, n int) (time.Duration, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "name: bench-%d-%d\nsteps:\n", n, time.Now().UnixNano())
	for i := range n {
		fmt.Fprintf(&b, "  - name: s%d\n    action: create_ticket\n    parameters:\n      title: \"step %d of {{ incident.number }}\"\n", i, i)
	}
	_, pb, err := h.call(http.MethodPost, "/api/playbooks", h.admin, map[string]any{"content": b.String()})
	if err != nil {
		return 0, err
	}
	t0 := time.Now()
	_, run, err := h.call(http.MethodPost, "/api/playbooks/"+data(pb)["id"].(string)+"/run", h.admin, map[string]any{"incident_id": incID})
	if err != nil {
		return 0, err
	}
	execID := data(run)["execution_id"].(string)
	if err := h.temporal.GetWorkflow(ctx, workflows.PlaybookRunWorkflowID(execID), "").Get(ctx, nil); err != nil {
		return 0, fmt.Errorf("playbook of %d steps: %w", n, err)
	}
	el := time.Since(t0)
	e, err := h.store.GetExecution(ctx, execID)
	if err != nil {
		return 0, err
	}
	if e.Status != store.ExecutionCompleted || e.StepsCompleted != n {
		return 0, fmt.Errorf("playbook of %d steps ended %s after %d steps: %s", n, e.Status, e.StepsCompleted, e.Error)
	}
	return el, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
