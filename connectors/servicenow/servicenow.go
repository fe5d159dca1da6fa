// Package servicenow files Vigil's tickets as ServiceNow incidents through
// the Table API. It authenticates with a user's basic credentials or, when
// an OAuth client is configured, with the client-credentials grant. The
// action id is stored in the incident's correlation_id and looked up
// before every creation, so a retried action finds the incident it filed.
package servicenow

import (
	"context"
	"net/http"
	"strings"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations use.
const Type = "servicenow"

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: "ServiceNow",
		Kinds: []string{connectors.KindTicketing},
		Fields: []connectors.Field{
			{Name: "base_url", Required: true, Description: "instance address, for example https://example.service-now.com"},
			{Name: "username", Description: "user for basic authentication (leave empty with OAuth)"},
			{Name: "password", Secret: true, Description: "that user's password"},
			{Name: "client_id", Description: "OAuth client id for the client-credentials grant (instead of a password)"},
			{Name: "client_secret", Secret: true, Description: "OAuth client secret"},
			{Name: "table", Default: "incident", Description: "table incidents are filed in"},
			{Name: "assignment_group", Description: "sys_id or name of the group new incidents are assigned to"},
			{Name: "category", Description: "incident category, for example security (must exist on the instance)"},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Connector is a configured ServiceNow instance; it implements
// connectors.Ticketing and connectors.Tester.
type Connector struct {
	api             *vendorhttp.Client
	instance        string
	table           string
	assignmentGroup string
	category        string
}

// New builds a connector from cfg without calling the instance.
func New(cfg connectors.Config) (*Connector, error) {
	instance := strings.TrimSuffix(cfg.Setting("base_url", ""), "/")
	if instance == "" {
		return nil, connectors.Permanentf("servicenow: base_url is required")
	}
	auth, err := authFor(cfg, instance)
	if err != nil {
		return nil, err
	}
	table := cfg.Setting("table", "incident")
	if strings.ContainsAny(table, "/?#") {
		return nil, connectors.Permanentf("servicenow: table %q is not a table name", table)
	}
	return &Connector{
		api:      &vendorhttp.Client{Vendor: "ServiceNow", BaseURL: instance, HTTP: cfg.HTTP, Auth: auth},
		instance: instance, table: table,
		assignmentGroup: cfg.Setting("assignment_group", ""), category: cfg.Setting("category", ""),
	}, nil
}

// authFor picks OAuth client credentials when a client id is set, else
// basic authentication.
func authFor(cfg connectors.Config, instance string) (func(context.Context, *http.Request) error, error) {
	if id := cfg.Setting("client_id", ""); id != "" {
		secret := cfg.Secrets["client_secret"]
		if secret == "" {
			return nil, connectors.Permanentf("servicenow: client_secret is required with client_id")
		}
		return vendorhttp.ClientCredentials("ServiceNow", clientcredentials.Config{
			ClientID: id, ClientSecret: secret, TokenURL: instance + "/oauth_token.do",
			AuthStyle: oauth2.AuthStyleInParams, // ServiceNow reads them from the form body
		}, cfg.HTTP), nil
	}
	user, pass := cfg.Setting("username", ""), cfg.Secrets["password"]
	if user == "" || pass == "" {
		return nil, connectors.Permanentf("servicenow: set username and password, or client_id and client_secret")
	}
	return func(_ context.Context, req *http.Request) error {
		req.SetBasicAuth(user, pass)
		return nil
	}, nil
}

// Test reads one row of the incident table: it proves the credentials and
// the read access the idempotency check needs.
func (c *Connector) Test(ctx context.Context) error {
	_, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: c.tablePath(),
		Query: map[string][]string{"sysparm_limit": {"1"}, "sysparm_fields": {"sys_id"}}})
	return err
}

func (c *Connector) tablePath() string { return "/api/now/table/" + c.table }
