package e2e

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/vigil-soc/vigil/policy"
)

// unlabelledControls is a script answering the ids (or names) of the
// form controls in main that no label names: every control must have one.
const unlabelledControls = `[...document.querySelectorAll("main input:not([type=hidden]), main select, main textarea")]
	.filter(el => !(el.labels && el.labels.length) && !el.getAttribute("aria-label"))
	.map(el => el.id || el.name)`

// checkLabels fails when a control of the page lacks a label.
func (u *user) checkLabels() {
	u.t.Helper()
	if missing := get(u, chromedp.Evaluate[[]string](unlabelledControls)); len(missing) > 0 {
		u.t.Fatalf("controls without a label: %v", missing)
	}
}

// setValue sets a control's value as a script would (selects, and
// clearing a field before typing into it).
func (u *user) setValue(sel, val string) {
	u.t.Helper()
	u.run(chromedp.WaitReady(chromedp.CSS(sel)))
	get(u, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const el = document.querySelector(%q); el.value = %q; el.dispatchEvent(new Event("change", {bubbles: true})); return true })()`, sel, val)))
}

// textOf reads an element's text in one script call, which a page
// replaced between finding the node and reading it cannot break.
func (u *user) textOf(sel string) string {
	u.t.Helper()
	u.run(chromedp.WaitVisible(chromedp.CSS(sel)))
	return strings.TrimSpace(get(u, innerText(sel)))
}

// press clicks a button that asks for confirmation and navigates, from a
// script task of the page's own, so the click never waits on a node the
// navigation has replaced; then it waits for wait to show.
func (u *user) press(sel, wait string) {
	u.t.Helper()
	get(u, chromedp.Evaluate[bool](fmt.Sprintf(`(() => { const b = document.querySelector(%q); setTimeout(() => b.click(), 0); return true })()`, sel)))
	u.run(chromedp.WaitVisible(chromedp.CSS(wait)))
}

// submitForm fills the fields of a form by CSS selector and submits it,
// waiting for wait to show.
func (u *user) submitForm(fields map[string]string, submit, wait string) {
	u.t.Helper()
	for sel, val := range fields {
		u.setValue(sel, "")
		u.run(chromedp.SendKeys(chromedp.CSS(sel), val))
	}
	u.run(chromedp.Click(chromedp.CSS(submit)), chromedp.WaitVisible(chromedp.CSS(wait)))
}

// clearNotice removes the success message, so a wait for the next one
// cannot see the old.
func (u *user) clearNotice() {
	u.t.Helper()
	get(u, chromedp.Evaluate[bool](`(() => { document.querySelectorAll("main > p.notice.ok").forEach(n => n.remove()); return true })()`))
}

// TestAdminInBrowser walks the admin area and the incident timeline in
// Chromium: users, API keys, webhook sources, policy rules with a
// condition error at its position, settings with a write-only key, the
// audit trail, what a non-admin meets, and an incident's timeline.
func TestAdminInBrowser(t *testing.T) {
	requireBrowser(t)
	top := t
	srv := startServer(t)
	for name, role := range map[string]string{"ada": "admin", "amy": "analyst"} {
		srv.createUser(t, name, role)
	}
	// One admin walks many pages in a minute, each several API reads that
	// count against the read limit like any client's.
	srv.api(t, http.MethodPut, "/api/settings/rate_limits", map[string]any{
		"read_per_minute": 5000, "write_per_minute": 500, "triage_per_minute": 100}, http.StatusOK)
	b := newBrowser(t, srv.base)
	var admin *user

	t.Run("admin creates a user, changes the role, disables it", func(t *testing.T) {
		admin = b.signIn(t, top, "ada")
		admin.open("/admin")
		admin.run(chromedp.Click(chromedp.CSS(`ul.sections a[href="/admin/users"]`)), chromedp.WaitVisible(chromedp.CSS("#create-user")))
		admin.checkLabels()
		// Keyboard: the form is reachable and walkable with Tab.
		admin.run(chromedp.Focus(chromedp.CSS("#nu-username")), chromedp.KeyEvent("\t"))
		if id := get(admin, chromedp.Evaluate[string](`document.activeElement.id`)); id != "nu-email" {
			t.Fatalf("Tab from the username goes to %q, want nu-email", id)
		}
		admin.setValue("#nu-role", "viewer")
		admin.submitForm(map[string]string{"#nu-username": "nina", "#nu-email": "nina@example.com", "#nu-password": userPassword},
			"#create-user-submit", doneNotice)
		row := `tr[data-user="nina"]`
		if got := admin.textOf(row); !strings.Contains(got, "viewer") || !strings.Contains(got, "enabled") {
			t.Fatalf("new user row: %q", got)
		}
		admin.screenshot("admin-users")
		admin.clearNotice()
		admin.setValue(row+" select", "senior")
		admin.press(row+` form:first-of-type button`, doneNotice)
		if got := admin.textOf(row); !strings.Contains(got, "senior") {
			t.Fatalf("after the role change: %q", got)
		}
		admin.clearNotice()
		admin.press(row+` button.danger`, doneNotice)
		if got := admin.textOf(row); !strings.Contains(got, "disabled") {
			t.Fatalf("after disabling: %q", got)
		}
	})
	t.Run("an API key is shown once", func(t *testing.T) {
		admin.t = t
		admin.open("/admin/api-keys")
		admin.checkLabels()
		admin.run(chromedp.Click(chromedp.CSS("#scope-read")))
		admin.submitForm(map[string]string{"#nk-name": "ci-script"}, "#create-key-submit", "#new-key")
		key := get(admin, chromedp.Value(chromedp.CSS("#new-key")))
		prefix := admin.textOf(`tr[data-key="ci-script"] code`)
		if len(key) < 20 || !strings.HasPrefix(key, strings.TrimSuffix(prefix, "…")) {
			t.Fatalf("key %q does not match its listed prefix %q", key, prefix)
		}
		admin.screenshot("admin-api-key")
		if location := get(admin, chromedp.Location()); strings.Contains(location, key) {
			t.Fatal("the key is in the address")
		}
		req, _ := http.NewRequest(http.MethodGet, srv.base+"/api/users/me", nil)
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("the new key answers %d", res.StatusCode)
		}
		admin.open("/admin/api-keys")
		if admin.exists("#new-key") || strings.Contains(get(admin, chromedp.OuterHTML(chromedp.CSS("html"))), key) {
			t.Fatal("the key is shown again")
		}
	})
	t.Run("webhook source shows its URL and a rotated secret", func(t *testing.T) {
		admin.t = t
		admin.open("/admin/webhooks")
		admin.checkLabels()
		admin.submitForm(map[string]string{"#wh-source": "mail-gw"}, "#register-webhook-submit", "#webhook-shown")
		want := srv.base + "/api/webhooks/mail-gw"
		if got := get(admin, chromedp.Value(chromedp.CSS("#shown-url"))); got != want {
			t.Fatalf("URL to configure %q, want %q", got, want)
		}
		first := get(admin, chromedp.Value(chromedp.CSS("#shown-secret")))
		if got := admin.textOf(`tr[data-source="mail-gw"] .intake-url`); got != want {
			t.Fatalf("listed URL %q, want %q", got, want)
		}
		admin.screenshot("admin-webhooks")
		get(admin, chromedp.Evaluate[bool](`(() => { document.querySelector("#webhook-shown").remove(); return true })()`))
		admin.press(`tr[data-source="mail-gw"] form[action$="/rotate"] button`, "#shown-secret")
		if second := get(admin, chromedp.Value(chromedp.CSS("#shown-secret"))); len(second) != 64 || second == first {
			t.Fatalf("rotated secret %q (was %q)", second, first)
		}
	})
	t.Run("a bad condition is shown at its line and column", func(t *testing.T) {
		admin.t = t
		admin.open("/admin/policies")
		admin.checkLabels()
		cond := "action.type == \"isolate_host\"\n  && incident.severity =="
		var ce *policy.CompileError
		if _, err := policy.Compile(cond); !errors.As(err, &ce) {
			t.Fatalf("the condition compiles: %v", err)
		}
		admin.submitForm(map[string]string{"#pr-name": "hosts need a manager", "#pr-condition": cond}, "#rule-submit", "#condition-error")
		where := fmt.Sprintf(`#condition-error[data-line="%d"][data-column="%d"]`, ce.Line, ce.Column)
		if !admin.exists(where) {
			t.Fatalf("error not at line %d column %d: %q", ce.Line, ce.Column, admin.textOf("#condition-error"))
		}
		if got := admin.textOf("#condition-error"); !strings.Contains(got, fmt.Sprintf("Line %d, column %d", ce.Line, ce.Column)) {
			t.Fatalf("error text %q", got)
		}
		if got := get(admin, chromedp.Value(chromedp.CSS("#pr-condition"))); got != cond {
			t.Fatalf("the refused condition was not kept: %q", got)
		}
		admin.screenshot("admin-policy-error")
		admin.setValue("#pr-condition", `action.type == "block_sender"`)
		admin.setValue("#pr-level", "manager")
		admin.run(chromedp.Click(chromedp.CSS("#rule-submit")), chromedp.WaitVisible(chromedp.CSS(doneNotice)))
		if !admin.exists(`tr[data-rule="hosts need a manager"]`) {
			t.Fatal("the corrected rule is not listed")
		}
	})
	t.Run("settings keep the LLM key write-only", func(t *testing.T) {
		admin.t = t
		admin.open("/admin/settings")
		admin.checkLabels()
		const secret = "sk-e2e-write-only-0123456789"
		admin.submitForm(map[string]string{"#setting-llm-api_key": secret}, "#setting-llm-submit", doneNotice)
		page := get(admin, chromedp.OuterHTML(chromedp.CSS("html")))
		if strings.Contains(page, secret) || !strings.Contains(page, "a key is stored") {
			t.Fatal("the LLM key is shown, or not marked as stored")
		}
		admin.submitForm(map[string]string{"#setting-rate_limits-read_per_minute": "many"}, "#setting-rate_limits-submit", `#setting-rate_limits .notice.error`)
		if got := admin.textOf(`#setting-rate_limits .notice.error`); !strings.Contains(got, "read_per_minute") {
			t.Fatalf("a bad number is reported as %q", got)
		}
		admin.submitForm(map[string]string{"#setting-outbound-allow_hosts": "hooks.internal:8443\n10.20.0.5"}, "#setting-outbound-submit", doneNotice)
		out := srv.api(t, http.MethodGet, "/api/settings/outbound", nil, http.StatusOK)
		if hosts, _ := out["value"].(map[string]any)["allow_hosts"].([]any); len(hosts) != 2 || hosts[0] != "hooks.internal:8443" {
			t.Fatalf("outbound allow_hosts saved as %v", out["value"])
		}
		admin.screenshot("admin-settings")
	})
	t.Run("audit trail filters", func(t *testing.T) {
		admin.t = t
		admin.open("/admin/audit")
		admin.checkLabels()
		// The table goes first, so only the filtered page can bring it back.
		get(admin, chromedp.Evaluate[bool](`(() => { document.querySelector("#audit").remove(); return true })()`))
		admin.submitForm(map[string]string{"#a-action": "user.create"}, `form.filters button[type="submit"]`, "#audit")
		rows := get(admin, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#audit tbody tr")].map(r => r.dataset.action || "")`))
		if len(rows) == 0 || rows[0] != "user.create" {
			t.Fatalf("filtered rows %v", rows)
		}
		for _, a := range rows {
			if a != "user.create" {
				t.Fatalf("the filter let %q through", a)
			}
		}
		admin.screenshot("admin-audit")
	})
	t.Run("a non-admin gets no admin pages and a forged POST is refused", func(t *testing.T) {
		analyst := b.signIn(t, top, "amy")
		if analyst.exists(`nav[aria-label="Main"] a[href="/admin"]`) {
			t.Fatal("an analyst is offered the admin area")
		}
		analyst.open("/admin/users")
		if got := analyst.textOf("h1"); got != "Not allowed" {
			t.Fatalf("an analyst opening the users page sees %q", got)
		}
		status := get(analyst, chromedp.Evaluate[string](`(async () => {
			const s = await (await fetch("/api/session")).json();
			const body = new URLSearchParams({csrf_token: s.data.csrf_token, form: "create-user",
				username: "forged", email: "forged@example.com", role: "admin", password: "a long enough password 1"});
			const r = await fetch("/admin/users", {method: "POST", body, redirect: "manual"});
			return r.status + " " + (await r.text());
		})()`, chromedp.EvalAwaitPromise))
		if !strings.HasPrefix(status, "403 ") || !strings.Contains(status, "needs role admin") {
			t.Fatalf("forged user creation by an analyst answered %.200q, want 403 naming the admin role", status)
		}
		for _, u := range srv.list(t, "/api/users?per_page=100") {
			if u["username"] == "forged" {
				t.Fatal("the forged user was created")
			}
		}
	})
	t.Run("incident timeline shows the triage and an action", func(t *testing.T) {
		admin.t = t
		inc := srv.api(t, http.MethodPost, "/api/incidents", map[string]any{
			"incident_type": "malware", "source": "edr", "severity": "critical",
			"raw_data": map[string]any{"DetectName": "Ransomware.Conti", "host_id": "fin-ws-042"},
		}, http.StatusCreated)
		id := inc["id"].(string)
		admin.open("/incidents/" + id)
		admin.run(chromedp.Click(chromedp.CSS("#triage-button")), chromedp.WaitVisible(chromedp.CSS(".verdict-class")))
		admin.clearNotice()
		admin.run(chromedp.Click(chromedp.CSS(`#form-scan_host button[type="submit"]`)), chromedp.WaitVisible(chromedp.CSS(doneNotice)))
		admin.clearNotice()
		admin.submitForm(map[string]string{"#u-assignee": "sam"}, `form[action$="/update"] button[type="submit"]`, doneNotice)
		if got := admin.textOf("#assignee"); got != "sam" {
			t.Fatalf("assignee shows %q", got)
		}
		for _, sel := range []string{`li[data-kind="incident"][data-event="created"]`, `li[data-kind="triage"][data-event="completed"]`,
			`li[data-kind="action"][data-event="requested"]`, `li[data-kind="audit"][data-event="incident.update"]`} {
			if !admin.exists("#timeline " + sel) {
				t.Fatalf("timeline lacks %s: %q", sel, admin.textOf("#timeline"))
			}
		}
		order := get(admin, chromedp.Evaluate[[]string](`[...document.querySelectorAll("#timeline li")].map(l => l.dataset.kind + ":" + l.dataset.event)`))
		if order[0] != "incident:created" {
			t.Fatalf("timeline does not start with the creation: %v", order)
		}
		if got := admin.textOf(`#timeline li[data-kind="triage"][data-event="completed"]`); !strings.Contains(got, "malicious") {
			t.Fatalf("triage entry %q lacks the verdict", got)
		}
		if got := admin.textOf(`#timeline li[data-kind="audit"][data-event="incident.update"]`); !strings.Contains(got, "assignee to sam") || strings.Contains(got, "severity") {
			t.Fatalf("update entry %q", got)
		}
		admin.screenshot("incident-timeline")
	})
}
