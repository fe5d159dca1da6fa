package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ErrBuiltin means the operation is not allowed on a built-in playbook.
var ErrBuiltin = errors.New("built-in playbooks cannot be deleted")

// Playbook is a named, versioned step list; its content lives in
// PlaybookVersion rows.
type Playbook struct {
	ID                  string `gorm:"primaryKey"`
	Name                string
	Description         string
	Version             string
	VersionNumber       int
	Enabled             bool
	Builtin             bool
	TriggerIncidentType string
	AutoRun             bool
	CreatedBy           string
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

// PlaybookVersion is one saved version of a playbook's YAML.
type PlaybookVersion struct {
	PlaybookID    string `gorm:"primaryKey"`
	VersionNumber int    `gorm:"primaryKey"`
	Version       string
	Content       string
	CreatedBy     string
	CreatedAt     time.Time
}

// PlaybookMeta is what the store needs to know of a playbook's content.
type PlaybookMeta struct {
	Name, Description   string
	TriggerIncidentType string
	AutoRun             bool
}

// VersionString names the n-th version: 1.0, 1.1, 1.2, ...
func VersionString(n int) string { return fmt.Sprintf("1.%d", n-1) }

// CreatePlaybook saves a new playbook as version 1.0.
func (s *Store) CreatePlaybook(ctx context.Context, meta PlaybookMeta, content, by string, builtin bool) (*Playbook, error) {
	now := Now()
	p := &Playbook{ID: uuid.NewString(), Name: meta.Name, Description: meta.Description, Version: VersionString(1),
		VersionNumber: 1, Enabled: true, Builtin: builtin, TriggerIncidentType: meta.TriggerIncidentType,
		AutoRun: meta.AutoRun, CreatedBy: by, CreatedAt: now, UpdatedAt: now}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(p).Error; err != nil {
			return err
		}
		return tx.Create(&PlaybookVersion{PlaybookID: p.ID, VersionNumber: 1, Version: p.Version,
			Content: content, CreatedBy: by, CreatedAt: now}).Error
	})
	if err != nil {
		return nil, fmt.Errorf("create playbook: %w", translate(err))
	}
	return p, nil
}

// SavePlaybookVersion stores content as the playbook's newest version;
// earlier versions are kept.
func (s *Store) SavePlaybookVersion(ctx context.Context, id string, meta PlaybookMeta, enabled bool, content, by string) (*Playbook, error) {
	if err := checkID(id); err != nil {
		return nil, err
	}
	var p Playbook
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Take(&p, "id = ?", id).Error; err != nil {
			return err
		}
		now := Now()
		p.VersionNumber++
		p.Version = VersionString(p.VersionNumber)
		p.Name, p.Description, p.Enabled = meta.Name, meta.Description, enabled
		p.TriggerIncidentType, p.AutoRun, p.UpdatedAt = meta.TriggerIncidentType, meta.AutoRun, now
		if err := tx.Save(&p).Error; err != nil {
			return err
		}
		return tx.Create(&PlaybookVersion{PlaybookID: p.ID, VersionNumber: p.VersionNumber, Version: p.Version,
			Content: content, CreatedBy: by, CreatedAt: now}).Error
	})
	if err != nil {
		return nil, fmt.Errorf("save playbook version: %w", translate(err))
	}
	return &p, nil
}

// GetPlaybook reads a playbook and its newest version.
func (s *Store) GetPlaybook(ctx context.Context, id string) (*Playbook, *PlaybookVersion, error) {
	if err := checkID(id); err != nil {
		return nil, nil, err
	}
	var p Playbook
	if err := s.db.WithContext(ctx).Take(&p, "id = ?", id).Error; err != nil {
		return nil, nil, translate(err)
	}
	v, err := s.PlaybookVersionByNumber(ctx, id, p.VersionNumber)
	return &p, v, err
}

// PlaybookByName finds a playbook by name, case-insensitively.
func (s *Store) PlaybookByName(ctx context.Context, name string) (*Playbook, error) {
	var p Playbook
	if err := s.db.WithContext(ctx).Take(&p, "lower(name) = lower(?)", name).Error; err != nil {
		return nil, translate(err)
	}
	return &p, nil
}

// PlaybookVersionByNumber reads one saved version.
func (s *Store) PlaybookVersionByNumber(ctx context.Context, id string, n int) (*PlaybookVersion, error) {
	var v PlaybookVersion
	if err := s.db.WithContext(ctx).Take(&v, "playbook_id = ? AND version_number = ?", id, n).Error; err != nil {
		return nil, translate(err)
	}
	return &v, nil
}

// PlaybookVersionByName reads a saved version by its version string.
func (s *Store) PlaybookVersionByName(ctx context.Context, id, version string) (*PlaybookVersion, error) {
	var v PlaybookVersion
	if err := s.db.WithContext(ctx).Take(&v, "playbook_id = ? AND version = ?", id, version).Error; err != nil {
		return nil, translate(err)
	}
	return &v, nil
}

// ListPlaybookVersions returns one page of a playbook's versions, newest
// first, and how many there are.
func (s *Store) ListPlaybookVersions(ctx context.Context, id string, p Page) ([]PlaybookVersion, int64, error) {
	q := s.db.WithContext(ctx).Model(&PlaybookVersion{}).Where("playbook_id = ?", id).Session(&gormSession)
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count playbook versions: %w", err)
	}
	var out []PlaybookVersion
	if err := p.apply(q.Order("version_number DESC")).Find(&out).Error; err != nil {
		return nil, 0, fmt.Errorf("list playbook versions: %w", err)
	}
	return out, total, nil
}

// ListPlaybooks returns every playbook by name.
func (s *Store) ListPlaybooks(ctx context.Context) ([]Playbook, error) {
	var out []Playbook
	err := s.db.WithContext(ctx).Order("lower(name)").Find(&out).Error
	return out, err
}

// AutoRunPlaybooks returns enabled playbooks set to run on new incidents
// of the given type.
func (s *Store) AutoRunPlaybooks(ctx context.Context, incidentType string) ([]Playbook, error) {
	var out []Playbook
	err := s.db.WithContext(ctx).
		Where("enabled = ? AND auto_run = ? AND lower(trigger_incident_type) = ?", true, true, strings.ToLower(incidentType)).
		Order("lower(name)").Find(&out).Error
	return out, err
}

// DeletePlaybook removes a playbook with its versions; built-ins stay.
func (s *Store) DeletePlaybook(ctx context.Context, id string) error {
	if err := checkID(id); err != nil {
		return err
	}
	return translate(s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var p Playbook
		if err := tx.Take(&p, "id = ?", id).Error; err != nil {
			return err
		}
		if p.Builtin {
			return ErrBuiltin
		}
		if err := tx.Where("playbook_id = ?", id).Delete(&PlaybookVersion{}).Error; err != nil {
			return err
		}
		return tx.Delete(&p).Error
	}))
}
