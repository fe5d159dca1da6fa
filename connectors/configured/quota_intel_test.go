package configured_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
	"github.com/ulule/limiter/v3"
	sredis "github.com/ulule/limiter/v3/drivers/store/redis"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/configured"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/triage"
)

// redisQuotaStore is one process's view of the shared quota: its own
// Redis connection, the same prefix as the other processes.
func redisQuotaStore(t *testing.T, prefix string) limiter.Store {
	rc := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379"})
	t.Cleanup(func() { _ = rc.Close() })
	if err := rc.Ping(context.Background()).Err(); err != nil {
		t.Skipf("redis not reachable: %v", err)
	}
	st, err := sredis.NewStoreWithOptions(rc, limiter.StoreOptions{Prefix: prefix, MaxRetry: 3})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestQuotaIsSharedAcrossProcesses spends a 4-per-minute quota from two
// workers: together they get four calls, the fifth waits.
func TestQuotaIsSharedAcrossProcesses(t *testing.T) {
	prefix := "vigil-test-" + uuid.NewString()
	a := connectors.Quota(redisQuotaStore(t, prefix))
	b := connectors.Quota(redisQuotaStore(t, prefix))
	ctx := context.Background()
	for i, limit := range []func(context.Context, string, int) error{a, b, a, b} {
		if err := limit(ctx, "virustotal", 4); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := a(short, "virustotal", 4); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("fifth call across workers: %v", err)
	}
}

// scoredIntel is a test threat-intel vendor answering one fixed score.
type scoredIntel struct {
	name  string
	score int
}

func (s scoredIntel) Name() string    { return s.name }
func (s scoredIntel) Simulated() bool { return false }
func (s scoredIntel) Lookup(_ context.Context, typ, value string) (triage.Reputation, error) {
	verdict := triage.ReputationClean
	if s.score >= 70 {
		verdict = triage.ReputationMalicious
	}
	return triage.Reputation{Type: typ, Value: value, Verdict: verdict, Score: s.score}, nil
}

func init() {
	connectors.Register(connectors.Vendor{Type: "scored-intel", Title: "Scored intel", Kinds: []string{connectors.KindIntel},
		Fields: []connectors.Field{{Name: "score", Required: true}},
		New: func(cfg connectors.Config) (any, error) {
			score := 0
			if cfg.Settings["score"] == "high" {
				score = 90
			}
			return scoredIntel{name: cfg.ID, score: score}, nil
		}})
}

// TestIntelCombinesConfiguredSources: with two providers the worse
// verdict wins; without any, the simulated source answers, labelled.
func TestIntelCombinesConfiguredSources(t *testing.T) {
	st := testenv.OpenStore(t)
	svc := newService(t, st)
	ctx := context.Background()
	src := svc.IntelSource()
	r, err := src.Lookup(ctx, triage.IndicatorIP, "203.0.113.9")
	if err != nil || !r.Simulated || !src.Simulated() {
		t.Fatalf("unconfigured lookup %+v %v", r, err)
	}
	for id, score := range map[string]string{"intel-a": "low", "intel-b": "high"} {
		if _, _, err := svc.Put(ctx, id, configured.Input{Type: "scored-intel", Settings: map[string]string{"score": score}}, "admin"); err != nil {
			t.Fatal(err)
		}
	}
	r, err = src.Lookup(ctx, triage.IndicatorIP, "203.0.113.9")
	if err != nil || r.Simulated || r.Score != 90 || r.Source != "intel-b" || src.Simulated() {
		t.Fatalf("combined lookup %+v %v", r, err)
	}
}
