package ttlcache

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestValueServesWithinTTLAndRereadsAfterForget(t *testing.T) {
	var c Value[int]
	ctx := context.Background()
	reads := 0
	load := func(context.Context) (int, error) { reads++; return reads, nil }
	for range 3 {
		if v, err := c.Get(ctx, time.Hour, load); err != nil || v != 1 {
			t.Fatalf("get: %d %v", v, err)
		}
	}
	c.Forget()
	if v, _ := c.Get(ctx, time.Hour, load); v != 2 {
		t.Fatalf("after forget: %d, want a fresh read", v)
	}
	if v, _ := c.Get(ctx, 0, load); v != 3 {
		t.Fatalf("expired: %d, want a fresh read", v)
	}
}

func TestValueKeepsNeitherFailuresNorOvertakenReads(t *testing.T) {
	var c Value[string]
	ctx := context.Background()
	boom := errors.New("boom")
	if _, err := c.Get(ctx, time.Hour, func(context.Context) (string, error) { return "", boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	v, _ := c.Get(ctx, time.Hour, func(context.Context) (string, error) {
		c.Forget() // a write lands while this read is under way
		return "stale", nil
	})
	if v != "stale" {
		t.Fatalf("overtaken read answered %q", v)
	}
	if v, _ := c.Get(ctx, time.Hour, func(context.Context) (string, error) { return "fresh", nil }); v != "fresh" {
		t.Fatalf("overtaken read was kept: %q", v)
	}
}
