package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
)

// WebhookSource is a registered sender of signed alerts. Its secret is
// stored encrypted; the store never sees it in clear.
type WebhookSource struct {
	Source          string `gorm:"primaryKey"`
	SecretEncrypted string
	AutoTriage      bool
	Playbook        string
	SeverityMapping JSON[map[string]string]
	CreatedBy       string
	CreatedAt       time.Time
	UpdatedAt       time.Time
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
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "source"}},
		DoUpdates: clause.AssignmentColumns([]string{"secret_encrypted", "auto_triage", "playbook", "severity_mapping", "updated_at"}),
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
