package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
)

// ConnectorSecretContext, followed by the connector id, is the context a
// configured connector's secrets are sealed under.
const ConnectorSecretContext = "connector:"

// ConnectorConfig is one configured connector: a vendor type, its
// non-secret settings, its secret fields sealed together as one JSON
// object, and the connector kinds it is chosen for.
type ConnectorConfig struct {
	ID               string `gorm:"primaryKey"`
	VendorType       string
	Settings         JSON[map[string]string]
	SecretsEncrypted string
	Serves           JSON[[]string]
	CreatedBy        string
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// PutConnectorConfig creates or replaces the connector with c.ID and
// reports whether it was created. CreatedAt and CreatedBy of an existing
// connector stay as they were.
func (s *Store) PutConnectorConfig(ctx context.Context, c *ConnectorConfig) (bool, error) {
	now := Now()
	c.CreatedAt, c.UpdatedAt = now, now
	if c.Settings.V == nil {
		c.Settings.V = map[string]string{}
	}
	if c.Serves.V == nil {
		c.Serves.V = []string{}
	}
	_, err := s.GetConnectorConfig(ctx, c.ID)
	created := err == ErrNotFound
	res := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "id"}},
		DoUpdates: clause.AssignmentColumns([]string{"vendor_type", "settings", "secrets_encrypted", "serves", "updated_at"}),
	}).Create(c)
	if res.Error != nil {
		return false, fmt.Errorf("save connector %s: %w", c.ID, translate(res.Error))
	}
	if !created {
		stored, err := s.GetConnectorConfig(ctx, c.ID)
		if err != nil {
			return false, err
		}
		*c = *stored
	}
	return created, nil
}

// GetConnectorConfig reads one connector; an unknown id is ErrNotFound.
func (s *Store) GetConnectorConfig(ctx context.Context, id string) (*ConnectorConfig, error) {
	var c ConnectorConfig
	if err := s.db.WithContext(ctx).Take(&c, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &c, nil
}

// ListConnectorConfigs returns every configured connector by id.
func (s *Store) ListConnectorConfigs(ctx context.Context) ([]ConnectorConfig, error) {
	var out []ConnectorConfig
	if err := s.db.WithContext(ctx).Order("id").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list connectors: %w", err)
	}
	return out, nil
}

// ConnectorStamp is a connector's id and last change: enough to tell
// whether a built set is still current without reading settings and
// sealed secrets.
type ConnectorStamp struct {
	ID        string
	UpdatedAt time.Time
}

// ConnectorConfigStamps lists every connector's id and last change, by id.
func (s *Store) ConnectorConfigStamps(ctx context.Context) ([]ConnectorStamp, error) {
	var out []ConnectorStamp
	if err := s.db.WithContext(ctx).Model(&ConnectorConfig{}).Select("id, updated_at").Order("id").Scan(&out).Error; err != nil {
		return nil, fmt.Errorf("list connector stamps: %w", err)
	}
	return out, nil
}

// DeleteConnectorConfig removes a connector; an unknown id is ErrNotFound.
func (s *Store) DeleteConnectorConfig(ctx context.Context, id string) error {
	res := s.db.WithContext(ctx).Where("id = ?", id).Delete(&ConnectorConfig{})
	if res.Error != nil {
		return fmt.Errorf("delete connector %s: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}
