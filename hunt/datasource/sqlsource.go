package datasource

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	_ "github.com/glebarez/go-sqlite" // registers "sqlite"
	"github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib" // registers "pgx"
)

// SQL engines a sql source may name in its "engine" setting.
const (
	EnginePostgres = "postgres"
	EngineMySQL    = "mysql" // MariaDB and MySQL
	EngineSQLite   = "sqlite"
)

// sqlSource runs one reading statement per query in a read-only
// transaction with an engine-side statement timeout and a row cap.
type sqlSource struct {
	db      *sql.DB
	engine  string
	maxRows int
}

// openSQL reads the settings engine ("postgres", "mysql", "sqlite"), dsn
// (or path for sqlite) and max_rows; a dsn with a password belongs in the
// credentials (key "dsn"), which win over the settings.
func openSQL(cfg Config, opts Options) (Source, error) {
	engine := setting(cfg.Settings, "engine")
	dsn := cfg.Credentials["dsn"]
	if dsn == "" {
		dsn = setting(cfg.Settings, "dsn")
	}
	var driver string
	switch engine {
	case EnginePostgres:
		driver = "pgx"
	case EngineMySQL:
		driver = "mysql"
		mc, err := mysql.ParseDSN(dsn)
		if err != nil {
			return nil, &ConfigError{Field: "dsn", Message: err.Error()}
		}
		// Times come back as time.Time; several statements per query are
		// refused by the driver too.
		mc.ParseTime, mc.MultiStatements, mc.Loc = true, false, time.UTC
		dsn = mc.FormatDSN()
	case EngineSQLite:
		driver = "sqlite"
		path := setting(cfg.Settings, "path")
		if path == "" {
			return nil, &ConfigError{Field: "path", Message: "a sqlite source needs the path of its file"}
		}
		if err := notStore(path, opts.StorePaths); err != nil {
			return nil, err
		}
		dsn = "file:" + path + "?mode=ro&_pragma=query_only(1)&_pragma=busy_timeout(5000)"
	default:
		return nil, &ConfigError{Field: "engine", Message: "must be postgres, mysql or sqlite"}
	}
	if dsn == "" {
		return nil, &ConfigError{Field: "dsn", Message: "a " + engine + " source needs a dsn"}
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, &ConfigError{Field: "dsn", Message: err.Error()}
	}
	db.SetMaxOpenConns(8)
	db.SetConnMaxIdleTime(time.Minute)
	return &sqlSource{db: db, engine: engine, maxRows: intSetting(cfg.Settings, "max_rows")}, nil
}

// notStore refuses a SQLite path that is Vigil's own store.
func notStore(path string, stores []string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return &ConfigError{Field: "path", Message: err.Error()}
	}
	for _, s := range stores {
		if sa, err := filepath.Abs(s); err == nil && sa == abs {
			return &ConfigError{Field: "path", Message: "must not be Vigil's own database"}
		}
	}
	return nil
}

func (s *sqlSource) Close() error { return s.db.Close() }

func (s *sqlSource) Test(ctx context.Context) error {
	_, err := s.Run(ctx, Request{Query: "SELECT 1 AS ok", Timeout: 10 * time.Second})
	return err
}

// Run binds the query's :parameters (plus :from and :to, the window),
// then reads at most the row cap inside a read-only transaction.
func (s *sqlSource) Run(ctx context.Context, req Request) (Result, error) {
	params := make(map[string]any, len(req.Params)+2)
	for k, v := range req.Params {
		params[k] = v
	}
	params["from"], params["to"] = req.From.UTC(), req.To.UTC()
	style := placeholderQuestion
	if s.engine == EnginePostgres {
		style = placeholderDollar
	}
	text, args, err := bindSQL(req.Query, style, params)
	if err != nil {
		return Result{}, err
	}
	timeout := req.timeout()
	// The context is the backstop; the engine's own timeout stops the work
	// on the server even if the connection lingers.
	ctx, cancel := context.WithTimeout(ctx, timeout+2*time.Second)
	defer cancel()
	if s.engine == EngineSQLite {
		return s.watch(ctx, timeout, text, args, req.maxRows(s.maxRows))
	}
	return s.read(ctx, timeout, text, args, req.maxRows(s.maxRows))
}

// watch runs a SQLite query with a watchdog. The embedded driver cannot
// interrupt a statement once its rows are being read, so on timeout the
// caller gets ErrQueryTimeout at once while the statement runs on, holding
// one connection of the source's pool, until it ends by itself.
func (s *sqlSource) watch(ctx context.Context, timeout time.Duration, text string, args []any, max int) (Result, error) {
	type outcome struct {
		res Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := s.read(ctx, timeout, text, args, max)
		done <- outcome{res, err}
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case o := <-done:
		return o.res, o.err
	case <-t.C:
		return Result{}, fmt.Errorf("%w after %v", ErrQueryTimeout, timeout)
	case <-ctx.Done():
		return Result{}, queryError(ctx.Err(), ctx)
	}
}

