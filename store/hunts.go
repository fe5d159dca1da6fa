package store

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
	"gorm.io/gorm/clause"
)

// DataSource is a named place hunts query. Config holds what is not
// secret (URL, index, database DSN without password...); the credentials
// are sealed by the secrets box and never stored in clear.
type DataSource struct {
	Name                 string `gorm:"primaryKey"`
	Kind                 string
	Description          string
	Config               JSON[map[string]any]
	CredentialsEncrypted string
	CreatedBy            string
	CreatedAt            time.Time
	UpdatedAt            time.Time
}

// HuntQuery is one query of a hunt: inline text, or a library query by id
// with parameter values.
type HuntQuery struct {
	Name             string         `json:"name,omitempty"`
	QueryType        string         `json:"query_type"`
	Query            string         `json:"query,omitempty"`
	LibraryID        string         `json:"library_id,omitempty"`
	Parameters       map[string]any `json:"parameters,omitempty"`
	Description      string         `json:"description,omitempty"`
	DataSource       string         `json:"data_source,omitempty"`
	TimeoutSecs      int            `json:"timeout_secs,omitempty"`
	ExpectedBaseline float64        `json:"expected_baseline"`
	Severity         string         `json:"severity,omitempty"`
	SeverityField    string         `json:"severity_field,omitempty"`
}

// HuntSchedule is when a hunt runs.
type HuntSchedule struct {
	CronExpression  string `json:"cron_expression,omitempty"`
	Timezone        string `json:"timezone,omitempty"`
	MaxRuntimeSecs  int    `json:"max_runtime_secs,omitempty"`
	IntervalMinutes int    `json:"interval_minutes,omitempty"`
	LookbackMinutes int    `json:"lookback_minutes,omitempty"`
}

// HuntTrigger selects the incidents that start a triggered hunt.
type HuntTrigger struct {
	IncidentTypes []string `json:"incident_types,omitempty"`
	Severities    []string `json:"severities,omitempty"`
}

// Hunt is a hypothesis-driven set of queries.
type Hunt struct {
	ID              string `gorm:"primaryKey"`
	Name            string
	Hypothesis      string
	HuntType        string
	Status          string
	Queries         JSON[[]HuntQuery]
	Schedule        JSON[HuntSchedule]
	TriggerSpec     JSON[HuntTrigger]
	MitreTechniques JSON[[]string]
	DataSources     JSON[[]string]
	Tags            JSON[[]string]
	Enabled         bool
	FailHuntOnError bool
	LastSuccessTo   *time.Time
	CreatedBy       string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// HuntFilter narrows a hunt listing.
type HuntFilter struct {
	Status   string
	HuntType string
	Tag      string
	Page     Page
}

// PutDataSource creates or replaces a data source.
func (s *Store) PutDataSource(ctx context.Context, d *DataSource) error {
	now := Now()
	if d.CreatedAt.IsZero() {
		d.CreatedAt = now
	}
	d.UpdatedAt = now
	if d.Config.V == nil {
		d.Config = NewJSON(map[string]any{})
	}
	err := s.db.WithContext(ctx).Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "name"}},
		DoUpdates: clause.AssignmentColumns([]string{"kind", "description", "config", "credentials_encrypted", "updated_at"}),
	}).Create(d).Error
	if err != nil {
		return fmt.Errorf("save data source: %w", translate(err))
	}
	return nil
}

// GetDataSource reads one data source by name.
func (s *Store) GetDataSource(ctx context.Context, name string) (*DataSource, error) {
	var d DataSource
	if err := s.db.WithContext(ctx).Take(&d, "name = ?", name).Error; err != nil {
		return nil, translate(err)
	}
	return &d, nil
}

// ListDataSources returns every data source by name.
func (s *Store) ListDataSources(ctx context.Context) ([]DataSource, error) {
	var out []DataSource
	if err := s.db.WithContext(ctx).Order("name").Find(&out).Error; err != nil {
		return nil, fmt.Errorf("list data sources: %w", err)
	}
	return out, nil
}

// DeleteDataSource removes a data source.
func (s *Store) DeleteDataSource(ctx context.Context, name string) error {
	return deleteWhere(ctx, s, &DataSource{}, "name = ?", name)
}

// CreateHunt inserts a hunt, giving it an id when it has none.
func (s *Store) CreateHunt(ctx context.Context, h *Hunt) error {
	if h.ID == "" {
		h.ID = uuid.NewString()
	}
	now := Now()
	h.CreatedAt, h.UpdatedAt = now, now
	if err := s.db.WithContext(ctx).Create(h).Error; err != nil {
		return fmt.Errorf("create hunt: %w", translate(err))
	}
	return nil
}

// UpdateHunt saves every field of an existing hunt.
func (s *Store) UpdateHunt(ctx context.Context, h *Hunt) error {
	h.UpdatedAt = Now()
	res := s.db.WithContext(ctx).Model(&Hunt{}).Where("id = ?", h.ID).Select("*").Omit("created_at", "created_by").Updates(h)
	if res.Error != nil {
		return fmt.Errorf("update hunt: %w", translate(res.Error))
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// GetHunt reads one hunt.
func (s *Store) GetHunt(ctx context.Context, id string) (*Hunt, error) {
	var h Hunt
	if err := s.db.WithContext(ctx).Take(&h, "id = ?", id).Error; err != nil {
		return nil, translate(err)
	}
	return &h, nil
}

// ListHunts returns one page of hunts, newest first, and the total.
func (s *Store) ListHunts(ctx context.Context, f HuntFilter) ([]Hunt, int64, error) {
	q := s.db.WithContext(ctx).Model(&Hunt{})
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.HuntType != "" {
		q = q.Where("hunt_type = ?", f.HuntType)
	}
	if f.Tag != "" {
		// Tags are a JSON array of strings; the quoted form cannot match
		// inside another tag.
		q = q.Where("CAST(tags AS TEXT) LIKE ?", "%"+jsonQuoted(f.Tag)+"%")
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("count hunts: %w", err)
	}
	var out []Hunt
	if err := f.Page.apply(q.Order("created_at DESC").Order("id")).Find(&out).Error; err != nil {
		return nil, 0, fmt.Errorf("list hunts: %w", err)
	}
	return out, total, nil
}

// DeleteHunt removes a hunt with its runs and findings.
func (s *Store) DeleteHunt(ctx context.Context, id string) error {
	return deleteWhere(ctx, s, &Hunt{}, "id = ?", id)
}

// deleteWhere deletes the rows matching cond, ErrNotFound when none did.
func deleteWhere(ctx context.Context, s *Store, model any, cond string, args ...any) error {
	res := s.db.WithContext(ctx).Where(cond, args...).Delete(model)
	if res.Error != nil {
		return fmt.Errorf("delete: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}
