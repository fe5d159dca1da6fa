package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Webhook source authentication modes.
const (
	AuthHMAC     = "hmac"      // the signed scheme: secret, timestamp, HMAC of the body
	AuthBearer   = "bearer"    // Authorization: Bearer <token>
	AuthBasic    = "basic"     // Authorization: Basic <username:token>
	AuthURLToken = "url_token" // the token as the last path segment
)

// AuthModes lists the authentication modes, the default first.
var AuthModes = []string{AuthHMAC, AuthBearer, AuthBasic, AuthURLToken}

// WebhookSource is a registered sender of alerts. Its signing secret is
// stored encrypted and its token only as a hash; the store never sees
// either in clear.
type WebhookSource struct {
	Source          string `gorm:"primaryKey"`
	SecretEncrypted string
	AutoTriage      bool
	Playbook        string
	SeverityMapping JSON[map[string]string]
	// Format says how deliveries are read (intake.SourceFormats).
	Format string
	// AuthMode is one of AuthModes; never empty once stored.
	AuthMode string
	// Mapping holds the expressions of a custom source.
	Mapping JSON[map[string]string]
	// ResolveIncidents makes a resolved alert resolve its incident, not
	// only note the resolution on it.
	ResolveIncidents bool
	// BasicUsername is the user name of basic authentication.
	BasicUsername string
	// TokenHash is the SHA-256 of the token, hex; PreviousTokenHash is the
	// token it replaced, valid until PreviousTokenExpiresAt.
	TokenHash              string
	PreviousTokenHash      string
	PreviousTokenExpiresAt *time.Time
	CreatedBy              string
	CreatedAt              time.Time
	UpdatedAt              time.Time
}

// PutWebhookSource creates or replaces a source.
func (s *Store) PutWebhookSource(ctx context.Context, w *WebhookSource) error {
	now := Now()
	if w.CreatedAt.IsZero() {
		w.CreatedAt = now
	}
	w.UpdatedAt = now
	if w.SeverityMapping.V == nil {
		w.SeverityMapping = NewJSON(map[string]string{})
	}
	if w.Mapping.V == nil {
		w.Mapping = NewJSON(map[string]string{})
	}
	if w.Format == "" {
		w.Format = "auto"
	}
	if w.AuthMode == "" {
		w.AuthMode = AuthHMAC
	}
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "source"}},
		DoUpdates: clause.AssignmentColumns([]string{"secret_encrypted", "auto_triage", "playbook", "severity_mapping",
			"format", "auth_mode", "mapping", "resolve_incidents", "basic_username", "token_hash",
			"previous_token_hash", "previous_token_expires_at", "updated_at"}),
	}).Create(w).Error
	if err != nil {
		return fmt.Errorf("save webhook source: %w", err)
	}
	return nil
}

// GetWebhookSource reads one source.
func (s *Store) GetWebhookSource(ctx context.Context, source string) (*WebhookSource, error) {
	var w WebhookSource
	if err := s.db.WithContext(ctx).Take(&w, "source = ?", source).Error; err != nil {
		return nil, translate(err)
	}
	return &w, nil
}

// ListWebhookSources returns every source by name.
func (s *Store) ListWebhookSources(ctx context.Context) ([]WebhookSource, error) {
	var out []WebhookSource
	if err := s.db.WithContext(ctx).Order("source").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list webhook sources: %w", err)
	}
	return out, nil
}

// DeleteWebhookSource removes a source.
func (s *Store) DeleteWebhookSource(ctx context.Context, source string) error {
	res := s.db.WithContext(ctx).Where("source = ?", source).Delete(&WebhookSource{})
	if res.Error != nil {
		return fmt.Errorf("delete webhook source: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// webhookReplay remembers an accepted signature until its window closes.
type webhookReplay struct {
	SignatureHash string `gorm:"primaryKey"`
	Source        string
	ExpiresAt     time.Time
}

func (webhookReplay) TableName() string { return "webhook_replays" }

// SweepReplays forgets signatures whose window has closed.
func (s *Store) SweepReplays(ctx context.Context) error {
	if err := s.db.WithContext(ctx).Where("expires_at < ?", Now()).Delete(&webhookReplay{}).Error; err != nil {
		return fmt.Errorf("sweep replay cache: %w", err)
	}
	return nil
}

// SetWebhookSecret replaces a source's sealed secret and nothing else.
func (s *Store) SetWebhookSecret(ctx context.Context, source, sealed string) error {
	res := s.db.WithContext(ctx).Model(&WebhookSource{}).Where("source = ?", source).
		Updates(map[string]any{"secret_encrypted": sealed, "updated_at": Now()})
	if res.Error != nil {
		return fmt.Errorf("set webhook secret: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// SetWebhookToken makes tokenHash the source's token. The token it
// replaces stays valid until graceUntil, so that the sender can be
// switched over without a refused delivery; a zero graceUntil ends it now.
func (s *Store) SetWebhookToken(ctx context.Context, source, tokenHash string, graceUntil time.Time) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var w WebhookSource
		if err := tx.Select("token_hash").Take(&w, "source = ?", source).Error; err != nil {
			return translate(err)
		}
		changes := map[string]any{"token_hash": tokenHash, "updated_at": Now(),
			"previous_token_hash": "", "previous_token_expires_at": nil}
		if !graceUntil.IsZero() && w.TokenHash != "" {
			changes["previous_token_hash"], changes["previous_token_expires_at"] = w.TokenHash, graceUntil.UTC()
		}
		if err := tx.Model(&WebhookSource{}).Where("source = ?", source).Updates(changes).Error; err != nil {
			return fmt.Errorf("set webhook token: %w", err)
		}
		return nil
	})
}

// Signed reports whether deliveries to the source carry the HMAC
// signature headers rather than a token.
func (w *WebhookSource) Signed() bool { return w.AuthMode == AuthHMAC }
