package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

// openAt opens a store on url as one process of several would.
func openAt(t *testing.T, url string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return st
}

// startListening makes st authenticate once, which starts its listener,
// and waits until it hears credential changes.
func startListening(t *testing.T, st *store.Store) {
	t.Helper()
	if _, err := st.AuthenticateKey(context.Background(), "vgl_not-a-key"); !errors.Is(err, store.ErrUnauthenticated) {
		t.Fatalf("an unknown key: %v, want refused", err)
	}
	testenv.Eventually(t, 10*time.Second, st.KeyCacheListening, "the store never listened for credential changes")
}

// keyFor creates a user with one API key.
func keyFor(t *testing.T, st *store.Store, name string) (store.User, store.APIKey, string) {
	t.Helper()
	ctx := context.Background()
	u, err := st.CreateUser(ctx, store.NewUser{Username: name, Email: name + "@example.com", Role: store.RoleAnalyst})
	if err != nil {
		t.Fatal(err)
	}
	k, key, err := st.CreateAPIKey(ctx, u.ID, name, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return *u, *k, key
}

// refusedWithin fails unless st refuses key within d.
func refusedWithin(t *testing.T, st *store.Store, key string, d time.Duration, what string) {
	t.Helper()
	testenv.Eventually(t, d, func() bool {
		_, err := st.AuthenticateKey(context.Background(), key)
		return errors.Is(err, store.ErrUnauthenticated)
	}, "%s: the key is still accepted after %s", what, d)
}

// TestKeyCacheHearsEveryProcess checks that a key in use is answered from
// memory on PostgreSQL, and that a revocation, a disabled user and a
// deleted key reach a process that cached the key when another process,
// or plain SQL, makes them.
func TestKeyCacheHearsEveryProcess(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		t.Skip("the key cache serves only on PostgreSQL")
	}
	ctx := context.Background()
	url := testenv.DatabaseURL(t)
	a, b := openAt(t, url), openAt(t, url)
	startListening(t, a)
	if b.KeyCacheListening() {
		t.Fatal("a store that never authenticated a key holds a listening connection")
	}

	sqlB, err := b.SQL()
	if err != nil {
		t.Fatal(err)
	}
	changes := []struct {
		what   string
		change func(u store.User, k store.APIKey) error
	}{
		{"revoked by another process", func(_ store.User, k store.APIKey) error { return b.RevokeAPIKey(ctx, k.ID) }},
		{"user disabled in SQL", func(u store.User, _ store.APIKey) error {
			_, err := sqlB.ExecContext(ctx, "UPDATE users SET enabled = false WHERE id = $1", u.ID)
			return err
		}},
		{"key deleted in SQL", func(_ store.User, k store.APIKey) error {
			_, err := sqlB.ExecContext(ctx, "DELETE FROM api_keys WHERE id = $1", k.ID)
			return err
		}},
	}
	for i, c := range changes {
		u, k, key := keyFor(t, b, fmt.Sprintf("user%d", i))
		// The second call finds the first one's last-use write, which
		// must not empty the cache.
		for range 2 {
			if _, err := a.AuthenticateKey(ctx, key); err != nil {
				t.Fatal(err)
			}
		}
		if !a.KeyCached(key) {
			t.Fatalf("%s: a key in use is not answered from memory", c.what)
		}
		if err := c.change(u, k); err != nil {
			t.Fatal(err)
		}
		refusedWithin(t, a, key, time.Second, c.what)
	}
}

// TestKeyRevokedInProcessIsRefusedAtOnce checks that the process that
// revokes a key or disables its user refuses it on the very next request,
// without waiting to hear its own change.
func TestKeyRevokedInProcessIsRefusedAtOnce(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	if os.Getenv("TEST_DATABASE_URL") != "" {
		startListening(t, st)
	}
	_, k, key := keyFor(t, st, "erin")
	u, _, other := keyFor(t, st, "frank")
	for _, key := range []string{key, other} {
		if _, err := st.AuthenticateKey(ctx, key); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.RevokeAPIKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AuthenticateKey(ctx, key); !errors.Is(err, store.ErrUnauthenticated) {
		t.Fatalf("revoked key: %v, want refused at once", err)
	}
	off := false
	if _, err := st.UpdateUser(ctx, u.ID, store.UserUpdate{Enabled: &off}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AuthenticateKey(ctx, other); !errors.Is(err, store.ErrUnauthenticated) {
		t.Fatalf("disabled user's key: %v, want refused at once", err)
	}
}

// TestKeyCacheServesNothingOnSQLite checks that without a listener every
// request reads the database.
func TestKeyCacheServesNothingOnSQLite(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") != "" {
		t.Skip("SQLite only")
	}
	st := testenv.OpenStore(t)
	_, _, key := keyFor(t, st, "gina")
	if _, err := st.AuthenticateKey(context.Background(), key); err != nil {
		t.Fatal(err)
	}
	if st.KeyCached(key) {
		t.Fatal("a key is answered from memory with nobody listening for changes")
	}
}

// TestKeyCacheWaitsForTheTrigger checks that a store opened on a database
// whose credential trigger is not there yet (not migrated) serves nothing
// from memory until it is.
func TestKeyCacheWaitsForTheTrigger(t *testing.T) {
	if os.Getenv("TEST_DATABASE_URL") == "" {
		t.Skip("the key cache serves only on PostgreSQL")
	}
	st, err := store.Open(context.Background(), testenv.DatabaseURL(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	// The first authentication starts the listener; it fails, as there is
	// no api_keys table yet.
	if _, err := st.AuthenticateKey(context.Background(), "vgl_not-a-key"); err == nil {
		t.Fatal("a key authenticated against an unmigrated database")
	}
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if st.KeyCacheListening() {
			t.Fatal("the key cache turned on before the trigger that announces changes existed")
		}
	}
	if _, err := st.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	testenv.Eventually(t, 15*time.Second, st.KeyCacheListening, "the key cache never turned on after migrating")
}
