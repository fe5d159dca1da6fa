package api_test

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/vigil-soc/vigil/api"
	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/settings"
	"github.com/vigil-soc/vigil/store"
)

// isolated is a router on a store of its own, with default settings, for
// tests that need exact counts (admins, rate limits).
type isolated struct {
	store    *store.Store
	settings *settings.Service
	url      string
	adminKey string
}

func newIsolatedServer(t *testing.T) *isolated {
	t.Helper()
	st := testenv.OpenStore(t)
	h := &isolated{store: st, settings: settings.NewService(st, nil), adminKey: "isolated-admin-key-0123456789"}
	if _, err := st.BootstrapAdmin(context.Background(), h.adminKey); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(api.NewRouter(api.Options{
		Store: st, Temporal: env.temporal, Settings: h.settings, Log: testenv.Logger(), Version: "test",
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}
