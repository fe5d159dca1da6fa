package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
)

// Setting is one instance-wide configuration document. The store treats
// Value as opaque JSON; the settings package owns its shape, validation and
// the encryption of any secrets inside it.
type Setting struct {
	Key       string               `gorm:"primaryKey" json:"key"`
	Value     JSON[map[string]any] `json:"value"`
	UpdatedBy string               `json:"updated_by"`
	UpdatedAt time.Time            `json:"updated_at"`
}

// keyIs matches a setting by key. A map condition makes GORM quote the
// column, which matters because KEY is a keyword in SQL.
func keyIs(key string) map[string]any { return map[string]any{"key": key} }

// GetSetting reads one setting; ErrNotFound when it was never written.
func (s *Store) GetSetting(ctx context.Context, key string) (*Setting, error) {
	var st Setting
	if err := s.db.WithContext(ctx).Where(keyIs(key)).Take(&st).Error; err != nil {
		return nil, translate(err)
	}
	return &st, nil
}

// ListSettings returns every stored setting, sorted by key.
func (s *Store) ListSettings(ctx context.Context) ([]Setting, error) {
	var out []Setting
	err := s.db.WithContext(ctx).
		Order(clause.OrderByColumn{Column: clause.Column{Name: "key"}}).
		Find(&out).Error
	if err != nil {
		return nil, fmt.Errorf("list settings: %w", err)
	}
	return out, nil
}

// PutSetting creates or replaces the setting key with value, recording who
// wrote it and when.
func (s *Store) PutSetting(ctx context.Context, key string, value map[string]any, updatedBy string) (*Setting, error) {
	if key == "" {
		return nil, fmt.Errorf("%w: empty setting key", ErrInvalid)
	}
	if value == nil {
		// A nil map would be stored as JSON null, which readers expecting
		// an object would have to special-case.
		value = map[string]any{}
	}
	st := Setting{Key: key, Value: NewJSON(value), UpdatedBy: updatedBy, UpdatedAt: Now()}
	// Named columns rather than UpdateAll: UpdateAll stamps updated_at with
	// a second clock reading, so the row stored on conflict would not match
	// the one returned.
	err := s.db.WithContext(ctx).
		Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "key"}},
			DoUpdates: clause.AssignmentColumns([]string{"value", "updated_by", "updated_at"}),
		}).
		Create(&st).Error
	if err != nil {
		return nil, fmt.Errorf("put setting %s: %w", key, translate(err))
	}
	return &st, nil
}
