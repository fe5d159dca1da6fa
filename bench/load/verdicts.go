package main

import (
	"fmt"
	"time"

	"github.com/vigil-soc/vigil/bench/internal/verdict"
	"github.com/vigil-soc/vigil/store"
)

// Goals of the rows that have one (see bench/README.md).
const (
	// autoTriageGoal bounds sustained verdicts per second (6w) against
	// the bare one-activity workflow's completions per second (5b).
	autoTriageGoal = 0.9
	// listGoalP99 bounds the list pages' p99 (4a-4c) at listGoalSeed
	// incidents on PostgreSQL (the goal's text spells the number out).
	listGoalP99  = 20 * time.Millisecond
	listGoalSeed = 1_000_000
)

// databaseVerdicts turns one database's rows into summary lines: intake,
// the list pages, then triage.
func databaseVerdicts(cfg config, dialect store.Dialect, sec section) []verdict.Verdict {
	rows := map[string]result{}
	for _, r := range sec.Results {
		rows[r.ID] = r
	}
	engine := func(path string) string { return path + " (" + sec.Title + ")" }
	var out []verdict.Verdict
	if r, ok := rows["2w"]; ok && r.Base != nil {
		out = append(out, verdict.Verdict{
			Path:     engine(fmt.Sprintf("signed alert accepted, no auto triage, C=%d", cfg.IntakeC)),
			Vigil:    rateAndP99(r.Stats),
			Baseline: "bare INSERT at the same C: " + rateAndP99(*r.Base),
			Ratio:    ratioOf(r.Stats.OpsPerSec(), r.Base.OpsPerSec()), RatioOf: verdict.OfThroughput,
			Goal: fmt.Sprintf("≥ %.0f/s and p99 ≤ %d ms", intakeGoalRate, intakeGoalP99.Milliseconds()),
			Met:  verdict.YesNo(intakeMet(r.Stats)),
		})
	}
	for _, lp := range listPaths {
		if r, ok := rows[lp.id]; ok && r.Base != nil {
			out = append(out, listVerdict(cfg, dialect, engine("list: GET "+lp.path), r))
		}
	}
	if r, ok := rows["6w"]; ok && r.Base != nil {
		v := verdict.AtLeast(engine("alert → verdict stored (auto triage), sustained"),
			fmt.Sprintf("%s/s (accept → verdict p50 %s, p99 %s)", rate(r.Stats.OpsPerSec()), ms(r.Stats.P50), ms(r.Stats.P99)),
			"bare workflow + one activity: "+rate(r.Base.OpsPerSec())+"/s",
			ratioOf(r.Stats.OpsPerSec(), r.Base.OpsPerSec()), verdict.OfThroughput, autoTriageGoal)
		out = append(out, unstableBaseline(failed(v, r.Stats), *r.Base))
	}
	if r, ok := rows["6"]; ok && r.Base != nil {
		out = append(out, verdict.AtLeast(engine("triage request answered with its verdict"),
			rateAndP99(r.Stats), "bare workflow + one activity: "+rateAndP99(*r.Base),
			ratioOf(r.Stats.OpsPerSec(), r.Base.OpsPerSec()), verdict.OfThroughput, 0))
	}
	return out
}

// listVerdict judges a list page against its goal, which is stated at a
// million incidents on PostgreSQL: a smaller seed or SQLite is shown but
// not judged.
func listVerdict(cfg config, dialect store.Dialect, path string, r result) verdict.Verdict {
	v := verdict.Verdict{Path: path,
		Vigil:    fmt.Sprintf("p50 %s, p99 %s (%s/s)", ms(r.Stats.P50), ms(r.Stats.P99), rate(r.Stats.OpsPerSec())),
		Baseline: fmt.Sprintf("bare SELECT of one page: p50 %s, p99 %s", ms(r.Base.P50), ms(r.Base.P99)),
		Ratio:    ratioOf(r.Stats.P99.Seconds(), r.Base.P99.Seconds()), RatioOf: verdict.OfP99,
		Goal: fmt.Sprintf("p99 ≤ %s at %d incidents (PostgreSQL)", ms(listGoalP99), listGoalSeed),
	}
	switch {
	case dialect != store.DialectPostgres:
		v.Met = verdict.NotJudged("SQLite")
	case cfg.Seed < listGoalSeed:
		v.Met = verdict.NotJudged(fmt.Sprintf("seed %d", cfg.Seed))
	default:
		v.Met = verdict.YesNo(r.Stats.P99 <= listGoalP99)
	}
	return failed(v, r.Stats)
}

// baselineStallFactor is how many times its p50 a baseline's p99 may be
// before the baseline counts as stalled. A healthy 5b keeps its p99 within
// three times its p50; a stalled one had a start wait a minute for its
// first workflow task (seen on the dev server), which sinks its rate and
// would flatter any ratio taken against it.
const baselineStallFactor = 20

// unstableBaseline leaves a goal unjudged when its baseline stalled: a
// ratio against it says nothing. A goal already not met stays not met.
func unstableBaseline(v verdict.Verdict, base stats) verdict.Verdict {
	if v.Met == "yes" && base.P50 > 0 && base.P99 > baselineStallFactor*base.P50 {
		v.Met = verdict.NotJudged(fmt.Sprintf("baseline stalled: p99 %s against p50 %s", ms(base.P99), ms(base.P50)))
	}
	return v
}

// failed marks a goal not met when operations of its row failed.
func failed(v verdict.Verdict, s stats) verdict.Verdict {
	if s.Failures > 0 && v.Met == "yes" {
		v.Met = verdict.YesNo(false)
	}
	return v
}

func rateAndP99(s stats) string {
	return fmt.Sprintf("%s/s, p99 %s", rate(s.OpsPerSec()), ms(s.P99))
}

// ratioOf is v over base, or zero when either is missing.
func ratioOf(v, base float64) float64 {
	if v == 0 || base == 0 {
		return 0
	}
	return v / base
}
