package entra

import (
	"context"
	"errors"
	"net/http"
	"sort"
	"strings"

	"github.com/vigil-soc/vigil/connectors"
	"github.com/vigil-soc/vigil/connectors/vendorhttp"
)

// removable maps the authentication method types Graph v1.0 can delete to
// the collection each is deleted from. The password cannot be deleted
// (reset it instead), and method types not listed here (hardware OATH
// tokens, QR code sign-in) have no v1.0 delete API; both are reported as
// kept.
var removable = map[string]string{
	"#microsoft.graph.phoneAuthenticationMethod":                   "phoneMethods",
	"#microsoft.graph.emailAuthenticationMethod":                   "emailMethods",
	"#microsoft.graph.microsoftAuthenticatorAuthenticationMethod":  "microsoftAuthenticatorMethods",
	"#microsoft.graph.softwareOathAuthenticationMethod":            "softwareOathMethods",
	"#microsoft.graph.fido2AuthenticationMethod":                   "fido2Methods",
	"#microsoft.graph.windowsHelloForBusinessAuthenticationMethod": "windowsHelloForBusinessMethods",
	"#microsoft.graph.temporaryAccessPassAuthenticationMethod":     "temporaryAccessPassMethods",
	"#microsoft.graph.platformCredentialAuthenticationMethod":      "platformCredentialMethods",
}

// method is one registered authentication method.
type method struct {
	Type string `json:"@odata.type"`
	ID   string `json:"id"`
}

// kind is the method's short type name ("phone", "fido2").
func (m method) kind() string {
	return strings.TrimSuffix(strings.TrimPrefix(m.Type, "#microsoft.graph."), "AuthenticationMethod")
}

// ResetMFA deletes every authentication method Graph lets an application
// delete, so the user must register again. Graph refuses to delete the
// user's default method while others remain, and a mobile number while an
// alternate mobile number remains, so refused deletions are retried after
// each round that made progress. Whatever still cannot be removed makes
// the call fail with a list of it; the password is always kept.
func (d *Directory) ResetMFA(ctx context.Context, key, name, reason string) (connectors.Result, error) {
	u, err := d.lookup(ctx, name)
	if err != nil {
		return connectors.Result{}, err
	}
	var list struct {
		Value []method `json:"value"`
	}
	_, err = d.graph.Do(ctx, vendorhttp.Request{Method: http.MethodGet, Path: userPath(u.ID) + "/authentication/methods", Out: &list})
	if err != nil {
		return connectors.Result{}, err
	}
	var pending, kept []method
	for _, m := range list.Value {
		if _, ok := removable[m.Type]; ok {
			pending = append(pending, m)
		} else {
			kept = append(kept, m)
		}
	}
	removed, refused, err := d.deleteAll(ctx, u.ID, pending)
	if err != nil {
		return connectors.Result{}, err
	}
	if len(refused) > 0 {
		return connectors.Result{}, connectors.Permanentf("%s: removed %s from %s but could not remove %s: %v",
			title, kinds(removed), u.UserPrincipalName, kinds(refused), errRefused)
	}
	msg := "removed " + kinds(removed) + " from " + u.UserPrincipalName
	if len(removed) == 0 {
		msg = u.UserPrincipalName + " has no removable authentication methods"
	}
	return u.result(msg, map[string]any{"removed_methods": kindList(removed), "kept_methods": kindList(kept)}), nil
}

// errRefused explains deletions Graph kept refusing.
var errRefused = errors.New("refused by Graph; the last one left is usually the default method, which the user must change first")

// deleteAll deletes methods in rounds until every one is gone or a round
// removes nothing. Errors other than Graph refusing one deletion (400)
// stop it; a method already gone (404) counts as removed.
func (d *Directory) deleteAll(ctx context.Context, userID string, pending []method) (removed, refused []method, err error) {
	for len(pending) > 0 {
		var next []method
		for _, m := range pending {
			_, err := d.graph.Do(ctx, vendorhttp.Request{Method: http.MethodDelete,
				Path: userPath(userID) + "/authentication/" + removable[m.Type] + "/" + m.ID})
			var ve *vendorhttp.Error
			switch {
			case err == nil || errors.Is(err, vendorhttp.ErrNotFound):
				removed = append(removed, m)
			case errors.As(err, &ve) && ve.Status == http.StatusBadRequest:
				next = append(next, m)
			default:
				return nil, nil, err
			}
		}
		if len(next) == len(pending) {
			return removed, next, nil
		}
		pending = next
	}
	return removed, nil, nil
}

func kindList(ms []method) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.kind())
	}
	sort.Strings(out)
	return out
}

func kinds(ms []method) string {
	if len(ms) == 0 {
		return "nothing"
	}
	return strings.Join(kindList(ms), ", ")
}
