// Package okta connects Vigil to Okta Workforce Identity: suspend and
// unsuspend users, clear their sessions and reset their factors through
// the Okta management API.
package okta

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// Type is the vendor type configurations name.
const Type = "okta"

const title = "Okta"

// Okta user states the connector acts on.
const (
	oktaActive    = "ACTIVE"
	oktaSuspended = "SUSPENDED"
)

func init() {
	connectors.Register(connectors.Vendor{
		Type:  Type,
		Title: title,
		Kinds: []string{connectors.KindIdentity},
		Fields: []connectors.Field{
			{Name: "base_url", Description: "your Okta org URL, for example https://example.okta.com", Required: true},
			{Name: "api_token", Description: "API token (sent as SSWS) of an administrator allowed to manage users", Required: true, Secret: true},
		},
		New: func(cfg connectors.Config) (any, error) { return New(cfg) },
	})
}

// Org is a configured Okta connector; it implements connectors.Identity
// and connectors.Tester.
type Org struct {
	api *vendorhttp.Client
}

// New builds a connector from cfg without calling Okta.
func New(cfg connectors.Config) (*Org, error) {
	if cfg.HTTP == nil {
		return nil, errors.New("okta: no HTTP client")
	}
	base, token := strings.TrimSuffix(cfg.Settings["base_url"], "/"), cfg.Secrets["api_token"]
	if base == "" || token == "" {
		return nil, errors.New("okta: base_url and api_token are required")
	}
	return &Org{api: &vendorhttp.Client{Vendor: title, BaseURL: base + "/api/v1", HTTP: cfg.HTTP,
		Auth: vendorhttp.StaticHeader("Authorization", "SSWS "+token)}}, nil
}

// Test lists one user: it proves the token and its right to read users.
func (o *Org) Test(ctx context.Context) error {
	var out []user
	_, err := o.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: "/users",
		Query: url.Values{"limit": {"1"}}, Out: &out})
	return err
}

// user is the part of an Okta user the connector reads.
type user struct {
	ID      string `json:"id"`
	Status  string `json:"status"`
	Profile struct {
		Login string `json:"login"`
	} `json:"profile"`
}

func (u user) status() string {
	if u.Status == oktaSuspended {
		return connectors.UserDisabled
	}
	return connectors.UserEnabled
}

func userPath(idOrLogin string) string { return "/users/" + url.PathEscape(idOrLogin) }

// lookup reads a user by id or login.
func (o *Org) lookup(ctx context.Context, name string) (user, error) {
	name = strings.TrimSpace(name)
	if name == "" || len(name) > 1024 {
		return user{}, connectors.Permanentf("%s: %q is not a user id or login", title, name)
	}
	var u user
	_, err := o.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: userPath(name), Out: &u})
	return u, err
}

// post sends a POST without a body, as Okta's lifecycle operations take.
func (o *Org) post(ctx context.Context, path string) error {
	_, err := o.api.Do(ctx, vendorhttp.Request{Method: http.MethodPost, Path: path,
		Header: http.Header{"Content-Type": {"application/json"}}})
	return err
}

// DisableUser suspends the user: they cannot sign in until unsuspended,
// and their data and assignments stay. Okta suspends only ACTIVE users; a
// suspended user is left alone, and a user in any other state is refused
// with Okta's explanation.
func (o *Org) DisableUser(ctx context.Context, key, name, reason string) (connectors.Result, error) {
	u, err := o.lookup(ctx, name)
	if err != nil {
		return connectors.Result{}, err
	}
	msg := "user " + u.Profile.Login + " already suspended"
	if u.Status != oktaSuspended {
		if u.Status != oktaActive {
			return connectors.Result{}, connectors.Permanentf("%s: user %s is %s; only ACTIVE users can be suspended", title, u.Profile.Login, u.Status)
		}
		if err := o.post(ctx, userPath(u.ID)+"/lifecycle/suspend"); err != nil {
			return connectors.Result{}, err
		}
		u.Status, msg = oktaSuspended, "user "+u.Profile.Login+" suspended"
	}
	return result(u, msg, nil), nil
}

// EnableUser unsuspends the user. A user who is not suspended is left
// alone, so a rollback never fails because someone unsuspended them by
// hand.
func (o *Org) EnableUser(ctx context.Context, key, name, reason string) (connectors.Result, error) {
	u, err := o.lookup(ctx, name)
	if err != nil {
		return connectors.Result{}, err
	}
	msg := "user " + u.Profile.Login + " was not suspended"
	if u.Status == oktaSuspended {
		if err := o.post(ctx, userPath(u.ID)+"/lifecycle/unsuspend"); err != nil {
			return connectors.Result{}, err
		}
		u.Status, msg = oktaActive, "user "+u.Profile.Login+" unsuspended"
	}
	return result(u, msg, nil), nil
}

// RevokeSessions clears the user's Okta sessions and revokes the OAuth
// 2.0 and OpenID Connect tokens issued to them. Repeating it is harmless.
func (o *Org) RevokeSessions(ctx context.Context, key, name, reason string) (connectors.Result, error) {
	u, err := o.lookup(ctx, name)
	if err != nil {
		return connectors.Result{}, err
	}
	_, err = o.api.Do(ctx, vendorhttp.Request{Method: http.MethodDelete, Path: userPath(u.ID) + "/sessions",
		Query: url.Values{"oauthTokens": {"true"}}})
	if err != nil {
		return connectors.Result{}, err
	}
	return result(u, "sessions and tokens of "+u.Profile.Login+" revoked", nil), nil
}

// factor is one enrolled factor.
type factor struct {
	FactorType string `json:"factorType"`
	Provider   string `json:"provider"`
}

// ResetMFA resets every factor the user enrolled, so they must enrol again
// at their next sign-in. The enrolled factors are read first: a user with
// none is left alone.
func (o *Org) ResetMFA(ctx context.Context, key, name, reason string) (connectors.Result, error) {
	u, err := o.lookup(ctx, name)
	if err != nil {
		return connectors.Result{}, err
	}
	var factors []factor
	if _, err := o.api.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: userPath(u.ID) + "/factors", Out: &factors}); err != nil {
		return connectors.Result{}, err
	}
	names := make([]string, 0, len(factors))
	for _, f := range factors {
		names = append(names, strings.ToLower(f.Provider)+":"+f.FactorType)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return result(u, u.Profile.Login+" has no enrolled factors", map[string]any{"reset_factors": names}), nil
	}
	if err := o.post(ctx, userPath(u.ID)+"/lifecycle/reset_factors"); err != nil {
		return connectors.Result{}, err
	}
	return result(u, "reset "+strings.Join(names, ", ")+" of "+u.Profile.Login, map[string]any{"reset_factors": names}), nil
}

// result reports an operation on u, with Okta's own state of the user.
func result(u user, msg string, extra map[string]any) connectors.Result {
	r := connectors.UserResult(msg, u.Profile.Login, u.ID, u.status(), extra)
	r.Output["vendor_status"] = u.Status
	return r
}
