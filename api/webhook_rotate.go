package api

import (
	"crypto/rand"
	"encoding/hex"
	"errors"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/secrets"
)

// generatedSecretBytes is the entropy of a secret the service picks.
const generatedSecretBytes = 32

type rotateSecretRequest struct {
	Secret *string `json:"secret"`
}

// rotateWebhookSecret replaces a source's signing secret, keeping the
// rest of its registration. Without a secret in the body the service
// generates one; either way the answer shows it once, as "secret".
func (s *server) rotateWebhookSecret(c *gin.Context) (reply, error) {
	var req rotateSecretRequest
	if err := decodeJSON(c, &req, true); err != nil {
		return reply{}, err
	}
	source := c.Param("source")
	setAuditTarget(c, source)
	if _, err := s.store.GetWebhookSource(c, source); err != nil {
		return reply{}, orNotFound(err, "webhook source")
	}
	secret := ""
	if req.Secret != nil {
		secret = *req.Secret
		if n := len(secret); n < minWebhookSecret || n > maxWebhookSecret {
			return reply{}, validationError(map[string]string{"secret": "must be 16 to 256 characters"})
		}
	} else {
		b := make([]byte, generatedSecretBytes)
		_, _ = rand.Read(b)
		secret = hex.EncodeToString(b)
	}
	sealed, err := s.opts.Secrets.Seal(secret, secretContext)
	if errors.Is(err, secrets.ErrNoKey) {
		return reply{}, validationError(map[string]string{"secret": "VIGIL_SECRET_KEY must be set before webhook secrets can be stored"})
	}
	if err != nil {
		return reply{}, err
	}
	if err := s.store.SetWebhookSecret(c, source, sealed); err != nil {
		return reply{}, orNotFound(err, "webhook source")
	}
	saved, err := s.store.GetWebhookSource(c, source)
	if err != nil {
		return reply{}, err
	}
	setAuditDetails(c, map[string]any{"generated": req.Secret == nil})
	return ok(struct {
		webhookSourceView
		Secret string `json:"secret"`
	}{webhookView(saved), secret}), nil
}
