package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

// Migrations are plain SQL files per dialect, applied in order by goose,
// which records each applied version in the goose_db_version table.
//
//go:embed migrations/postgres/*.sql migrations/sqlite/*.sql
var migrationFS embed.FS

// MigrationStatus describes one migration and whether it has been applied.
type MigrationStatus struct {
	Version int64
	Name    string
	Applied bool
}

func (s *Store) migrationProvider() (*goose.Provider, error) {
	sub, err := fs.Sub(migrationFS, "migrations/"+string(s.dialect))
	if err != nil {
		return nil, err
	}
	sqlDB, err := s.db.DB()
	if err != nil {
		return nil, err
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if s.dialect == DialectPostgres {
		dialect = goose.DialectPostgres
		// An advisory lock lets several processes start at once against
		// one database while exactly one applies pending migrations.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	return goose.NewProvider(dialect, sqlDB, sub, opts...)
}

// Migrate applies every pending migration and returns the versions applied.
func (s *Store) Migrate(ctx context.Context) ([]int64, error) {
	p, err := s.migrationProvider()
	if err != nil {
		return nil, fmt.Errorf("prepare migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return nil, fmt.Errorf("apply migrations: %w", err)
	}
	applied := make([]int64, 0, len(results))
	for _, r := range results {
		applied = append(applied, r.Source.Version)
	}
	if s.dialect == DialectSQLite {
		// Refresh planner statistics where they are stale, so filtered
		// lists pick the composite indexes (PostgreSQL's autovacuum does
		// this on its own).
		if err := s.db.WithContext(ctx).Exec("PRAGMA optimize").Error; err != nil {
			return applied, fmt.Errorf("optimize sqlite: %w", err)
		}
	}
	return applied, nil
}

// MigrationStatuses lists every known migration and whether it is applied.
func (s *Store) MigrationStatuses(ctx context.Context) ([]MigrationStatus, error) {
	p, err := s.migrationProvider()
	if err != nil {
		return nil, fmt.Errorf("prepare migrations: %w", err)
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, fmt.Errorf("read migration status: %w", err)
	}
	out := make([]MigrationStatus, 0, len(st))
	for _, m := range st {
		out = append(out, MigrationStatus{
			Version: m.Source.Version,
			Name:    m.Source.Path,
			Applied: m.State == goose.StateApplied,
		})
	}
	return out, nil
}
