package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-soc/vigil/internal/testenv"
	"github.com/vigil-soc/vigil/playbook"
	"github.com/vigil-soc/vigil/store"
)

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var packageFolder = map[string]string{
	"manifest.yaml": "name: team-content\nversion: 1.2.0\ndescription: shared content\nauthor: Blue team\n",
	"playbooks/contain.yaml": `name: Contain host
description: isolate it
steps:
  - name: isolate
    action: isolate_host
    parameters:
      host_id: "{{ incident.raw_data.host }}"
`,
	"hunts/spray.yaml": `name: Spray watch
hypothesis: password spraying
queries:
  - query_type: sql
    library_id: team-odd-logons
`,
	"queries/odd.yaml": `name: team-odd-logons
query_type: sql
query: SELECT user_name FROM auth_events WHERE ts >= :from AND ts < :to
severity: medium
`,
	"knowledge/ransomware.md": "---\ntags: [runbook]\nincident_types: [malware]\n---\n# Ransomware runbook\n\nIsolate first.\n",
}

func TestPackageBuildValidateSignAndExitCodes(t *testing.T) {
	t.Setenv("VIGIL_LOG_LEVEL", "error")
	dir := t.TempDir()
	writeFiles(t, dir, packageFolder)
	built := filepath.Join(t.TempDir(), "pkg.json")
	if out, err := capture(t, "package", "build", dir, "-o", built); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	text, _ := os.ReadFile(built)
	for _, want := range []string{`"name": "team-content"`, `"type": "hunt"`, `"title": "Ransomware runbook"`, `"library_id": "team-odd-logons"`} {
		if !strings.Contains(string(text), want) {
			t.Fatalf("built package lacks %s:\n%s", want, text)
		}
	}
	if out, err := capture(t, "package", "validate", built); err != nil || !strings.Contains(out, "valid (4 items)") {
		t.Fatalf("validate built file: %q %v", out, err)
	}

	// Mistakes are reported with file and line, and exit non-zero.
	writeFiles(t, dir, map[string]string{
		"hunts/spray.yaml":     "name: Spray watch\nhypothesis: x\nqueries:\n  - query_type: sql\n    library_id: no-such-query\n",
		"queries/broken.yaml":  "name: bad\nquery_type: kql\nquery: x\ncolour: red\n",
		"playbooks/bomb.yaml":  "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n",
		"knowledge/empty.md":   "",
		"playbooks/steps.yaml": "name: Steps\nsteps:\n  - name: one\n    action: no_such_action\n",
	})
	out, err := capture(t, "package", "validate", dir)
	if err == nil {
		t.Fatalf("validate with mistakes succeeded:\n%s", out)
	}
	for _, want := range []string{
		filepath.Join(dir, "hunts/spray.yaml") + ":5: error: contents[",
		filepath.Join(dir, "queries/broken.yaml") + ":2: error:",
		filepath.Join(dir, "queries/broken.yaml") + ":4: error:",
		filepath.Join(dir, "playbooks/bomb.yaml") + ":2: error: YAML aliases",
		filepath.Join(dir, "playbooks/steps.yaml") + ":4: error:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if _, err := capture(t, "package", "validate", filepath.Join(dir, "missing")); err == nil {
		t.Fatal("a missing path validated")
	}

	// Sign with a new key; only the trusted key passes.
	key := filepath.Join(t.TempDir(), "key.pem")
	out, err = capture(t, "package", "keygen", "--out", key)
	pub := regexp.MustCompile(`public key: (\S+)`).FindStringSubmatch(out)
	if err != nil || pub == nil {
		t.Fatalf("keygen: %q %v", out, err)
	}
	if out, err := capture(t, "package", "sign", "--key", key, built); err != nil {
		t.Fatalf("sign: %v %s", err, out)
	}
	if out, err := capture(t, "package", "validate", built, "--require-signature", "--trusted-key", "blue="+pub[1]); err != nil {
		t.Fatalf("signed package: %v\n%s", err, out)
	}
	if _, err := capture(t, "package", "validate", built, "--require-signature"); err == nil {
		t.Fatal("a package signed by an untrusted key passed")
	}
	signed, _ := os.ReadFile(built)
	if err := os.WriteFile(built, []byte(strings.Replace(string(signed), "Isolate first.", "Do nothing.", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := capture(t, "package", "validate", built, "--require-signature", "--trusted-key", "blue="+pub[1]); err == nil || !strings.Contains(out, "does not match") {
		t.Fatalf("tampered package: %v\n%s", err, out)
	}
}

func TestPackageExportReadsTheDatabase(t *testing.T) {
	t.Setenv("VIGIL_LOG_LEVEL", "error")
	db := t.TempDir() + "/vigil.db"
	t.Setenv("DATABASE_URL", db)
	if _, err := capture(t, "migrate", "up"); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), db, testenv.Logger())
	if err != nil {
		t.Fatal(err)
	}
	text, _ := playbook.BuiltinYAML("Phishing triage")
	if _, err := st.CreatePlaybook(context.Background(), store.PlaybookMeta{Name: "Phishing triage"}, string(text), "t", false); err != nil {
		t.Fatal(err)
	}
	st.Close()
	out, err := capture(t, "package", "export", "playbook", "Phishing triage", "--author", "me", "--version", "2.0.0")
	if err != nil || !strings.Contains(out, `"name": "phishing-triage"`) || !strings.Contains(out, `"steps"`) {
		t.Fatalf("export: %v\n%s", err, out)
	}
	if _, err := capture(t, "package", "export", "playbook", "No such"); err == nil {
		t.Fatal("exporting a missing playbook succeeded")
	}
	if _, err := capture(t, "package", "export", "playbook", "Phishing triage", "--version", "2.0"); err == nil {
		t.Fatal("a non-semantic version exported")
	}
}
