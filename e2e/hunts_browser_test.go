package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/vigil-soc/vigil/hunt/events"
	"github.com/vigil-soc/vigil/hunt/huntest"
)

// TestHuntsInBrowser: a senior opens a hunt, runs it, sees its findings
// and promotes one to an incident.
func TestHuntsInBrowser(t *testing.T) {
	requireBrowser(t)
	top := t
	srv := startServer(t)
	srv.createUser(t, "hana", "senior")
	eng := huntest.SQLite(t)
	ctx := context.Background()
	if err := events.CreateSchema(ctx, eng.DB, eng.Name); err != nil {
		t.Fatal(err)
	}
	if _, err := events.Load(ctx, eng.DB, eng.Name, events.Demo(time.Now(), 1)); err != nil {
		t.Fatal(err)
	}
	srv.api(t, http.MethodPost, "/api/v1/data-sources", map[string]any{"name": "demo", "kind": "sql", "config": eng.Settings}, http.StatusCreated)
	h := srv.api(t, http.MethodPost, "/api/v1/hunts", map[string]any{"name": "Password spray", "status": "active",
		"hunt_type": "on_demand", "data_sources": []string{"demo"}, "mitre_techniques": []string{"T1110.003"},
		"queries": []map[string]any{{"library_id": "ca-password-spray"}}}, http.StatusCreated)
	id := h["id"].(string)

	b := newBrowser(t, srv.base)
	u := b.signIn(t, top, "hana")
	u.open("/hunts")
	if !strings.Contains(u.text("#hunts-list"), "Password spray") {
		t.Fatal("the hunt is not in the list")
	}
	u.open("/hunts/" + id)
	u.run(chromedp.Click(chromedp.CSS("#run-hunt")), chromedp.WaitVisible(chromedp.CSS("article.finding")))
	if got := u.text("article.finding pre"); !strings.Contains(got, "198.51.100.23") {
		t.Fatalf("finding evidence %q lacks the spraying address", got)
	}
	if u.text("#runs tbody time") == "" {
		t.Fatal("the run's start time is not shown")
	}
	u.screenshot("hunt")
	u.run(chromedp.Click(chromedp.CSS("article.finding button")), chromedp.WaitVisible(chromedp.CSS("h1")))
	if !strings.Contains(u.text("main"), "Finding promoted") {
		t.Fatalf("promotion did not land on its incident: %s", u.text("main"))
	}
}
