// Package mde connects Vigil to Microsoft Defender for Endpoint: machine
// lookup, network isolation and antivirus scans through its REST API,
// authenticated with the Microsoft identity platform's client-credentials
// flow.
package mde

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations name.
const Type = "mde"

const title = "Microsoft Defender for Endpoint"

// Defaults for the commercial cloud. Regional API hosts
// (us.api.security.microsoft.com, eu..., uk...) take the same token scope.
const (
	DefaultBaseURL  = "https://api.securitycenter.microsoft.com"
	DefaultLoginURL = "https://login.microsoftonline.com"
	DefaultScope    = "https://api.securitycenter.microsoft.com/.default"
)

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: title,
		Kinds: []string{connectors.KindEDR},
		Fields: []connectors.Field{
			{Name: "tenant_id", Description: "Microsoft Entra tenant ID (directory ID)", Required: true},
			{Name: "client_id", Description: "application (client) ID of the app registration", Required: true},
			{Name: "client_secret", Description: "client secret of the app registration", Required: true, Secret: true},
			{Name: "base_url", Description: "Defender for Endpoint API URL", Default: DefaultBaseURL},
			{Name: "login_url", Description: "Microsoft identity platform URL", Default: DefaultLoginURL},
			{Name: "scope", Description: "token scope", Default: DefaultScope},
			{Name: "isolation_type", Description: "Full or Selective (Selective keeps Outlook, Teams and Skype working)", Default: "Full"},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Defender is a configured Defender for Endpoint connector; it implements
// connectors.EDR and connectors.Tester.
type Defender struct {
	api           *vendorhttp.Client
	isolationType string
}

// New builds a connector from cfg without calling Microsoft.
func New(cfg connectors.Config) (*Defender, error) {
	if cfg.HTTP == nil {
		return nil, errors.New("mde: no HTTP client")
	}
	tenant, id, secret := cfg.Settings["tenant_id"], cfg.Settings["client_id"], cfg.Secrets["client_secret"]
	if tenant == "" || id == "" || secret == "" {
		return nil, errors.New("mde: tenant_id, client_id and client_secret are required")
	}
	iso := cfg.Setting("isolation_type", "Full")
	if iso != "Full" && iso != "Selective" {
		return nil, errors.New("mde: isolation_type must be Full or Selective")
	}
	tokens := vendorhttp.MicrosoftCredentials(cfg.Setting("login_url", DefaultLoginURL), tenant, id, secret, cfg.Setting("scope", DefaultScope))
	return &Defender{
		api: &vendorhttp.Client{Vendor: title, BaseURL: cfg.Setting("base_url", DefaultBaseURL), HTTP: cfg.HTTP,
			Auth: vendorhttp.ClientCredentials(title, tokens, cfg.HTTP)},
		isolationType: iso,
	}, nil
}

// Test lists one machine: it proves the credentials and Machine.Read.All.
func (d *Defender) Test(ctx context.Context) error {
	var out list[machine]
	_, err := d.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/api/machines",
		Query: url.Values{"$top": {"1"}}, Out: &out})
	return err
}

// list is the OData collection shape the API answers with.
type list[T any] struct {
	Value []T `json:"value"`
}
