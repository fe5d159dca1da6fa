package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// browser is one Chromium process; each user gets a browser context of
// its own (separate cookies), as if on a different machine.
type browser struct {
	alloc context.Context
	root  context.Context
	base  string
}

func newBrowser(t *testing.T, base string) *browser {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	root, cancelRoot := chromedp.NewContext(alloc)
	if err := chromedp.Do(root); err != nil {
		cancelRoot()
		cancelAlloc()
		t.Fatalf("start chromium: %v", err)
	}
	t.Cleanup(func() { cancelRoot(); cancelAlloc() })
	return &browser{alloc: alloc, root: root, base: base}
}

// user is one signed-in person in their own browser context.
type user struct {
	t    *testing.T
	ctx  context.Context
	base string
}

// signIn opens a fresh browser context, which lives until the test top
// ends, and signs in through the form.
func (b *browser) signIn(t, top *testing.T, name string) *user {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.root, chromedp.WithNewBrowserContext())
	top.Cleanup(cancel)
	// Confirmation dialogs (data-confirm) are accepted, as a user would.
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for _, err := range dialogs {
			if err != nil {
				return
			}
			_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
		}
	}()
	u := &user{t: t, ctx: ctx, base: b.base}
	u.run(chromedp.Navigate(b.base+"/login"),
		chromedp.WaitVisible(chromedp.CSS("#login")),
		chromedp.SendKeys(chromedp.CSS("#login"), name),
		chromedp.SendKeys(chromedp.CSS("#password"), userPassword),
		chromedp.Submit(chromedp.CSS("#password")),
		chromedp.WaitVisible(chromedp.CSS(`nav[aria-label="Main"]`)))
	return u
}

// run performs browser steps, failing the test after a bounded wait.
func (u *user) run(steps ...chromedp.Action[chromedp.Void]) {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(u.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		u.fail(err)
	}
}

// get runs one step that answers a value, failing like run.
func get[T any](u *user, step chromedp.Action[T]) T {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(u.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, step)
	if err != nil {
		u.fail(err)
	}
	return v
}

func (u *user) fail(err error) {
	u.t.Helper()
	ctx, cancel := context.WithTimeout(u.ctx, 5*time.Second)
	defer cancel()
	where, _ := chromedp.Run(ctx, chromedp.Location())
	u.t.Fatalf("browser at %s: %v", where, err)
}

func (u *user) open(path string) {
	u.t.Helper()
	u.run(chromedp.Navigate(u.base+path), chromedp.WaitReady(chromedp.CSS("main")))
}

