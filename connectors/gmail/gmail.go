// Package gmail acts on Google Workspace mail through the Gmail API with a
// service account that has domain-wide delegation: it impersonates each
// configured user, finds a message by its RFC 822 Message-ID, moves it to
// the trash and back, and blocks a sender with a filter that sends its
// mail to the trash. Tokens come from the JWT bearer grant
// (golang.org/x/oauth2/jwt) with the user as subject.
package gmail

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/jwt"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations use.
const Type = "gmail"

// Defaults: Google's public endpoints.
const (
	DefaultAPIURL   = "https://gmail.googleapis.com/gmail/v1"
	DefaultTokenURL = "https://oauth2.googleapis.com/token"
)

// Scopes the service account must be granted in the Admin console's
// domain-wide delegation: gmail.modify for listing, trashing and
// untrashing messages, gmail.settings.basic for filters.
var Scopes = []string{
	"https://www.googleapis.com/auth/gmail.modify",
	"https://www.googleapis.com/auth/gmail.settings.basic",
}

const vendorName = "Gmail"

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: "Google Workspace Gmail",
		Kinds: []string{connectors.KindEmailGateway},
		Fields: []connectors.Field{
			{Name: "service_account_key", Required: true, Secret: true,
				Description: "the service account's JSON key file, as downloaded"},
			{Name: "mailboxes", Required: true, Description: "comma-separated addresses of the users acted on"},
			{Name: "api_url", Default: DefaultAPIURL, Description: "Gmail API root"},
			{Name: "token_url", Description: "token endpoint (default: the key file's token_uri, else Google's)"},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// serviceAccountKey is the part of a JSON key file the JWT grant needs.
type serviceAccountKey struct {
	Type         string `json:"type"`
	ClientEmail  string `json:"client_email"`
	PrivateKey   string `json:"private_key"`
	PrivateKeyID string `json:"private_key_id"`
	TokenURI     string `json:"token_uri"`
}

// Connector is a configured Workspace domain; it implements
// connectors.EmailGateway and connectors.Tester.
type Connector struct {
	apiURL    string
	http      *http.Client
	key       serviceAccountKey
	tokenURL  string
	mailboxes []string

	mu      sync.Mutex
	clients map[string]*vendorhttp.Client // per impersonated user
}

// New builds a connector from cfg without calling Google.
func New(cfg connectors.Config) (*Connector, error) {
	var key serviceAccountKey
	if err := json.Unmarshal([]byte(cfg.Secrets["service_account_key"]), &key); err != nil ||
		key.ClientEmail == "" || key.PrivateKey == "" || (key.Type != "" && key.Type != "service_account") {
		return nil, connectors.Permanentf("gmail: service_account_key is not a service account JSON key")
	}
	var mailboxes []string
	for _, m := range strings.Split(cfg.Setting("mailboxes", ""), ",") {
		if m = strings.TrimSpace(m); m != "" {
			mailboxes = append(mailboxes, m)
		}
	}
	if len(mailboxes) == 0 {
		return nil, connectors.Permanentf("gmail: mailboxes names no user")
	}
	tokenURL := cfg.Setting("token_url", key.TokenURI)
	if tokenURL == "" {
		tokenURL = DefaultTokenURL
	}
	return &Connector{apiURL: cfg.Setting("api_url", DefaultAPIURL), http: cfg.HTTP, key: key, tokenURL: tokenURL,
		mailboxes: mailboxes, clients: map[string]*vendorhttp.Client{}}, nil
}

// as returns the API client acting as user, whose tokens the service
// account obtains by impersonating that user.
func (c *Connector) as(user string) *vendorhttp.Client {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.clients[user]; ok {
		return cl
	}
	conf := &jwt.Config{Email: c.key.ClientEmail, PrivateKey: []byte(c.key.PrivateKey), PrivateKeyID: c.key.PrivateKeyID,
		Subject: user, Scopes: Scopes, TokenURL: c.tokenURL}
	ts := conf.TokenSource(context.WithValue(context.Background(), oauth2.HTTPClient, c.http))
	cl := &vendorhttp.Client{Vendor: vendorName, BaseURL: c.apiURL + "/users/me", HTTP: c.http, Auth: delegatedAuth(ts)}
	c.clients[user] = cl
	return cl
}

// delegatedAuth sets the bearer token from ts. Google refusing the
// delegation itself (unauthorized_client: the client id or a scope is not
// granted in the Admin console) is a permission problem, not a wrong key.
func delegatedAuth(ts oauth2.TokenSource) func(context.Context, *http.Request) error {
	return func(ctx context.Context, req *http.Request) error {
		tok, err := ts.Token()
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode == "" {
			// The JWT grant leaves Google's error body unparsed.
			var body struct {
				Code        string `json:"error"`
				Description string `json:"error_description"`
			}
			if json.Unmarshal(re.Body, &body) == nil {
				re.ErrorCode, re.ErrorDescription = body.Code, body.Description
			}
		}
		switch {
		case errors.As(err, &re) && re.ErrorCode == "unauthorized_client":
			return &vendorhttp.Error{Vendor: vendorName, Kind: vendorhttp.ErrPermission, Permanent: true,
				Detail: "domain-wide delegation is not granted for this client and these scopes"}
		case err != nil:
			// Classified as every other token failure is.
			return vendorhttp.BearerFrom(vendorName, failedSource{err})(ctx, req)
		}
		tok.SetAuthHeader(req)
		return nil
	}
}

// failedSource hands an already failed token request to BearerFrom.
type failedSource struct{ err error }

func (f failedSource) Token() (*oauth2.Token, error) { return nil, f.err }

// Test reads each user's profile: it proves the key, the delegation and
// the Gmail scope for every configured mailbox.
func (c *Connector) Test(ctx context.Context) error {
	for _, m := range c.mailboxes {
		if _, err := c.as(m).Do(ctx, vendorhttp.Request{Method: "GET", Path: "/profile"}); err != nil {
			return fmt.Errorf("mailbox %s: %w", m, err)
		}
	}
	return nil
}

// isNotFound reports a 404, which for a deletion means it already happened.
func isNotFound(err error) bool { return errors.Is(err, vendorhttp.ErrNotFound) }
