package api

import (
	"cmp"
	"errors"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/intake"
	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
)

// Webhook error codes; the statuses are documented in the README.
const (
	CodeInvalidSignature = "invalid_signature" // 401
	CodeTimestampExpired = "timestamp_expired" // 401
	CodeUnknownSource    = "unknown_source"    // 404
	CodeReplay           = "replay_detected"   // 409
)

const (
	secretContext     = secrets.ContextWebhookSecret
	minWebhookSecret  = 16
	maxWebhookSecret  = 256
	maxPlaybookName   = 100
	maxMappingEntries = 64
)

var sourcePattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

type webhookSourceRequest struct {
	Source          *string           `json:"source"`
	Secret          *string           `json:"secret"`
	AutoTriage      bool              `json:"auto_triage"`
	Playbook        string            `json:"playbook"`
	SeverityMapping map[string]string `json:"severity_mapping"`
	// Format, AuthMode, Mapping, ResolveIncidents and BasicUsername: see
	// webhookSourceView.
	Format           string              `json:"format"`
	AuthMode         string              `json:"auth_mode"`
	Mapping          *intake.MappingSpec `json:"mapping"`
	ResolveIncidents bool                `json:"resolve_incidents"`
	BasicUsername    string              `json:"basic_username"`
}

// webhookSourceView never carries the secret or the token.
type webhookSourceView struct {
	Source          string            `json:"source"`
	AutoTriage      bool              `json:"auto_triage"`
	Playbook        string            `json:"playbook"`
	SeverityMapping map[string]string `json:"severity_mapping"`
	SecretSet       bool              `json:"secret_set"`
	// IntakePath is where the sender posts; for url_token sources it ends
	// in "{token}", which the sender replaces with the token.
	IntakePath string `json:"intake_path"`
	// Format is how deliveries are read: auto (the signed formats'
	// detection), alertmanager, grafana, splunk, elastic or custom.
	Format string `json:"format"`
	// AuthMode is hmac, bearer, basic or url_token.
	AuthMode string `json:"auth_mode"`
	// Mapping holds a custom source's expressions.
	Mapping *intake.MappingSpec `json:"mapping,omitempty"`
	// ResolveIncidents: a resolved alert sets its incident's status to
	// resolved, not only a resolution note.
	ResolveIncidents bool   `json:"resolve_incidents"`
	BasicUsername    string `json:"basic_username,omitempty"`
	TokenSet         bool   `json:"token_set"`
	// PreviousTokenValidUntil is the end of a rotation window, while the
	// token before the current one is still accepted.
	PreviousTokenValidUntil *time.Time `json:"previous_token_valid_until,omitempty"`
	CreatedAt               time.Time  `json:"created_at"`
	UpdatedAt               time.Time  `json:"updated_at"`
}

func webhookView(w *store.WebhookSource) webhookSourceView {
	m := w.SeverityMapping.V
	if m == nil {
		m = map[string]string{}
	}
	v := webhookSourceView{Source: w.Source, AutoTriage: w.AutoTriage, Playbook: w.Playbook,
		SeverityMapping: m, SecretSet: w.SecretEncrypted != "", IntakePath: "/api/webhooks/" + w.Source,
		Format: cmp.Or(w.Format, intake.SourceAuto), AuthMode: w.AuthMode,
		ResolveIncidents: w.ResolveIncidents, BasicUsername: w.BasicUsername, TokenSet: w.TokenHash != "",
		CreatedAt: w.CreatedAt.UTC(), UpdatedAt: w.UpdatedAt.UTC()}
	if v.AuthMode == store.AuthURLToken {
		v.IntakePath += "/{token}"
	}
	if w.Format == intake.SourceCustom {
		spec := intake.StoredMappingSpec(w.Mapping.V)
		v.Mapping = &spec
	}
	if t := w.PreviousTokenExpiresAt; t != nil && w.PreviousTokenHash != "" && time.Now().Before(*t) {
		u := t.UTC()
		v.PreviousTokenValidUntil = &u
	}
	return v
}

