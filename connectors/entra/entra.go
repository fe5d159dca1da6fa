// Package entra connects Vigil to Microsoft Entra ID through Microsoft
// Graph: disable and enable accounts, revoke their sign-in sessions and
// remove their registered authentication methods.
package entra

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations name.
const Type = "entra"

const title = "Microsoft Entra ID"

// Defaults for the commercial cloud.
const (
	DefaultGraphURL = "https://graph.microsoft.com"
	DefaultLoginURL = "https://login.microsoftonline.com"
	DefaultScope    = "https://graph.microsoft.com/.default"
)

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: title,
		Kinds: []string{connectors.KindIdentity},
		Fields: []connectors.Field{
			{Name: "tenant_id", Description: "Microsoft Entra tenant ID (directory ID)", Required: true},
			{Name: "client_id", Description: "application (client) ID of the app registration", Required: true},
			{Name: "client_secret", Description: "client secret of the app registration", Required: true, Secret: true},
			{Name: "graph_url", Description: "Microsoft Graph URL", Default: DefaultGraphURL},
			{Name: "login_url", Description: "Microsoft identity platform URL", Default: DefaultLoginURL},
			{Name: "scope", Description: "token scope", Default: DefaultScope},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Directory is a configured Entra ID connector; it implements
// connectors.Identity and connectors.Tester.
type Directory struct {
	graph *vendorhttp.Client
}

// New builds a connector from cfg without calling Microsoft.
func New(cfg connectors.Config) (*Directory, error) {
	if cfg.HTTP == nil {
		return nil, errors.New("entra: no HTTP client")
	}
	tenant, id, secret := cfg.Settings["tenant_id"], cfg.Settings["client_id"], cfg.Secrets["client_secret"]
	if tenant == "" || id == "" || secret == "" {
		return nil, errors.New("entra: tenant_id, client_id and client_secret are required")
	}
	tokens := vendorhttp.MicrosoftCredentials(cfg.Setting("login_url", DefaultLoginURL), tenant, id, secret, cfg.Setting("scope", DefaultScope))
	base := strings.TrimSuffix(cfg.Setting("graph_url", DefaultGraphURL), "/") + "/v1.0"
	return &Directory{graph: &vendorhttp.Client{Vendor: title, BaseURL: base, HTTP: cfg.HTTP,
		Auth: vendorhttp.ClientCredentials(title, tokens, cfg.HTTP)}}, nil
}

// Test reads one user's id: it proves the credentials and User.Read.All.
func (d *Directory) Test(ctx context.Context) error {
	_, err := d.graph.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/users",
		Query: url.Values{"$top": {"1"}, "$select": {"id"}}, Out: &struct{}{}})
	return err
}

// user is the part of a Graph user the connector reads.
type user struct {
	ID                string `json:"id"`
	UserPrincipalName string `json:"userPrincipalName"`
	AccountEnabled    bool   `json:"accountEnabled"`
}

func (u user) status() string {
	if u.AccountEnabled {
		return connectors.UserEnabled
	}
	return connectors.UserDisabled
}

// userPath is the Graph path of a user named by id or user principal name.
func userPath(name string) string { return "/users/" + url.PathEscape(name) }

// lookup reads a user by object id or user principal name.
func (d *Directory) lookup(ctx context.Context, name string) (user, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 1024 {
		return user{}, connectors.Permanentf("%s: %q is not a user id or user principal name", title, name)
	}
	var u user
	_, err := d.graph.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: userPath(name),
		Query: url.Values{"$select": {"id,userPrincipalName,accountEnabled"}}, Out: &u})
	return u, err
}

// DisableUser blocks the account from signing in. An account already
// disabled is left alone.
func (d *Directory) DisableUser(ctx context.Context, key, name, reason string) (connectors.Result, error) {
	return d.setEnabled(ctx, name, false)
}

// EnableUser lets the account sign in again. An account already enabled is
// left alone, so a rollback never fails because someone re-enabled it by
// hand.
func (d *Directory) EnableUser(ctx context.Context, key, name, reason string) (connectors.Result, error) {
	return d.setEnabled(ctx, name, true)
}

// setEnabled reads the account first, since Graph has no idempotency key,
// and patches accountEnabled only when it differs.
func (d *Directory) setEnabled(ctx context.Context, name string, enabled bool) (connectors.Result, error) {
	u, err := d.lookup(ctx, name)
	if err != nil {
		return connectors.Result{}, err
	}
	verb := map[bool]string{true: "enabled", false: "disabled"}[enabled]
	msg := "user " + u.UserPrincipalName + " already " + verb
	if u.AccountEnabled != enabled {
		_, err := d.graph.Do(ctx, vendorhttp.Request{Method: http.MethodPatch, Path: userPath(u.ID),
			Body: map[string]any{"accountEnabled": enabled}})
		if err != nil {
			return connectors.Result{}, err
		}
		u.AccountEnabled, msg = enabled, "user "+u.UserPrincipalName+" "+verb
	}
	return u.result(msg, nil), nil
}

// RevokeSessions invalidates the user's refresh tokens and browser session
// cookies (revokeSignInSessions). Access tokens already issued stay valid
// until they expire, up to an hour. Repeating it is harmless.
func (d *Directory) RevokeSessions(ctx context.Context, key, name, reason string) (connectors.Result, error) {
	u, err := d.lookup(ctx, name)
	if err != nil {
		return connectors.Result{}, err
	}
	var out struct {
		Value bool `json:"value"`
	}
	_, err = d.graph.Do(ctx, vendorhttp.Request{Method: http.MethodPost, Path: userPath(u.ID) + "/revokeSignInSessions", Out: &out})
	if err != nil {
		return connectors.Result{}, err
	}
	if !out.Value {
		return connectors.Result{}, connectors.Permanentf("%s: Graph did not revoke the sessions of %s", title, u.UserPrincipalName)
	}
	return u.result("sign-in sessions of "+u.UserPrincipalName+" revoked", nil), nil
}

// result reports an operation on u.
func (u user) result(msg string, extra map[string]any) connectors.Result {
	return connectors.UserResult(msg, u.UserPrincipalName, u.ID, u.status(), extra)
}
