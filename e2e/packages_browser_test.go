package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPackagesAndKnowledgeInBrowser: a manager finds the built-in
// runbook by search, previews an import, confirms it and removes the
// package again.
func TestPackagesAndKnowledgeInBrowser(t *testing.T) {
	requireBrowser(t)
	top := t
	srv := startServer(t)
	srv.createUser(t, "maren", "manager")
	b := newBrowser(t, srv.base)
	u := b.signIn(t, top, "maren")

	u.open("/knowledge?q=phishing")
	if got := u.textOf("#knowledge-hits"); !strings.Contains(got, "Phishing runbook") {
		t.Fatalf("search results: %q", got)
	}
	if !u.exists("#knowledge-hits mark") {
		t.Fatal("the matched word is not highlighted")
	}
	u.run(chromedp.Click(chromedp.CSS("#knowledge-hits h3 a")), chromedp.WaitVisible(chromedp.CSS("#article-body h1")))
	if got := u.textOf("#article-body h1"); got != "Phishing runbook" {
		t.Fatalf("rendered article heading %q", got)
	}
	// An incident's page links the runbooks for its type.
	inc := srv.api(t, http.MethodPost, "/api/incidents", map[string]any{"severity": "low",
		"incident_type": "phishing", "source": "e2e"}, http.StatusCreated)
	u.open("/incidents/" + inc["id"].(string))
	if got := u.textOf("#runbooks"); !strings.Contains(got, "Phishing runbook") {
		t.Fatalf("incident runbooks: %q", got)
	}

	pkg, _ := json.Marshal(map[string]any{
		"manifest": map[string]any{"name": "browser-team", "version": "1.0.0", "description": "d", "author": "blue"},
		"contents": []any{
			map[string]any{"type": "knowledge", "title": "Browser runbook", "content": "# Steps\n\n<script>alert(1)</script>Be calm."},
			map[string]any{"type": "knowledge", "title": "Phishing runbook", "content": "a copy"},
		},
	})
	u.open("/packages")
	if !strings.Contains(u.textOf("#packages-list"), "vigil-builtin") {
		t.Fatal("the built-in package is not listed")
	}
	u.checkLabels()
	u.setValue("#package-text", string(pkg))
	u.setValue("#conflict", "rename")
	u.run(chromedp.Click(chromedp.CSS("#preview-package")), chromedp.WaitVisible(chromedp.CSS("#preview")))
	preview := u.textOf("#preview")
	if !strings.Contains(preview, "created") || !strings.Contains(preview, "Phishing runbook-imported-1") {
		t.Fatalf("preview: %q", preview)
	}
	if list := srv.list(t, "/api/v1/packages"); strings.Contains(mustString(list), "browser-team") {
		t.Fatal("the preview installed the package")
	}
	u.screenshot("package-preview")
	u.run(chromedp.Click(chromedp.CSS("#confirm-import")), chromedp.WaitVisible(chromedp.CSS("#package-items")))
	if !strings.Contains(u.text("main"), "Package imported") || !strings.Contains(u.textOf("#package-items"), "Browser runbook") {
		t.Fatalf("after import: %s", u.text("main"))
	}
	u.press("#delete-package", "#packages-list")
	if strings.Contains(u.textOf("#packages-list"), "browser-team") {
		t.Fatal("the package is still listed after removal")
	}
	srv.api(t, http.MethodGet, "/api/v1/packages/browser-team", nil, http.StatusNotFound)
}

func mustString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
