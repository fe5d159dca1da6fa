package vendorhttp_test

import (
	"testing"

	"golang.org/x/oauth2"

	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

func TestMicrosoftCredentials(t *testing.T) {
	for _, tc := range []struct{ name, login, tenant, want string }{
		{"public cloud", "https://login.microsoftonline.com", "contoso.onmicrosoft.com",
			"https://login.microsoftonline.com/contoso.onmicrosoft.com/oauth2/v2.0/token"},
		{"trailing slash", "https://login.microsoftonline.us/", "11111111-2222-3333-4444-555555555555",
			"https://login.microsoftonline.us/11111111-2222-3333-4444-555555555555/oauth2/v2.0/token"},
		{"tenant escaped", "https://login.example", "a/b", "https://login.example/a%2Fb/oauth2/v2.0/token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := vendorhttp.MicrosoftCredentials(tc.login, tc.tenant, "app", "s3cret", "https://graph.microsoft.com/.default")
			if c.TokenURL != tc.want {
				t.Errorf("TokenURL = %q, want %q", c.TokenURL, tc.want)
			}
			if c.ClientID != "app" || c.ClientSecret != "s3cret" || len(c.Scopes) != 1 || c.Scopes[0] != "https://graph.microsoft.com/.default" {
				t.Errorf("credentials = %+v", c)
			}
			if c.AuthStyle != oauth2.AuthStyleInParams {
				t.Errorf("AuthStyle = %v, want the secret in the form", c.AuthStyle)
			}
		})
	}
}