// read runs one bound statement in a read-only transaction with the
// engine's statement timeout and reads at most max rows.
func (s *sqlSource) read(ctx context.Context, timeout time.Duration, text string, args []any, max int) (Result, error) {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("connect: %w", err)
	}
	defer func() { _ = conn.Close() }()
	if s.engine == EnginePostgres {
		return readPostgres(ctx, conn, timeout, text, args, max)
	}
	if s.engine == EngineMySQL {
		if err := mysqlTimeout(ctx, conn, timeout); err != nil {
			return Result{}, err
		}
	}
	tx, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: s.engine != EngineSQLite})
	if err != nil {
		return Result{}, fmt.Errorf("begin read-only transaction: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	return queryRows(ctx, tx, text, args, max)
}

// querier is a connection or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// queryRows runs one bound statement and reads at most max rows of it.
func queryRows(ctx context.Context, q querier, text string, args []any, max int) (Result, error) {
	rows, err := q.QueryContext(ctx, text, args...)
	if err != nil {
		return Result{}, queryError(err, ctx)
	}
	defer func() { _ = rows.Close() }()
	res, err := readRows(rows, max)
	if err != nil {
		return Result{}, queryError(err, ctx)
	}
	return res, nil
}

// readPostgres runs one bound statement in a read-only transaction with
// its statement timeout, the transaction opened and the timeout set in one
// round trip: a statement without arguments goes over the simple protocol,
// which takes several at once. The query itself stays bound (extended
// protocol); the transaction then ends with a rollback, which a read-only
// one loses nothing to.
func readPostgres(ctx context.Context, conn *sql.Conn, timeout time.Duration, text string, args []any, max int) (Result, error) {
	ms := strconv.FormatInt(timeout.Milliseconds(), 10)
	if _, err := conn.ExecContext(ctx, "BEGIN READ ONLY; SET LOCAL statement_timeout = "+ms); err != nil {
		return Result{}, fmt.Errorf("begin read-only transaction: %w", err)
	}
	defer func() {
		// Ended even when ctx is: a connection left in a transaction is
		// not taken back by the pool.
		end, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_, _ = conn.ExecContext(end, "ROLLBACK")
	}()
	return queryRows(ctx, conn, text, args, max)
}

// mysqlTimeout sets the session's statement timeout: MariaDB calls it
// max_statement_time (seconds), MySQL max_execution_time (milliseconds).
func mysqlTimeout(ctx context.Context, conn *sql.Conn, d time.Duration) error {
	secs := strconv.FormatFloat(d.Seconds(), 'f', 3, 64)
	_, err := conn.ExecContext(ctx, "SET SESSION max_statement_time = "+secs)
	var me *mysql.MySQLError
	if errors.As(err, &me) && me.Number == 1193 { // unknown system variable: MySQL
		_, err = conn.ExecContext(ctx, "SET SESSION max_execution_time = "+strconv.FormatInt(d.Milliseconds(), 10))
	}
	if err != nil {
		return fmt.Errorf("set statement timeout: %w", err)
	}
	return nil
}

// ErrQueryTimeout means the engine or the context stopped a query that ran
// past its timeout.
var ErrQueryTimeout = errors.New("query timed out")

func queryError(err error, ctx context.Context) error {
	msg := strings.ToLower(err.Error())
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || strings.Contains(msg, "statement timeout") ||
		strings.Contains(msg, "max_statement_time") || strings.Contains(msg, "maximum statement execution time") ||
		strings.Contains(msg, "query execution was interrupted") {
		return fmt.Errorf("%w: %v", ErrQueryTimeout, err)
	}
	return fmt.Errorf("run query: %w", err)
}

// readRows reads up to max rows as column → value maps; bytes become
// strings and times RFC 3339 UTC text.
func readRows(rows *sql.Rows, max int) (Result, error) {
	cols, err := rows.Columns()
	if err != nil {
		return Result{}, err
	}
	res := Result{Columns: cols, Rows: []map[string]any{}}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if len(res.Rows) == max {
			res.Truncated = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			return Result{}, err
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			row[strings.ToLower(c)] = plainValue(vals[i])
		}
		res.Rows = append(res.Rows, row)
	}
	return res, rows.Err()
}

func plainValue(v any) any {
	switch t := v.(type) {
	case []byte:
		return string(t)
	case time.Time:
		return t.UTC().Format(time.RFC3339Nano)
	}
	return v
}
