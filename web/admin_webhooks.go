package web

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/intake"
)

// webhookRow is a source as GET /api/webhooks lists it.
type webhookRow struct {
	Source          string            `json:"source"`
	AutoTriage      bool              `json:"auto_triage"`
	Playbook        string            `json:"playbook"`
	SeverityMapping map[string]string `json:"severity_mapping"`
	SecretSet       bool              `json:"secret_set"`
	IntakePath      string            `json:"intake_path"`
	Format          string            `json:"format"`
	AuthMode        string            `json:"auth_mode"`
	BasicUsername   string            `json:"basic_username"`
	CreatedAt       time.Time         `json:"created_at"`
	UpdatedAt       time.Time         `json:"updated_at"`
	// Secret is only in the answer to a registration or rotation.
	Secret string `json:"secret"`
	// Token is only in the answer to a registration or token rotation
	// of a source of a token mode.
	Token string `json:"token"`
}

// Signed reports whether the source signs its deliveries (auth mode
// hmac) rather than presenting a token.
func (w webhookRow) Signed() bool { return w.AuthMode == "" || w.AuthMode == "hmac" }

// Formats and AuthModes are the choices of the registration form.
func (webhooksData) Formats() []string { return intake.SourceFormats }

// AuthModes lists the authentication modes, the signed scheme first.
func (webhooksData) AuthModes() []string { return []string{"hmac", "bearer", "basic", "url_token"} }

type webhooksData struct {
	Rows []webhookRow
	// Base is where senders reach this service.
	Base string
	// Suggested prefills the secret field of the registration form.
	Suggested string
	// Shown is the source just registered or rotated, with its secret.
	Shown *webhookRow
}

// IntakeURL is the address a sender posts its alerts to; a url_token
// source's shows its token when it has just been issued.
func (d webhooksData) IntakeURL(w webhookRow) string {
	if w.Token != "" {
		return d.Base + strings.Replace(w.IntakePath, "{token}", w.Token, 1)
	}
	return d.Base + w.IntakePath
}

func (d *Dashboard) adminWebhooks(c *gin.Context, v *view) (string, error) {
	v.Title, v.Nav = "Webhook sources", "admin"
	data, _ := v.Data.(*webhooksData)
	if data == nil {
		data = &webhooksData{}
	}
	data.Base, data.Suggested = d.baseURL(c), newSecret()
	v.Data = data
	if err := d.api.call(c.Request, http.MethodGet, "/api/webhooks", nil, &data.Rows); err != nil {
		return "", err
	}
	return "adminwebhooks", nil
}

// baseURL is VIGIL_PUBLIC_URL, or the address this request came to.
func (d *Dashboard) baseURL(c *gin.Context) string {
	if d.opts.PublicURL != "" {
		return d.opts.PublicURL
	}
	scheme := "http"
	if c.Request.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + c.Request.Host
}

// newSecret suggests a signing secret; the admin may replace it with the
// one the sender gives.
func newSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// registerWebhook registers (or replaces) a source and shows its URL and
// secret once.
func (d *Dashboard) registerWebhook(c *gin.Context, v *view) (string, error) {
	mapping := formLines(c.PostForm("severity_mapping"))
	mode := cmp.Or(c.PostForm("auth_mode"), "hmac")
	body := map[string]any{"source": strings.TrimSpace(c.PostForm("source")),
		"auto_triage": c.PostForm("auto_triage") == "true", "playbook": strings.TrimSpace(c.PostForm("playbook")),
		"severity_mapping": mapping, "format": cmp.Or(c.PostForm("format"), "auto"), "auth_mode": mode,
		"resolve_incidents": c.PostForm("resolve_incidents") == "true"}
	if mode == "hmac" {
		body["secret"] = c.PostForm("secret")
	}
	if mode == "basic" && strings.TrimSpace(c.PostForm("basic_username")) != "" {
		body["basic_username"] = strings.TrimSpace(c.PostForm("basic_username"))
	}
	if body["format"] == "custom" {
		body["mapping"] = formLines(c.PostForm("mapping"))
	}
	shown := &webhookRow{}
	if err := d.api.call(c.Request, http.MethodPost, "/api/webhooks", body, shown); err != nil {
		return "", err
	}
	if mode == "hmac" {
		shown.Secret = c.PostForm("secret")
	}
	v.Data = &webhooksData{Shown: shown}
	return d.adminWebhooks(c, v)
}

// formLines reads "key=value" lines; a value may itself hold "=".
func formLines(text string) map[string]string {
	out := map[string]string{}
	for _, line := range strings.Split(text, "\n") {
		if from, to, ok := strings.Cut(line, "="); ok && strings.TrimSpace(from) != "" {
			out[strings.TrimSpace(from)] = strings.TrimSpace(to)
		}
	}
	return out
}

// rotateWebhook has the API generate a new secret, or for a source of a
// token mode a new token, and shows it once.
func (d *Dashboard) rotateWebhook(c *gin.Context, v *view) (string, error) {
	shown := &webhookRow{}
	what := "/rotate-secret"
	if c.PostForm("auth_mode") != "" && c.PostForm("auth_mode") != "hmac" {
		what = "/rotate-token"
	}
	if err := d.api.call(c.Request, http.MethodPost, "/api/webhooks/"+url.PathEscape(c.Param("source"))+what, nil, shown); err != nil {
		return "", err
	}
	v.Data = &webhooksData{Shown: shown}
	return d.adminWebhooks(c, v)
}

func (d *Dashboard) deleteWebhook(c *gin.Context, _ *view) (string, error) {
	if err := d.api.call(c.Request, http.MethodDelete, "/api/webhooks/"+url.PathEscape(c.Param("source")), nil, nil); err != nil {
		return "", err
	}
	return "/admin/webhooks?done=deleted", nil
}