// registerWebhook creates a source, or replaces one (rotating its secret).
// A source of a token mode gets a generated token, shown once in the
// answer as "token"; replacing it in the same mode keeps its token.
func (s *server) registerWebhook(c *gin.Context) (reply, error) {
	var req webhookSourceRequest
	if err := decodeJSON(c, &req, false); err != nil {
		return reply{}, err
	}
	bad := map[string]string{}
	source := requiredText(bad, "source", req.Source, 0)
	if source != "" && !sourcePattern.MatchString(source) {
		bad["source"] = "must be 1-64 lower-case letters, digits, '-' or '_'"
	}
	auth := checkSourceAuth(bad, &req)
	secret := ""
	if auth.mode == store.AuthHMAC {
		secret = requiredText(bad, "secret", req.Secret, 0)
	}
	if n := len(secret); secret != "" && (n < minWebhookSecret || n > maxWebhookSecret) {
		bad["secret"] = "must be 16 to 256 characters"
	}
	if len(req.Playbook) > maxPlaybookName {
		bad["playbook"] = "must be at most 100 characters"
	}
	if len(req.SeverityMapping) > maxMappingEntries {
		bad["severity_mapping"] = "may hold at most 64 entries"
	}
	mapping := map[string]string{}
	for k, v := range req.SeverityMapping {
		if !slices.Contains(store.Severities, v) {
			bad["severity_mapping."+k] = "must map to one of " + strings.Join(store.Severities, ", ")
		}
		mapping[strings.ToLower(strings.TrimSpace(k))] = v
	}
	if len(bad) > 0 {
		return reply{}, validationError(bad)
	}
	sealed := ""
	if auth.mode == store.AuthHMAC {
		var err error
		sealed, err = s.opts.Secrets.Seal(secret, secretContext)
		if errors.Is(err, secrets.ErrNoKey) {
			return reply{}, validationError(map[string]string{"secret": "VIGIL_SECRET_KEY must be set before webhook secrets can be stored"})
		}
		if err != nil {
			return reply{}, err
		}
	}
	w := &store.WebhookSource{Source: source, SecretEncrypted: sealed, AutoTriage: req.AutoTriage,
		Playbook: strings.TrimSpace(req.Playbook), SeverityMapping: store.NewJSON(mapping),
		Format: auth.format, AuthMode: auth.mode, Mapping: store.NewJSON(auth.mapping),
		ResolveIncidents: req.ResolveIncidents, BasicUsername: auth.username,
		CreatedBy: principal(c).User.Username}
	before, getErr := s.store.GetWebhookSource(c, source)
	token := keepOrIssueToken(w, before)
	err := s.store.PutWebhookSource(c, w)
	s.forgetWebhookSources()
	if err != nil {
		return reply{}, err
	}
	saved, err := s.store.GetWebhookSource(c, source)
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, source)
	setAuditDetails(c, map[string]any{"auto_triage": w.AutoTriage, "playbook": w.Playbook, "replaced": getErr == nil,
		"format": w.Format, "auth_mode": w.AuthMode, "token_issued": token != ""})
	var view any = webhookView(saved)
	if token != "" {
		view = withToken{webhookView(saved), token}
	}
	if getErr == nil {
		return ok(view), nil
	}
	return created(view), nil
}

func (s *server) listWebhooks(c *gin.Context) (reply, error) {
	rows, err := s.store.ListWebhookSources(c)
	if err != nil {
		return reply{}, err
	}
	out := make([]webhookSourceView, 0, len(rows))
	for i := range rows {
		out = append(out, webhookView(&rows[i]))
	}
	return ok(out), nil
}

func (s *server) getWebhook(c *gin.Context) (reply, error) {
	w, err := s.store.GetWebhookSource(c, c.Param("source"))
	if err != nil {
		return reply{}, orNotFound(err, "webhook source")
	}
	return ok(webhookView(w)), nil
}

func (s *server) deleteWebhook(c *gin.Context) (reply, error) {
	err := s.store.DeleteWebhookSource(c, c.Param("source"))
	s.forgetWebhookSources()
	if err != nil {
		return reply{}, orNotFound(err, "webhook source")
	}
	setAuditTarget(c, c.Param("source"))
	return noContent(), nil
}
