// Package msgraphmail acts on Microsoft 365 mail through Microsoft Graph
// with an app registration's client credentials: it finds a message by its
// Internet message id in the configured mailboxes, quarantines every copy
// by moving it to a quarantine folder and restores it to the inbox, and
// blocks a sender with an inbox rule in each mailbox that deletes its
// mail. Microsoft Graph has no API for the tenant allow/block list (only
// Exchange Online PowerShell does), so blocks are per mailbox.
package msgraphmail

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations use.
const Type = "msgraphmail"

// Defaults: the public cloud's Graph and identity platform endpoints.
const (
	DefaultGraphURL     = "https://graph.microsoft.com/v1.0"
	DefaultAuthorityURL = "https://login.microsoftonline.com"
	defaultScope        = "https://graph.microsoft.com/.default"
	defaultFolder       = "Vigil Quarantine"
)

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: "Microsoft 365 mail (Microsoft Graph)",
		Kinds: []string{connectors.KindEmailGateway},
		Fields: []connectors.Field{
			{Name: "tenant_id", Required: true, Description: "directory (tenant) id"},
			{Name: "client_id", Required: true, Description: "application (client) id of the app registration"},
			{Name: "client_secret", Required: true, Secret: true, Description: "client secret of the app registration"},
			{Name: "mailboxes", Required: true, Description: "comma-separated user principal names of the mailboxes acted on"},
			{Name: "quarantine_folder", Default: defaultFolder, Description: "name of the folder (at the mailbox root) quarantined mail is moved to"},
			{Name: "graph_url", Default: DefaultGraphURL, Description: "Graph root (national clouds differ)"},
			{Name: "authority_url", Default: DefaultAuthorityURL, Description: "identity platform root"},
			{Name: "scope", Default: defaultScope, Description: "token scope"},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Connector is a configured tenant; it implements connectors.EmailGateway
// and connectors.Tester.
type Connector struct {
	api       *vendorhttp.Client
	mailboxes []string
	folder    string
}

// New builds a connector from cfg without calling Microsoft.
func New(cfg connectors.Config) (*Connector, error) {
	tenant, client, secret := cfg.Setting("tenant_id", ""), cfg.Setting("client_id", ""), cfg.Secrets["client_secret"]
	if tenant == "" || client == "" || secret == "" {
		return nil, connectors.Permanentf("msgraphmail: tenant_id, client_id and client_secret are required")
	}
	var mailboxes []string
	for _, m := range strings.Split(cfg.Setting("mailboxes", ""), ",") {
		if m = strings.TrimSpace(m); m != "" {
			mailboxes = append(mailboxes, m)
		}
	}
	if len(mailboxes) == 0 {
		return nil, connectors.Permanentf("msgraphmail: mailboxes names no mailbox")
	}
	cc := vendorhttp.MicrosoftCredentials(cfg.Setting("authority_url", DefaultAuthorityURL), tenant, client, secret, cfg.Setting("scope", defaultScope))
	return &Connector{
		api: &vendorhttp.Client{Vendor: "Microsoft Graph", BaseURL: cfg.Setting("graph_url", DefaultGraphURL), HTTP: cfg.HTTP,
			Auth: vendorhttp.ClientCredentials("Microsoft Graph", cc, cfg.HTTP)},
		mailboxes: mailboxes, folder: cfg.Setting("quarantine_folder", defaultFolder),
	}, nil
}

// Test reads each mailbox's inbox folder: it proves the token and the
// mail permission for every configured mailbox.
func (c *Connector) Test(ctx context.Context) error {
	for _, m := range c.mailboxes {
		_, err := c.api.Do(ctx, vendorhttp.Request{Method: "GET", Path: userPath(m) + "/mailFolders/inbox",
			Query: url.Values{"$select": {"id"}}})
		if err != nil {
			return fmt.Errorf("mailbox %s: %w", m, err)
		}
	}
	return nil
}

func userPath(mailbox string) string { return "/users/" + url.PathEscape(mailbox) }

// odataString quotes s as an OData string literal.
func odataString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
