package events

import (
	"database/sql"
	"fmt"
	_ "github.com/glebarez/go-sqlite"  // registers "sqlite"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"

	"github.com/go-sql-driver/mysql"
)

// OpenWritable opens a database to load events into: for postgres and
// mysql the dsn, for sqlite a file path (created if absent).
func OpenWritable(engine, dsnOrPath string) (*sql.DB, error) {
	switch engine {
	case EnginePostgres:
		return sql.Open("pgx", dsnOrPath)
	case EngineMySQL:
		cfg, err := mysql.ParseDSN(dsnOrPath)
		if err != nil {
			return nil, err
		}
		cfg.ParseTime = true
		return sql.Open("mysql", cfg.FormatDSN())
	case EngineSQLite:
		return sql.Open("sqlite", "file:"+dsnOrPath+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	}
	return nil, fmt.Errorf("unknown engine %q", engine)
}
