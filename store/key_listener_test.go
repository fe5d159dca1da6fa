package store

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestKeyCacheServesOnlyAfterHearingItsProbe checks that the listener
// turns the cache on only once it has heard its own probe sent over
// another connection: one that cannot hear must leave every request
// reading the database, even while other notifications arrive.
func TestKeyCacheServesOnlyAfterHearingItsProbe(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("the key cache listens only on PostgreSQL")
	}
	deaf := &keyCache{}
	// A probe that never reaches the listener, while changes are announced
	// on the channel as other processes would.
	l := startKeyListener(url, deaf, func(ctx context.Context, _ string) error { return notify(ctx, url, "change") })
	defer l.close()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if deaf.isListening() {
			t.Fatal("the cache was turned on before the listener heard its own probe")
		}
	}

	heard := &keyCache{}
	l2 := startKeyListener(url, heard, func(ctx context.Context, token string) error { return notify(ctx, url, token) })
	defer l2.close()
	for deadline := time.Now().Add(5 * time.Second); !heard.isListening(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the listener heard its probe but never turned the cache on")
		}
	}
}

// notify sends payload on the credentials channel over a connection of its
// own.
func notify(ctx context.Context, url, payload string) error {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "SELECT pg_notify($1, $2)", credentialsChannel, payload)
	return err
}
