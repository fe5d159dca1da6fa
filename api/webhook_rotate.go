package api

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/vigil-soc/vigil/secrets"
	"github.com/vigil-soc/vigil/store"
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
	if err := s.checkRotation(c, &req, true); err != nil {
		return reply{}, err
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
	saved, err := s.rotated(c, func(source string) error { return s.store.SetWebhookSecret(c, source, sealed) })
	if err != nil {
		return reply{}, err
	}
	setAuditDetails(c, map[string]any{"generated": req.Secret == nil})
	return ok(struct {
		webhookSourceView
		Secret string `json:"secret"`
	}{webhookView(saved), secret}), nil
}

// Rotation window of a token: how long the replaced token stays valid.
const (
	defaultTokenGrace = 24 * time.Hour
	maxTokenGrace     = 30 * 24 * time.Hour
)

type rotateTokenRequest struct {
	// GraceSeconds is how long the replaced token stays valid; 0 ends it
	// at once. Absent means a day.
	GraceSeconds *int64 `json:"grace_seconds"`
}

// rotateWebhookToken issues a new token for a source of a token mode and
// shows it once as "token". The replaced token stays valid for the grace
// period, so the sender can be switched over without a refused delivery.
func (s *server) rotateWebhookToken(c *gin.Context) (reply, error) {
	var req rotateTokenRequest
	if err := s.checkRotation(c, &req, false); err != nil {
		return reply{}, err
	}
	grace := defaultTokenGrace
	if req.GraceSeconds != nil {
		grace = time.Duration(*req.GraceSeconds) * time.Second
		if *req.GraceSeconds < 0 || grace > maxTokenGrace {
			return reply{}, validationError(map[string]string{"grace_seconds": "must be 0 to 2592000 (30 days)"})
		}
	}
	token, hash := newToken()
	until := time.Time{}
	if grace > 0 {
		until = time.Now().Add(grace)
	}
	saved, err := s.rotated(c, func(source string) error { return s.store.SetWebhookToken(c, source, hash, until) })
	if err != nil {
		return reply{}, err
	}
	setAuditDetails(c, map[string]any{"grace_seconds": int64(grace / time.Second)})
	return ok(withToken{webhookView(saved), token}), nil
}

// checkRotation decodes a rotation request into req and checks that the
// source named in the path exists and signs its deliveries for a secret's
// rotation (signed), or takes a token for a token's.
func (s *server) checkRotation(c *gin.Context, req any, signed bool) error {
	if err := decodeJSON(c, req, true); err != nil {
		return err
	}
	source := c.Param("source")
	setAuditTarget(c, source)
	src, err := s.store.GetWebhookSource(c, source)
	if err != nil {
		return orNotFound(err, "webhook source")
	}
	switch {
	case signed && !src.Signed():
		return validationError(map[string]string{"auth_mode": "this source authenticates with a token (" + src.AuthMode +
			"); rotate it with POST /api/webhooks/" + source + "/rotate-token"})
	case !signed && src.Signed():
		return validationError(map[string]string{"auth_mode": "this source signs its deliveries; rotate its secret with POST /api/webhooks/" + source + "/rotate-secret"})
	}
	return nil
}

// rotated stores a rotation of the path's source with write, drops the
// cached sources so that the next delivery is checked against it, and
// reads the source back.
func (s *server) rotated(c *gin.Context, write func(source string) error) (*store.WebhookSource, error) {
	source := c.Param("source")
	err := write(source)
	s.forgetWebhookSources()
	if err != nil {
		return nil, orNotFound(err, "webhook source")
	}
	return s.store.GetWebhookSource(c, source)
}
