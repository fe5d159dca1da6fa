package store

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestKeyCacheServesOnlyAfterHearingItsProbe checks that the listener
// turns the cache on only once it has heard a notification sent over
// another connection: one that cannot hear must leave every request
// reading the database.
func TestKeyCacheServesOnlyAfterHearingItsProbe(t *testing.T) {
	url := os.Getenv("TEST_DATABASE_URL")
	if url == "" {
		t.Skip("the key cache listens only on PostgreSQL")
	}
	deaf := &keyCache{}
	l := startKeyListener(url, deaf, func(context.Context) error { return nil })
	defer l.close()
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if deaf.isListening() {
			t.Fatal("the cache was turned on before the listener heard anything")
		}
	}

	heard := &keyCache{}
	probe := func(ctx context.Context) error {
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, "SELECT pg_notify($1, 'probe')", credentialsChannel)
		return err
	}
	l2 := startKeyListener(url, heard, probe)
	defer l2.close()
	for deadline := time.Now().Add(5 * time.Second); !heard.isListening(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the listener heard its probe but never turned the cache on")
		}
	}
}
