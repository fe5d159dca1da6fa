package api

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

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
}

// webhookSourceView never carries the secret.
type webhookSourceView struct {
	Source          string            `json:"source"`
	AutoTriage      bool              `json:"auto_triage"`
	Playbook        string            `json:"playbook"`
	SeverityMapping map[string]string `json:"severity_mapping"`
	SecretSet       bool              `json:"secret_set"`
	IntakePath      string            `json:"intake_path"`
	CreatedAt       time.Time         `json:"created_at"`
	UpdatedAt       time.Time         `json:"updated_at"`
}

func webhookView(w *store.WebhookSource) webhookSourceView {
	m := w.SeverityMapping.V
	if m == nil {
		m = map[string]string{}
	}
	return webhookSourceView{Source: w.Source, AutoTriage: w.AutoTriage, Playbook: w.Playbook,
		SeverityMapping: m, SecretSet: w.SecretEncrypted != "", IntakePath: "/api/webhooks/" + w.Source,
		CreatedAt: w.CreatedAt.UTC(), UpdatedAt: w.UpdatedAt.UTC()}
}

// registerWebhook creates a source, or replaces one (rotating its secret).
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
	secret := requiredText(bad, "secret", req.Secret, 0)
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
	sealed, err := s.opts.Secrets.Seal(secret, secretContext)
	if errors.Is(err, secrets.ErrNoKey) {
		return reply{}, validationError(map[string]string{"secret": "VIGIL_SECRET_KEY must be set before webhook secrets can be stored"})
	}
	if err != nil {
		return reply{}, err
	}
	w := &store.WebhookSource{Source: source, SecretEncrypted: sealed, AutoTriage: req.AutoTriage,
		Playbook: strings.TrimSpace(req.Playbook), SeverityMapping: store.NewJSON(mapping),
		CreatedBy: principal(c).User.Username}
	_, getErr := s.store.GetWebhookSource(c, source)
	err = s.store.PutWebhookSource(c, w)
	s.forgetWebhookSources()
	if err != nil {
		return reply{}, err
	}
	saved, err := s.store.GetWebhookSource(c, source)
	if err != nil {
		return reply{}, err
	}
	setAuditTarget(c, source)
	setAuditDetails(c, map[string]any{"auto_triage": w.AutoTriage, "playbook": w.Playbook, "replaced": getErr == nil})
	if getErr == nil {
		return ok(webhookView(saved)), nil
	}
	return created(webhookView(saved)), nil
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
