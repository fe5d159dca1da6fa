package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm/clause"
)

// QueryParam is a parameter of a library query with its default.
type QueryParam struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Default     any    `json:"default"`
	Description string `json:"description,omitempty"`
}

// PackageQuery is a hunt library query that a content package installed.
// Templates hold the query in further query languages, keyed by query type.
type PackageQuery struct {
	Name             string `gorm:"primaryKey"`
	Title            string
	QueryType        string
	Query            string
	Category         string
	Description      string
	Parameters       JSON[[]QueryParam]
	Templates        JSON[map[string]string]
	ExpectedBaseline float64
	Severity         string
	MitreTechniques  JSON[[]string]
	KeyFields        JSON[[]string]
	PackageName      string
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// PutPackageQuery creates or replaces a package query by name.
func (s *Store) PutPackageQuery(ctx context.Context, q *PackageQuery) error {
	now := Now()
	if q.CreatedAt.IsZero() {
		q.CreatedAt = now
	}
	q.UpdatedAt = now
	if q.Parameters.V == nil {
		q.Parameters = NewJSON([]QueryParam{})
	}
	if q.Templates.V == nil {
		q.Templates = NewJSON(map[string]string{})
	}
	if q.MitreTechniques.V == nil {
		q.MitreTechniques = NewJSON([]string{})
	}
	if q.KeyFields.V == nil {
		q.KeyFields = NewJSON([]string{})
	}
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns: []clause.Column{{Name: "name"}},
		DoUpdates: clause.AssignmentColumns([]string{"title", "query_type", "query", "category", "description", "parameters",
			"templates", "expected_baseline", "severity", "mitre_techniques", "key_fields", "package_name", "updated_at"}),
	}).Create(q).Error
	if err != nil {
		return fmt.Errorf("save package query: %w", translate(err))
	}
	return nil
}

// GetPackageQuery reads one package query by name.
func (s *Store) GetPackageQuery(ctx context.Context, name string) (*PackageQuery, error) {
	var q PackageQuery
	if err := s.db.WithContext(ctx).Take(&q, "name = ?", name).Error; err != nil {
		return nil, translate(err)
	}
	return &q, nil
}

// ListPackageQueries returns every package query by name.
func (s *Store) ListPackageQueries(ctx context.Context) ([]PackageQuery, error) {
	var out []PackageQuery
	if err := s.db.WithContext(ctx).Order("name").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list package queries: %w", err)
	}
	return out, nil
}

// DeletePackageQuery removes a package query.
func (s *Store) DeletePackageQuery(ctx context.Context, name string) error {
	return deleteWhere(ctx, s, &PackageQuery{}, "name = ?", name)
}

// HuntByName finds a hunt by its exact name.
func (s *Store) HuntByName(ctx context.Context, name string) (*Hunt, error) {
	var h Hunt
	if err := s.db.WithContext(ctx).Take(&h, "name = ?", name).Error; err != nil {
		return nil, translate(err)
	}
	return &h, nil
}
