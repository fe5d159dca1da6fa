package triage

import "testing"

func TestTheOrganisationsTenantOnAContractPlatform(t *testing.T) {
	orgs := []string{"larkspurfoods.com"}
	tests := map[string]bool{
		"larkspurfoods.okta.com":            true,
		"larkspurfoods.wd5.myworkday.com":   true,
		"larkspurfoods.service-now.com":     true,
		"larkspurfoods-sso.okta.com":        false, // another tenant's name
		"larkspurfoods.example-hosting.com": false, // not a contract platform
		"okta.com":                          false,
	}
	for host, want := range tests {
		if got := orgTenantOnPlatform(host, orgs); got != want {
			t.Errorf("%s: %v, want %v", host, got, want)
		}
	}
}

func TestTheHeaderFromComesBeforeTheBounceAddress(t *testing.T) {
	d := newDoc(map[string]any{
		"envelopeFrom": "bounces+1-hr=contoso.com@em12.news.contoso.com",
		"fromAddress":  "hr@news.contoso.com",
	})
	if m := readEmail(d, Indicators{}); m.sender != "hr@news.contoso.com" {
		t.Errorf("sender %q", m.sender)
	}
	d = newDoc(map[string]any{"p1Sender": "bounce@mailer.example.net", "p2Sender": "ceo@contoso.com"})
	if m := readEmail(d, Indicators{}); m.sender != "ceo@contoso.com" {
		t.Errorf("proofpoint sender %q", m.sender)
	}
}

func TestTheGatewaysListOfOwnDomainsMakesMailInternal(t *testing.T) {
	raw := map[string]any{
		"fromAddress":   "benefits@news.contoso.com",
		"tenantContext": map[string]any{"orgDomains": []any{"contoso.com"}},
	}
	if f := normalize(Incident{IncidentType: "phishing", RawData: raw}, Indicators{}); !f.Email.Internal {
		t.Error("mail from the organisation's own domain, named by the gateway, is internal")
	}
	raw["tenantContext"] = map[string]any{"orgDomains": []any{"fabrikam.com"}}
	if f := normalize(Incident{IncidentType: "phishing", RawData: raw}, Indicators{}); f.Email.Internal {
		t.Error("another organisation's domain is not internal")
	}
}
