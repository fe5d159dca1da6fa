// Package store is Vigil's system of record: users, API keys, incidents and
// triage records, on PostgreSQL or on an embedded SQLite file.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/glebarez/sqlite"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/vigil-soc/vigil/internal/ttlcache"
)

// Sentinel errors returned by store methods; callers test them with errors.Is.
var (
	// ErrNotFound means the requested row does not exist.
	ErrNotFound = errors.New("not found")
	// ErrConflict means the write would break a uniqueness rule.
	ErrConflict = errors.New("conflict")
	// ErrUnauthenticated means a credential is unknown, revoked, expired or
	// belongs to a disabled user.
	ErrUnauthenticated = errors.New("unauthenticated")
	// ErrInvalid means the request names something the store does not support.
	ErrInvalid = errors.New("invalid")
)

// Dialect names the database engine behind a Store.
type Dialect string

// Supported dialects.
const (
	DialectPostgres Dialect = "postgres"
	DialectSQLite   Dialect = "sqlite"
)

// DefaultSQLitePath is where the embedded database lives when no URL is given.
const DefaultSQLitePath = "./data/vigil.db"

// Store wraps the database handle. It is safe for concurrent use.
type Store struct {
	db      *gorm.DB
	dialect Dialect
	runs    *runWatch
	// checkpoints moves SQLite's write-ahead log into the database file
	// off the requests' path; nil on PostgreSQL.
	checkpoints *checkpointer
	// policies caches the enabled rules; rule writes forget them.
	policies *ttlcache.Value[[]Policy]
	// keys caches API keys in use while keyListener hears every change to
	// keys and users; it serves nothing on SQLite. The listener starts on
	// the first key authentication (listenForKeyChanges), so processes
	// that never authenticate a key (workers, the command line) hold no
	// listening connection.
	keys            *keyCache
	keyListener     *keyListener
	keyListenerOnce sync.Once
	databaseURL     string
}

// postgresPoolSize is how many PostgreSQL connections one process opens,
// and keeps open while they are idle.
const postgresPoolSize = 20

// Open connects to databaseURL: a postgres:// or postgresql:// URL selects
// PostgreSQL; an empty string selects the SQLite file DefaultSQLitePath; any
// other value is taken as a SQLite file path (or "file:" URI).
func Open(ctx context.Context, databaseURL string, log *slog.Logger) (*Store, error) {
	cfg := &gorm.Config{
		Logger:         newGormLogger(log),
		NowFunc:        Now,
		TranslateError: true,
	}
	var (
		db      *gorm.DB
		err     error
		dialect Dialect
	)
	switch {
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		dialect = DialectPostgres
		db, err = gorm.Open(postgres.Open(databaseURL), cfg)
	default:
		dialect = DialectSQLite
		dsn, derr := sqliteDSN(databaseURL)
		if derr != nil {
			return nil, derr
		}
		db, err = gorm.Open(sqlite.Open(dsn), cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", dialect, err)
	}
	sqlDB, err := db.DB()
	if err != nil {
		return nil, fmt.Errorf("database handle: %w", err)
	}
	if dialect == DialectPostgres {
		writeLimitLiterally(db)
		// Every connection the pool may open stays open while idle: a
		// connection closed after a burst costs a new server process, a
		// login and every prepared statement again at the next one, which
		// under sustained load doubled the p99 of intake and slowed triage
		// by a third (bench/README.md).
		sqlDB.SetMaxOpenConns(postgresPoolSize)
		sqlDB.SetMaxIdleConns(postgresPoolSize)
	} else {
		// SQLite has one writer; a small pool keeps WAL readers concurrent
		// without piling writers up behind the busy timeout.
		sqlDB.SetMaxOpenConns(4)
		sqlDB.SetMaxIdleConns(4)
	}
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	s := &Store{db: db, dialect: dialect, runs: &runWatch{}, policies: &ttlcache.Value[[]Policy]{}, keys: &keyCache{},
		databaseURL: databaseURL}
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := s.Ping(pingCtx); err != nil {
		_ = sqlDB.Close()
		return nil, fmt.Errorf("reach %s database: %w", dialect, err)
	}
	if dialect == DialectSQLite {
		s.checkpoints = startCheckpointer(s)
	}
	return s, nil
}

// sqliteDSN turns a path into a DSN with WAL, a busy timeout, immediate
// write transactions (so concurrent writers queue instead of failing on lock
// upgrade), foreign keys on, and SQLite's automatic checkpoint off: the
// store checkpoints in the background (checkpointer).
func sqliteDSN(path string) (string, error) {
	if path == "" {
		path = DefaultSQLitePath
	}
	path = strings.TrimPrefix(path, "sqlite://")
	if strings.HasPrefix(path, "file:") {
		return path, nil
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return "", fmt.Errorf("create database directory: %w", err)
		}
	}
	return "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(ON)&_pragma=wal_autocheckpoint(0)&_txlock=immediate", nil
}

// Dialect reports which engine the store runs on.
func (s *Store) Dialect() Dialect { return s.dialect }

// DB exposes the GORM handle for packages that need raw access (benchmarks, tests).
func (s *Store) DB() *gorm.DB { return s.db }

// SQL returns the underlying database/sql handle.
func (s *Store) SQL() (*sql.DB, error) { return s.db.DB() }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// Close releases the connection pool.
func (s *Store) Close() error {
	s.checkpoints.close()
	// Once done here, no authentication can start a listener any more.
	s.keyListenerOnce.Do(func() {})
	s.keyListener.close()
	sqlDB, err := s.db.DB()
	if err != nil {
		return err
	}
	return sqlDB.Close()
}

// Now is the store's clock: UTC, truncated to microseconds so values
// round-trip identically through PostgreSQL and SQLite.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// translate maps driver errors onto the package's sentinels.
func translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, gorm.ErrRecordNotFound):
		return ErrNotFound
	case errors.Is(err, gorm.ErrDuplicatedKey):
		return fmt.Errorf("%w: %v", ErrConflict, err)
	}
	return err
}

func newGormLogger(log *slog.Logger) logger.Interface {
	if log == nil {
		return logger.Discard
	}
	return logger.NewSlogLogger(log, logger.Config{
		SlowThreshold:             500 * time.Millisecond,
		IgnoreRecordNotFoundError: true,
		LogLevel:                  logger.Warn,
	})
}

// gormSession makes a query reusable: GORM statements are not reusable
// after Count without a new session.
var gormSession = gorm.Session{}
