package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/store"
)

func TestAPIKeyLifecycle(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	u, err := st.CreateUser(ctx, store.NewUser{Username: "alice", Email: "alice@example.com", Role: store.RoleAnalyst})
	if err != nil {
		t.Fatal(err)
	}
	k, key, err := st.CreateAPIKey(ctx, u.ID, "laptop", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if k.KeyPrefix != key[:8] || len(key) < 40 {
		t.Fatalf("prefix %q does not match key %q", k.KeyPrefix, key)
	}
	var stored store.APIKey
	if err := st.DB().Take(&stored, "id = ?", k.ID).Error; err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stored.KeyHash, key) || stored.KeyHash != store.HashKey(key) {
		t.Fatal("key must be stored only as its hash")
	}

	p, err := st.AuthenticateKey(ctx, key)
	if err != nil || p.User.Username != "alice" {
		t.Fatalf("authenticate: %v", err)
	}
	if p.Key.LastUsedAt == nil {
		t.Fatal("last_used_at not recorded")
	}
	if _, err := st.AuthenticateKey(ctx, key+"x"); !errors.Is(err, store.ErrUnauthenticated) {
		t.Fatalf("unknown key: %v", err)
	}
	if err := st.RevokeAPIKey(ctx, k.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AuthenticateKey(ctx, key); !errors.Is(err, store.ErrUnauthenticated) {
		t.Fatalf("revoked key still authenticates: %v", err)
	}
}

func TestExpiredKeyAndDisabledUserAreRefused(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	u, err := st.CreateUser(ctx, store.NewUser{Username: "bob", Email: "bob@example.com", Role: store.RoleViewer})
	if err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Minute)
	_, expired, err := st.CreateAPIKey(ctx, u.ID, "old", nil, &past)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AuthenticateKey(ctx, expired); !errors.Is(err, store.ErrUnauthenticated) {
		t.Fatalf("expired key: %v", err)
	}
	_, live, err := st.CreateAPIKey(ctx, u.ID, "new", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.DB().Model(&store.User{}).Where("id = ?", u.ID).Update("enabled", false).Error; err != nil {
		t.Fatal(err)
	}
	if _, err := st.AuthenticateKey(ctx, live); !errors.Is(err, store.ErrUnauthenticated) {
		t.Fatalf("disabled user's key: %v", err)
	}
}

func TestUsernamesAndEmailsAreUnique(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	if _, err := st.CreateUser(ctx, store.NewUser{Username: "carol", Email: "carol@example.com", Role: store.RoleAdmin}); err != nil {
		t.Fatal(err)
	}
	_, err := st.CreateUser(ctx, store.NewUser{Username: "Carol", Email: "other@example.com", Role: store.RoleAdmin})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate username (other case): %v, want ErrConflict", err)
	}
	_, err = st.CreateUser(ctx, store.NewUser{Username: "dave", Email: "CAROL@example.com", Role: store.RoleAdmin})
	if !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate email: %v, want ErrConflict", err)
	}
	if _, err := st.CreateUser(ctx, store.NewUser{Username: "eve", Email: "eve@example.com", Role: "root"}); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("unknown role: %v, want ErrInvalid", err)
	}
}

func TestBootstrapAdminIsIdempotentAndRespectsRevocation(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	const key = "bootstrap-key-0123456789abcdef"
	for range 2 {
		if revoked, err := st.BootstrapAdmin(ctx, key); err != nil || revoked {
			t.Fatalf("bootstrap: revoked=%v err=%v", revoked, err)
		}
	}
	p, err := st.AuthenticateKey(ctx, key)
	if err != nil || p.User.Username != "admin" || p.User.Role != store.RoleAdmin {
		t.Fatalf("bootstrap key does not authenticate as admin: %v", err)
	}
	var n int64
	st.DB().Model(&store.APIKey{}).Where("user_id = ?", p.User.ID).Count(&n)
	if n != 1 {
		t.Fatalf("bootstrapping twice left %d keys, want 1", n)
	}
	if err := st.RevokeAPIKey(ctx, p.Key.ID); err != nil {
		t.Fatal(err)
	}
	revoked, err := st.BootstrapAdmin(ctx, key)
	if err != nil || !revoked {
		t.Fatalf("bootstrap after revocation: revoked=%v err=%v, want revoked", revoked, err)
	}
	if _, err := st.AuthenticateKey(ctx, key); !errors.Is(err, store.ErrUnauthenticated) {
		t.Fatal("a restart re-enabled a revoked bootstrap key")
	}
	if _, err := st.BootstrapAdmin(ctx, "short"); !errors.Is(err, store.ErrInvalid) {
		t.Fatalf("short bootstrap key: %v, want ErrInvalid", err)
	}
}

func TestMigrationsAreRecordedAndIdempotent(t *testing.T) {
	st := testenv.OpenStore(t)
	ctx := context.Background()
	applied, err := st.Migrate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(applied) != 0 {
		t.Fatalf("second migrate applied %v, want nothing", applied)
	}
	statuses, err := st.MigrationStatuses(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(statuses) == 0 {
		t.Fatal("no migrations known")
	}
	for _, m := range statuses {
		if !m.Applied {
			t.Fatalf("migration %d not applied", m.Version)
		}
	}
	var version int64
	if err := st.DB().Raw("SELECT MAX(version_id) FROM goose_db_version").Scan(&version).Error; err != nil {
		t.Fatal(err)
	}
	if version != statuses[len(statuses)-1].Version {
		t.Fatalf("schema version record %d, want %d", version, statuses[len(statuses)-1].Version)
	}
}
