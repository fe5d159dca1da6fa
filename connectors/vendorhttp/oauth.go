package vendorhttp

import (
	"context"
	"errors"
	"net/http"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// ClientCredentials returns an Auth hook that sends a bearer token from
// the OAuth 2.0 client-credentials grant (CrowdStrike, Microsoft identity
// platform, Okta service apps). Tokens are fetched through httpClient (the
// connector's policy-checked client), cached and renewed shortly before
// they expire. A refused token request is ErrAuth and permanent.
func ClientCredentials(vendor string, cfg clientcredentials.Config, httpClient *http.Client) func(context.Context, *http.Request) error {
	base := context.WithValue(context.Background(), oauth2.HTTPClient, httpClient)
	return BearerFrom(vendor, cfg.TokenSource(base))
}

// BearerFrom returns an Auth hook that sets Authorization from ts. The
// token source keeps the context it was made with; callers bind it to the
// connector's HTTP client as ClientCredentials does.
func BearerFrom(vendor string, ts oauth2.TokenSource) func(context.Context, *http.Request) error {
	return func(_ context.Context, req *http.Request) error {
		tok, err := ts.Token()
		if err != nil {
			return tokenError(vendor, err)
		}
		tok.SetAuthHeader(req)
		return nil
	}
}

// tokenError classifies a failed token request: the authorization server
// refusing the client is ErrAuth (permanent); anything else is retried.
// A token endpoint guards no resource, so its 403 (CrowdStrike's answer
// to a wrong secret) refuses the client as 400 (invalid_client,
// unauthorized_client) and 401 do, rather than naming a missing scope.
func tokenError(vendor string, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil {
		kind, permanent := classify(re.Response.StatusCode)
		if s := re.Response.StatusCode; s == http.StatusBadRequest || s == http.StatusForbidden {
			kind = ErrAuth
		}
		detail := re.ErrorDescription
		if detail == "" {
			detail = re.ErrorCode
		}
		if detail == "" {
			detail = vendorMessage(re.Body)
		}
		return &Error{Vendor: vendor, Status: re.Response.StatusCode, Kind: kind, Permanent: permanent, Detail: clip(detail)}
	}
	return &Error{Vendor: vendor, Kind: ErrNetwork, Detail: "token request failed: " + networkDetail(err)}
}

// StaticHeader returns an Auth hook that sets one header to a fixed value
// (API keys: "x-apikey", "Key", "Authorization: SSWS ...").
func StaticHeader(name, value string) func(context.Context, *http.Request) error {
	return func(_ context.Context, req *http.Request) error {
		req.Header.Set(name, value)
		return nil
	}
}
