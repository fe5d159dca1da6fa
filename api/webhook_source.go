package api

import (
	"slices"
	"strings"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/store"
)

// sourceAuth is the checked format, authentication and mapping of a
// registration.
type sourceAuth struct {
	format, mode, username string
	mapping                map[string]string
}

// checkSourceAuth validates the registration's format, auth_mode,
// secret, basic_username and mapping against one another, noting problems
// in bad. The SPEC's own detection (format auto) stays on the signed
// scheme only: its formats carry no identity that could stand in for a
// replay check.
func checkSourceAuth(bad map[string]string, req *webhookSourceRequest) sourceAuth {
	a := sourceAuth{format: strings.TrimSpace(req.Format), mode: strings.TrimSpace(req.AuthMode)}
	if a.format == "" {
		a.format = intake.SourceAuto
	}
	if a.mode == "" {
		a.mode = store.AuthHMAC
	}
	if !slices.Contains(intake.SourceFormats, a.format) {
		bad["format"] = "must be one of " + strings.Join(intake.SourceFormats, ", ")
	}
	if !slices.Contains(store.AuthModes, a.mode) {
		bad["auth_mode"] = "must be one of " + strings.Join(store.AuthModes, ", ")
	} else if a.format == intake.SourceAuto && a.mode != store.AuthHMAC {
		bad["auth_mode"] = "format auto takes only hmac; name the sender's format (alertmanager, grafana, splunk, elastic, custom) to use " + a.mode
	}
	if a.mode != store.AuthHMAC && req.Secret != nil {
		bad["secret"] = "only auth_mode hmac takes a secret; the service generates the token of " + a.mode
	}
	if a.mode == store.AuthBasic {
		a.username = strings.TrimSpace(req.BasicUsername)
		if a.username == "" {
			a.username = strings.TrimSpace(derefOr(req.Source))
		}
		if strings.Contains(a.username, ":") || len(a.username) > 64 {
			bad["basic_username"] = "must be at most 64 characters without ':'"
		}
	} else if req.BasicUsername != "" {
		bad["basic_username"] = "only auth_mode basic takes a user name"
	}
	a.mapping = checkMapping(bad, a.format, req.Mapping)
	return a
}

// checkMapping compiles a custom source's expressions and keys each
// problem by its field, with the position inside the expression.
func checkMapping(bad map[string]string, format string, spec *intake.MappingSpec) map[string]string {
	if format != intake.SourceCustom {
		if spec != nil {
			bad["mapping"] = "only format custom takes a mapping"
		}
		return map[string]string{}
	}
	if spec == nil {
		bad["mapping"] = "format custom needs a mapping with at least a title expression"
		return map[string]string{}
	}
	_, problems := intake.CompileMapping(*spec)
	for _, p := range problems {
		bad["mapping."+p.Field] = p.Error()
	}
	out := map[string]string{"title": spec.Title}
	for k, v := range map[string]string{"severity": spec.Severity, "alert_id": spec.AlertID,
		"description": spec.Description, "resolved": spec.Resolved} {
		if strings.TrimSpace(v) != "" {
			out[k] = v
		}
	}
	return out
}

// keepOrIssueToken gives a source of a token mode its token: the one it
// had when it is re-registered in the same mode, else a new one, which it
// returns to be shown once.
func keepOrIssueToken(w, before *store.WebhookSource) string {
	if w.Signed() {
		return ""
	}
	if before != nil && before.AuthMode == w.AuthMode && before.TokenHash != "" {
		w.TokenHash, w.PreviousTokenHash, w.PreviousTokenExpiresAt = before.TokenHash, before.PreviousTokenHash, before.PreviousTokenExpiresAt
		return ""
	}
	token, hash := newToken()
	w.TokenHash = hash
	return token
}

// withToken is a source view with its token, shown once.
type withToken struct {
	webhookSourceView
	Token string `json:"token"`
}
