package vendorhttp

import (
	"net/url"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// MicrosoftCredentials is the client-credentials grant of an app
// registration against the Microsoft identity platform's v2.0 token
// endpoint (loginURL/{tenant}/oauth2/v2.0/token), with the secret sent in
// the form as Microsoft documents. loginURL is the public cloud's
// https://login.microsoftonline.com or a national cloud's; scope is the
// resource's ".default" scope.
func MicrosoftCredentials(loginURL, tenant, clientID, secret, scope string) clientcredentials.Config {
	return clientcredentials.Config{ClientID: clientID, ClientSecret: secret,
		TokenURL:  strings.TrimSuffix(loginURL, "/") + "/" + url.PathEscape(tenant) + "/oauth2/v2.0/token",
		Scopes:    []string{scope},
		AuthStyle: oauth2.AuthStyleInParams}
}
