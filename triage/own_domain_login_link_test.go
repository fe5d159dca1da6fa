package triage

import (
	"strings"
	"testing"
)

// A sign-in or password page on the recipients' own domain, or on their
// tenant of a tenant platform (Workday names it in the path), is their own
// service, not a harvesting page; the same path elsewhere is.
func TestOwnDomainLoginLinkIsNotHarvesting(t *testing.T) {
	reasoning := func(sender, link string) string {
		raw := map[string]any{
			"sender": sender, "subject": "Your password expires in 3 days",
			"recipients": []any{"m.okafor@ironvale.com"},
			"urls":       []any{link},
		}
		return analyze(t, Incident{IncidentType: "phishing", Severity: "medium", RawData: raw}).Verdict.Reasoning
	}
	for _, c := range []struct{ sender, link string }{
		{"selfservice@ironvale.com", "https://passwordreset.ironvale.com/showLogin.cc"},
		{"noreply@hr-notices.example", "https://sso.ironvale.com/login?next=benefits"},
		{"ironvale@myworkday.com", "https://wd5.myworkday.com/ironvale/login.htmld"},
	} {
		if r := reasoning(c.sender, c.link); strings.Contains(r, "credential-harvesting") {
			t.Errorf("%s from %s read as harvesting: %s", c.link, c.sender, r)
		}
	}
	for _, link := range []string{"https://ironvale-passwordreset.example/showLogin.cc", "https://wd5.myworkday.com/otherco/login.htmld"} {
		if r := reasoning("selfservice@ironvale.com", link); !strings.Contains(r, "credential-harvesting") {
			t.Errorf("a login page off the organisation's own ground (%s) was not read as harvesting: %s", link, r)
		}
	}
}
