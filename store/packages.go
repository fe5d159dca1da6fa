package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Item types a content package can install.
const (
	ItemPlaybook  = "playbook"
	ItemHunt      = "hunt"
	ItemKnowledge = "knowledge"
	ItemQuery     = "query"
)

// InstalledPackage is a content package installed here.
type InstalledPackage struct {
	Name          string `gorm:"primaryKey"`
	Version       string
	Description   string
	Author        string
	License       string
	Tags          JSON[[]string]
	Compatibility string
	// Builtin marks the package Vigil ships; it cannot be uninstalled.
	Builtin     bool
	SignedBy    string
	InstalledBy string
	InstalledAt time.Time
	UpdatedAt   time.Time
}

// TableName implements gorm's Tabler.
func (InstalledPackage) TableName() string { return "packages" }

// PackageItem records one item a package installed. ContentHash is the
// item's canonical form as installed: an item whose current form hashes
// differently was changed locally since.
type PackageItem struct {
	PackageName    string
	ItemType       string `gorm:"primaryKey"`
	TargetID       string `gorm:"primaryKey"`
	ItemName       string
	PackageVersion string
	ContentHash    string
}

// inTx is a Store whose every method works inside tx. It shares the rule
// cache; it wakes no run watcher (its writes are not committed yet) and
// runs no checkpoints.
func (s *Store) inTx(tx *gorm.DB) *Store {
	return &Store{db: tx, dialect: s.dialect, policies: s.policies}
}

// InTx runs fn with a Store whose every method writes inside one database
// transaction: all of fn's writes are kept, or none when fn fails. The
// cached rules are forgotten once the transaction ends, since fn may have
// written some.
func (s *Store) InTx(ctx context.Context, fn func(tx *Store) error) error {
	defer s.policies.Forget()
	return s.db.WithContext(ctx).Transaction(func(gtx *gorm.DB) error {
		return fn(s.inTx(gtx))
	})
}

// PutPackage creates or replaces the record of an installed package,
// keeping who installed it first and when.
func (s *Store) PutPackage(ctx context.Context, p *InstalledPackage) error {
	now := Now()
	if p.InstalledAt.IsZero() {
		p.InstalledAt = now
	}
	p.UpdatedAt = now
	if p.Tags.V == nil {
		p.Tags = NewJSON([]string{})
	}
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "name"}},
		DoUpdates: clause.AssignmentColumns([]string{"version", "description", "author", "license", "tags",
			"compatibility", "builtin", "signed_by", "installed_by", "updated_at"}),
	}).Create(p).Error
	if err != nil {
		return fmt.Errorf("save package: %w", translate(err))
	}
	return nil
}

// GetPackage reads one installed package by name.
func (s *Store) GetPackage(ctx context.Context, name string) (*InstalledPackage, error) {
	var p InstalledPackage
	if err := s.db.WithContext(ctx).Take(&p, "name = ?", name).Error; err != nil {
		return nil, translate(err)
	}
	return &p, nil
}

// ListPackages returns every installed package by name.
func (s *Store) ListPackages(ctx context.Context) ([]InstalledPackage, error) {
	var out []InstalledPackage
	if err := s.db.WithContext(ctx).Order("name").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list packages: %w", err)
	}
	return out, nil
}

// DeletePackage removes a package's record and its item records (not the
// items themselves).
func (s *Store) DeletePackage(ctx context.Context, name string) error {
	if err := s.db.WithContext(ctx).Where("package_name = ?", name).Delete(&PackageItem{}).Error; err != nil {
		return fmt.Errorf("delete package items: %w", err)
	}
	return deleteWhere(ctx, s, &InstalledPackage{}, "name = ?", name)
}

// PackageItems lists what a package installed, by type and name.
func (s *Store) PackageItems(ctx context.Context, name string) ([]PackageItem, error) {
	var out []PackageItem
	if err := s.db.WithContext(ctx).Where("package_name = ?", name).Order("item_type").Order("item_name").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list package items: %w", err)
	}
	return out, nil
}

// AllPackageItems lists what every package installed, keyed by package
// name, each list by type and name: one read for the package list.
func (s *Store) AllPackageItems(ctx context.Context) (map[string][]PackageItem, error) {
	var rows []PackageItem
	if err := s.db.WithContext(ctx).Order("package_name").Order("item_type").Order("item_name").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list package items: %w", err)
	}
	out := map[string][]PackageItem{}
	for _, it := range rows {
		out[it.PackageName] = append(out[it.PackageName], it)
	}
	return out, nil
}

// ItemOwner returns the package record of an installed item, or
// ErrNotFound when no package installed it.
func (s *Store) ItemOwner(ctx context.Context, itemType, targetID string) (*PackageItem, error) {
	var it PackageItem
	if err := s.db.WithContext(ctx).Take(&it, "item_type = ? AND target_id = ?", itemType, targetID).Error; err != nil {
		return nil, translate(err)
	}
	return &it, nil
}

// PutPackageItem records (or re-records) an item as installed by a package.
func (s *Store) PutPackageItem(ctx context.Context, it *PackageItem) error {
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "item_type"}, {Name: "target_id"}},
		DoUpdates: clause.AssignmentColumns([]string{"package_name", "item_name", "package_version", "content_hash"}),
	}).Create(it).Error
	if err != nil {
		return fmt.Errorf("save package item: %w", translate(err))
	}
	return nil
}

// ForgetPackageItem drops the record of an installed item.
func (s *Store) ForgetPackageItem(ctx context.Context, itemType, targetID string) error {
	err := s.db.WithContext(ctx).Where("item_type = ? AND target_id = ?", itemType, targetID).Delete(&PackageItem{}).Error
	if err != nil {
		return fmt.Errorf("forget package item: %w", err)
	}
	return nil
}
