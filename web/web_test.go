package web

import "testing"

// TestTemplatesParse fails when an embedded template does not parse or a
// page of the navigation lacks its template.
func TestTemplatesParse(t *testing.T) {
	p := mustParsePages()
	for _, name := range []string{"incidents", "incident", "approvals", "actions", "action", "playbooks", "playbook", "playbookeditor", "playbookrun", "hunts", "hunt", "killswitch", "system", "placeholder", "error", "admin", "adminusers", "adminkeys", "adminwebhooks", "adminpolicies", "adminpolicy", "adminsettings", "adminconnectors", "adminaudit", "notifications", "deliveries", "datasources", "packages", "package", "knowledge", "knowledgearticle"} {
		if p.byName[name] == nil {
			t.Errorf("page template %q missing", name)
		}
	}
}