func (u *user) text(sel string) string {
	u.t.Helper()
	return get(u, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
}

// shows reports whether the page now shows want within sel, for polling
// across a navigation: a page being replaced answers false, not a failure.
func (u *user) shows(sel, want string) bool {
	ctx, cancel := context.WithTimeout(u.ctx, 5*time.Second)
	defer cancel()
	got, err := chromedp.Run(ctx, innerText(sel))
	return err == nil && strings.Contains(got, want)
}

// innerText answers sel's text by script, "" when nothing matches; it
// holds no node id a navigation could invalidate.
func innerText(sel string) chromedp.Action[string] {
	return chromedp.Evaluate[string](fmt.Sprintf(`(document.querySelector(%q) || {innerText: ""}).innerText`, sel))
}

func (u *user) exists(sel string) bool {
	u.t.Helper()
	return get(u, chromedp.Evaluate[bool](fmt.Sprintf("document.querySelector(%q) !== null", sel)))
}

// screenshot writes a PNG when VIGIL_SCREENSHOT_DIR is set (make
// screenshots); tests pass the same without it.
func (u *user) screenshot(name string) {
	u.t.Helper()
	dir := os.Getenv("VIGIL_SCREENSHOT_DIR")
	if dir == "" {
		return
	}
	png := get(u, chromedp.FullScreenshot(100))
	if err := os.WriteFile(filepath.Join(dir, "dashboard-"+name+".png"), png, 0o644); err != nil {
		u.t.Fatal(err)
	}
}

// doneNotice is the success message after a redirect; the editor's own
// "valid" notice lacks the status role, so a wait cannot mistake it.
const doneNotice = `main > p.notice.ok[role="status"]`

// TestDashboardInBrowser walks the dashboard's main flows in Chromium
// against one vigil serve: sign-in, incidents, triage, requesting an
// action that needs approval, deciding it, the refusals a viewer meets,
// the kill switch banner, and the approvals page on a phone.
func TestDashboardInBrowser(t *testing.T) {
	requireBrowser(t)
	top := t
	srv := startServer(t)
	for name, role := range map[string]string{"alice": "analyst", "sam": "senior", "vera": "viewer", "max": "manager"} {
		srv.createUser(t, name, role)
	}
	b := newBrowser(t, srv.base)

	var analyst, senior *user
	var incID, incNumber, actionID string

	t.Run("sign in", func(t *testing.T) {
		analyst = b.signIn(t, top, "alice")
		if got := analyst.text("h1"); got != "Incidents" {
			t.Fatalf("after sign-in the page says %q, want the incident list", got)
		}
	})
	t.Run("new incident in the list", func(t *testing.T) {
		analyst.t = t
		inc := srv.api(t, http.MethodPost, "/api/incidents", map[string]any{
			"incident_type": "malware", "source": "edr", "severity": "critical",
			"raw_data": map[string]any{"DetectName": "Ransomware.Conti", "CommandLine": "vssadmin delete shadows /all /quiet",
				"host_id": "fin-ws-042", "HostnameField": "fin-ws-042"},
		}, http.StatusCreated)
		incID, incNumber = inc["id"].(string), inc["incident_number"].(string)
		analyst.open("/incidents")
		if !strings.Contains(analyst.text("table"), incNumber) {
			t.Fatalf("incident %s not in the list", incNumber)
		}
		// The counts per status add up to "all", and the new incident is open.
		counts := get(analyst, chromedp.Evaluate[[]int](`[...document.querySelectorAll("ul.counts strong")].map(e => parseInt(e.textContent, 10))`))
		if len(counts) != 4 || counts[1] < 1 || counts[0] != counts[1]+counts[2]+counts[3] {
			t.Fatalf("counts all, open, triaged, resolved = %v", counts)
		}
		analyst.open("/incidents?q=" + incNumber)
		if !strings.Contains(analyst.text("table"), incNumber) {
			t.Fatalf("searching %s does not find it", incNumber)
		}
	})
	t.Run("verdict after triage", func(t *testing.T) {
		analyst.t = t
		analyst.run(chromedp.Click(chromedp.CSS(fmt.Sprintf(`a[href="/incidents/%s"]`, incID))),
			chromedp.WaitVisible(chromedp.CSS("#triage-button")))
		analyst.run(chromedp.Click(chromedp.CSS("#triage-button")),
			chromedp.WaitVisible(chromedp.CSS(".verdict-class")))
		if got := analyst.text(".verdict-class"); got != "malicious" {
			t.Fatalf("verdict %q, want malicious", got)
		}
		analyst.screenshot("incident")
	})
	t.Run("analyst requests isolate_host and sees it pending", func(t *testing.T) {
		analyst.t = t
		analyst.run(chromedp.Click(chromedp.CSS(`#form-isolate_host button[type="submit"]`)),
			chromedp.WaitVisible(chromedp.CSS(`tr[data-action-type="isolate_host"][data-status="pending_approval"]`)))
		acts := srv.list(t, "/api/incidents/"+incID+"/actions")
		for _, a := range acts {
			if a["action_type"] == "isolate_host" {
				actionID = a["id"].(string)
			}
		}
		if actionID == "" {
			t.Fatal("no isolate_host action recorded")
		}
	})
	t.Run("viewer sees no approve button and a forged approval is refused", func(t *testing.T) {
		viewer := b.signIn(t, top, "vera")
		viewer.open("/approvals")
		if viewer.exists(`form[action$="/approve"]`) {
			t.Fatal("a viewer is offered an approve button")
		}
		// The viewer's own session and CSRF token, posted by hand: the
		// API refuses the role, whatever the page showed.
		status := get(viewer, chromedp.Evaluate[int](fmt.Sprintf(`(async () => {
			const s = await (await fetch("/api/session")).json();
			const body = new URLSearchParams({csrf_token: s.data.csrf_token, comment: "forged"});
			const r = await fetch("/approvals/%s/approve", {method: "POST", body, redirect: "manual"});
			return r.status;
		})()`, actionID), chromedp.EvalAwaitPromise))
		if status != http.StatusForbidden {
			t.Fatalf("forged approval by a viewer answered %d, want 403", status)
		}
		if got := srv.api(t, http.MethodGet, "/api/actions/"+actionID, nil, http.StatusOK)["status"]; got != "pending_approval" {
			t.Fatalf("after the forged approval the action is %v", got)
		}
	})
	t.Run("approvals page fits a phone", func(t *testing.T) {
		senior = b.signIn(t, top, "sam")
		senior.run(chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
		senior.open("/approvals")
		senior.run(chromedp.WaitVisible(chromedp.CSS("#action-" + actionID)))
		width := get(senior, chromedp.Evaluate[int](`document.scrollingElement.scrollWidth`))
		if width > 390 {
			t.Fatalf("approvals page is %d px wide at 390 px: it scrolls sideways", width)
		}
		if dir := os.Getenv("VIGIL_SCREENSHOT_DIR"); dir != "" {
			png := get(senior, chromedp.CaptureScreenshot())
			_ = os.WriteFile(filepath.Join(dir, "dashboard-approvals-phone.png"), png, 0o644)
		}
		senior.run(chromedp.EmulateViewport(1280, 900))
		senior.open("/approvals")
		senior.screenshot("approvals")
	})
	t.Run("senior approves and the action completes", func(t *testing.T) {
		senior.t = t
		senior.run(chromedp.SendKeys(chromedp.CSS("#c-"+actionID), "contained, go ahead"),
			chromedp.Click(chromedp.CSS(fmt.Sprintf(`form[action="/approvals/%s/approve"] button`, actionID))),
			chromedp.WaitVisible(chromedp.CSS(`p.notice.ok`)))
		if senior.exists("#action-" + actionID) {
			t.Fatal("the approved action is still in the queue")
		}
		senior.open("/incidents/" + incID)
		senior.run(chromedp.WaitVisible(chromedp.CSS(`tr[data-action-type="isolate_host"][data-status="completed"]`)))
		if !strings.Contains(senior.text(`tr[data-action-type="isolate_host"]`), "approved by sam") {
			t.Fatal("the action row does not name its approver")
		}
	})
	t.Run("actions list shows the requested isolate_host", func(t *testing.T) {
		senior.t = t
		senior.open("/actions?action_type=isolate_host")
		row := fmt.Sprintf(`tr[data-action-type="isolate_host"] a[href="/actions/%s"]`, actionID)
		senior.run(chromedp.WaitVisible(chromedp.CSS(row)))
		senior.run(chromedp.Click(chromedp.CSS(row)), chromedp.WaitVisible(chromedp.CSS("#approved-by")))
		if got := senior.text("#approved-by"); !strings.Contains(got, "sam") {
			t.Fatalf("action detail names approver %q, want sam", got)
		}
		senior.screenshot("action")
		senior.run(chromedp.SendKeys(chromedp.CSS("#rb-reason"), "false positive after all"),
			chromedp.Click(chromedp.CSS("#rollback-submit")),
			chromedp.WaitVisible(chromedp.CSS("p.notice.ok")))
		if got := senior.text("h1"); !strings.Contains(got, "unisolate host") || !strings.Contains(senior.text("p.notice.ok"), "completed") {
			t.Fatalf("after rollback the page shows %q / %q", got, senior.text("p.notice.ok"))
		}
	})
	t.Run("playbook editor shows an unknown action at its line", func(t *testing.T) {
		manager := b.signIn(t, top, "max")
		manager.open("/playbooks/new")
		// Replace the starter text; the unknown action is on line 4.
		get(manager, chromedp.Evaluate[bool](`(document.querySelector("#pb-content").value = "") === ""`))
		manager.run(chromedp.SendKeys(chromedp.CSS("#pb-content"), "name: contain\nsteps:\n  - name: boom\n    action: launch_missiles\n"),
			chromedp.WaitVisible(chromedp.CSS(`#problems li.problem-error[data-line="4"]`)))
		got := manager.text(`#problems li.problem-error[data-line="4"]`)
		if !strings.Contains(got, "line 4") || !strings.Contains(got, `unknown action "launch_missiles"`) {
			t.Fatalf("editor shows %q for line 4", got)
		}
		manager.screenshot("playbook-editor")
		// Saving the same text is refused by the API, with the error at
		// the same line and the text kept (the list is emptied first, so
		// only the answer to the save can fill it).
		get(manager, chromedp.Evaluate[bool](`(document.querySelector("#problems").innerHTML = "") === ""`))
		manager.run(chromedp.Click(chromedp.CSS("#save-playbook")),
			chromedp.WaitVisible(chromedp.CSS(`#problems li.problem-error[data-line="4"]`)))
		if !strings.Contains(get(manager, chromedp.Value(chromedp.CSS("#pb-content"))), "launch_missiles") {
			t.Fatal("a refused save lost the text")
		}
	})
	t.Run("playbook saved from the editor, changed and restored", func(t *testing.T) {
		manager := b.signIn(t, top, "max")
		manager.open("/playbooks/new")
		text := "name: e2e scan\ndescription: first\ntriggers:\n  incident_type: malware\nsteps:\n  - name: scan\n    action: scan_host\n    parameters:\n      host_id: fin-ws-042\n"
		get(manager, chromedp.Evaluate[bool](`(document.querySelector("#pb-content").value = "") === ""`))
		manager.run(chromedp.SendKeys(chromedp.CSS("#pb-content"), text),
			chromedp.WaitVisible(chromedp.CSS("#playbook-valid")),
			chromedp.Click(chromedp.CSS("#save-playbook")),
			chromedp.WaitVisible(chromedp.CSS(doneNotice)))
		if got := manager.text("h1"); got != "e2e scan" {
			t.Fatalf("after saving the page is %q", got)
		}
		manager.run(chromedp.Click(chromedp.CSS("#edit-link")), chromedp.WaitVisible(chromedp.CSS("#pb-content")))
		get(manager, chromedp.Evaluate[bool](`(() => { const t = document.querySelector("#pb-content"); t.value = t.value.replace("first", "second"); return true })()`))
		manager.run(chromedp.Click(chromedp.CSS("#save-playbook")), chromedp.WaitVisible(chromedp.CSS(doneNotice)))
		// A fresh page without the "Saved." notice, so the wait below
		// sees the restore's own.
		manager.open(get(manager, chromedp.Evaluate[string](`location.pathname`)))
		manager.run(chromedp.Click(chromedp.CSS(`#versions form[action$="/restore"] button`)),
			chromedp.WaitVisible(chromedp.CSS(doneNotice)))
		if got := manager.text(doneNotice); !strings.Contains(got, "restored") {
			t.Fatalf("after restore the page says %q", got)
		}
		if !strings.Contains(manager.text("main"), "first") {
			t.Fatal("the restored version does not carry the first description")
		}
	})
	t.Run("analyst's forged playbook save is refused", func(t *testing.T) {
		analyst.t = t
		analyst.open("/playbooks")
		if analyst.exists("#new-playbook") {
			t.Fatal("an analyst is offered the new playbook button")
		}
		// The analyst's own session and CSRF token, posted by hand: the
		// API refuses the role, whatever the page showed.
		status := get(analyst, chromedp.Evaluate[string](`(async () => {
			const s = await (await fetch("/api/session")).json();
			const body = new URLSearchParams({csrf_token: s.data.csrf_token, form: "save",
				content: "name: forged\nsteps:\n  - name: s\n    action: scan_host\n    parameters:\n      host_id: x\n"});
			const r = await fetch("/playbooks/new", {method: "POST", body, redirect: "manual"});
			return r.status + " " + (await r.text());
		})()`, chromedp.EvalAwaitPromise))
		// The refusal is the role's, not a CSRF failure: the token was
		// good, so only the role check stands between the analyst and it.
		if !strings.HasPrefix(status, "403 ") || !strings.Contains(status, "needs role manager") {
			t.Fatalf("forged playbook save by an analyst answered %.200q, want 403 naming the manager role", status)
		}
		for _, p := range srv.list(t, "/api/playbooks") {
			if p["name"] == "forged" {
				t.Fatal("the forged playbook was saved")
			}
		}
	})
	t.Run("playbook runs on an incident by number", func(t *testing.T) {
		analyst.t = t
		analyst.open("/playbooks")
		analyst.run(chromedp.Click(chromedp.CSS(`tr[data-playbook="Malware containment"] a`)),
			chromedp.WaitVisible(chromedp.CSS("#run-incident")))
		analyst.run(chromedp.SendKeys(chromedp.CSS("#run-incident"), incNumber),
			chromedp.Click(chromedp.CSS("#run-submit")),
			chromedp.WaitVisible(chromedp.CSS("#run-progress")))
		analyst.run(chromedp.WaitVisible(chromedp.CSS(`#run-progress tr.step-row`)))
		if !analyst.exists("#run-workflow") {
			t.Fatal("the run page has no link to its workflow")
		}
		analyst.screenshot("playbook-run")
	})
	t.Run("server time per page", func(t *testing.T) {
		measurePages(t, srv.base, "sam", "/incidents", "/incidents/"+incID, "/approvals", "/actions", "/actions/"+actionID, "/kill-switch", "/system")
	})
	t.Run("kill switch banner on every page", func(t *testing.T) {
		manager := b.signIn(t, top, "max")
		analyst.t = t
		manager.open("/kill-switch")
		manager.run(chromedp.SendKeys(chromedp.CSS("#ks-reason"), "suspected compromise of the EDR console"),
			chromedp.Click(chromedp.CSS("#ks-submit")),
			chromedp.WaitVisible(chromedp.CSS("#kill-switch-active")))
		manager.screenshot("kill-switch")
		analyst.open("/incidents")
		banner := analyst.text("#kill-switch-active")
		if !strings.Contains(banner, "max") || !strings.Contains(banner, "suspected compromise") {
			t.Fatalf("banner on another page says %q", banner)
		}
		analyst.screenshot("incidents")
		manager.open("/kill-switch")
		manager.run(chromedp.Click(chromedp.CSS("#ks-submit")), chromedp.WaitVisible(chromedp.CSS("p.notice.ok")))
		if manager.exists("#kill-switch-active") {
			t.Fatal("banner still shown after deactivation")
		}
		manager.open("/system")
		manager.screenshot("health")
	})
}
