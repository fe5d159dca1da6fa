package e2e

import (
	"context"
	"github.com/vigil-soc/vigil/internal/testenv"
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
	u.run(chromedp.Click(chromedp.CSS("article.finding button")))
	// The click navigates: wait for the incident page's notice rather than
	// any heading, which the hunt page still shows until it is replaced.
	testenv.Eventually(t, 15*time.Second, func() bool { return u.shows("main", "Finding promoted") },
		"promotion did not land on its incident")
}

// TestDataSourcesInBrowser: an admin registers an HTTP data source with a
// write-only token, meets the outbound policy, tests the source; a senior
// sees the list without the forms, and a forged write is refused.
func TestDataSourcesInBrowser(t *testing.T) {
	requireBrowser(t)
	top := t
	srv := startServer(t)
	srv.createUser(t, "dana", "admin")
	srv.createUser(t, "seth", "senior")
	peer := huntest.CustomPeer(t, "edr-token-0123", []map[string]any{{"host": "ws-1"}})
	before := srv.api(t, http.MethodGet, "/api/settings/outbound", nil, http.StatusOK)["value"]
	t.Cleanup(func() { srv.api(top, http.MethodPut, "/api/settings/outbound", before, http.StatusOK) })
	srv.api(t, http.MethodPut, "/api/settings/outbound", map[string]any{"allow_http": false, "allow_hosts": []string{}}, http.StatusOK)

	b := newBrowser(t, srv.base)
	admin := b.signIn(t, top, "dana")
	admin.open("/data-sources")
	admin.checkLabels()
	fill := map[string]string{"#ds-name": "edr", "#ds-config": `{"url": "` + peer.URL + `"}`, "#ds-cred-token": "edr-token-0123"}
	admin.setValue("#ds-kind", "custom")
	admin.submitForm(fill, "#save-source", ".card .notice.error")
	if got := admin.textOf(".card .notice.error"); !strings.Contains(got, "config.url") || !strings.Contains(got, "https") {
		t.Fatalf("the outbound refusal is shown as %q", got)
	}

	srv.api(t, http.MethodPut, "/api/settings/outbound", map[string]any{"allow_http": true, "allow_hosts": []string{"127.0.0.1"}}, http.StatusOK)
	admin.open("/data-sources")
	admin.setValue("#ds-kind", "custom")
	admin.submitForm(fill, "#save-source", doneNotice)
	if got := admin.textOf(`tr[data-source="edr"]`); !strings.Contains(got, "custom") || !strings.Contains(got, "stored") {
		t.Fatalf("the new source is listed as %q", got)
	}
	if page := get(admin, chromedp.OuterHTML(chromedp.CSS("html"))); strings.Contains(page, "edr-token-0123") {
		t.Fatal("the token is shown")
	}
	admin.run(chromedp.Click(chromedp.CSS("#test-edr")), chromedp.WaitVisible(chromedp.CSS("#source-test")))
	if got := admin.textOf("#source-test"); !strings.Contains(got, "answered in") {
		t.Fatalf("test outcome %q", got)
	}
	admin.screenshot("data-sources")

	// Editing keeps the stored token when no credential is typed.
	admin.open("/data-sources/edr")
	admin.submitForm(map[string]string{"#ds-desc": "EDR search API"}, "#save-source", doneNotice)
	admin.run(chromedp.Click(chromedp.CSS("#test-edr")), chromedp.WaitVisible(chromedp.CSS("#source-test")))
	if got := admin.textOf("#source-test"); !strings.Contains(got, "answered in") {
		t.Fatalf("after an edit without credentials the test says %q", got)
	}

	senior := b.signIn(t, top, "seth")
	senior.open("/data-sources")
	if !strings.Contains(senior.textOf("#sources-list"), "edr") || senior.exists("#source-form") || senior.exists("#test-edr") {
		t.Fatal("a senior does not see the list, or is offered the admin forms")
	}
	status := get(senior, chromedp.Evaluate[string](`(async () => {
		const s = await (await fetch("/api/session")).json();
		const body = new URLSearchParams({csrf_token: s.data.csrf_token, form: "source", kind: "custom",
			config: '{"url": "https://attacker.example"}'});
		const r = await fetch("/data-sources/edr", {method: "POST", body, redirect: "manual"});
		const noToken = await fetch("/data-sources/edr/delete", {method: "POST", body: new URLSearchParams({form: "source"}), redirect: "manual"});
		return r.status + " " + noToken.status + " " + (await r.text());
	})()`, chromedp.EvalAwaitPromise))
	if !strings.HasPrefix(status, "403 403 ") || !strings.Contains(status, "needs role admin") {
		t.Fatalf("forged writes by a senior answered %.200q, want 403 naming the admin role and 403 without a CSRF token", status)
	}
	if d := srv.api(t, http.MethodGet, "/api/v1/data-sources/edr", nil, http.StatusOK); d["config"].(map[string]any)["url"] != peer.URL {
		t.Fatalf("the forged write changed the source: %v", d)
	}
}
