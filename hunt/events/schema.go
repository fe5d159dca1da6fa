// Package events defines the normalized event schema hunts query (the
// tables auth_events, process_events, network_events, file_events,
// email_events and dns_events; see docs/hunting.md) and loads demo data
// into it on PostgreSQL, MariaDB/MySQL or SQLite.
package events

import (
	"fmt"
	"strings"
)

// Engines the schema is written for.
const (
	EnginePostgres = "postgres"
	EngineMySQL    = "mysql"
	EngineSQLite   = "sqlite"
)

// column is one column: its name and its portable type (text, ts, int).
type column struct{ name, typ string }

// Table is one table of the normalized schema.
type Table struct {
	Name    string
	columns []column
}

// Columns returns the column names, in order, without the id.
func (t Table) Columns() []string {
	out := make([]string, len(t.columns))
	for i, c := range t.columns {
		out[i] = c.name
	}
	return out
}

func cols(spec string) []column {
	var out []column
	for _, f := range strings.Fields(spec) {
		name, typ, _ := strings.Cut(f, ":")
		if typ == "" {
			typ = "text"
		}
		out = append(out, column{name, typ})
	}
	return out
}

// Tables is the normalized schema. Every table has id and ts (UTC).
var Tables = []Table{
	{"auth_events", cols("ts:ts host user_name src_ip country app logon_type auth_method result")},
	{"process_events", cols("ts:ts host user_name process_name process_path command_line parent_name sha256")},
	{"network_events", cols("ts:ts host src_ip dst_ip dst_port:int dst_domain protocol direction bytes_out:int bytes_in:int process_name")},
	{"file_events", cols("ts:ts host user_name action path file_name extension size_bytes:int process_name")},
	{"email_events", cols("ts:ts message_id direction sender sender_domain recipient recipient_domain subject attachment_name attachment_type url verdict")},
	{"dns_events", cols("ts:ts host src_ip query query_type response_code answer")},
}

// DDL returns the CREATE TABLE and CREATE INDEX statements for engine.
func DDL(engine string) ([]string, error) {
	types := map[string]map[string]string{
		EnginePostgres: {"id": "BIGSERIAL PRIMARY KEY", "ts": "TIMESTAMPTZ NOT NULL", "text": "TEXT NOT NULL DEFAULT ''", "int": "BIGINT NOT NULL DEFAULT 0"},
		EngineMySQL:    {"id": "BIGINT AUTO_INCREMENT PRIMARY KEY", "ts": "DATETIME(6) NOT NULL", "text": "VARCHAR(1024) NOT NULL DEFAULT ''", "int": "BIGINT NOT NULL DEFAULT 0"},
		EngineSQLite:   {"id": "INTEGER PRIMARY KEY AUTOINCREMENT", "ts": "DATETIME NOT NULL", "text": "TEXT NOT NULL DEFAULT ''", "int": "INTEGER NOT NULL DEFAULT 0"},
	}[engine]
	if types == nil {
		return nil, fmt.Errorf("unknown engine %q", engine)
	}
	var out []string
	for _, t := range Tables {
		defs := []string{"id " + types["id"]}
		for _, c := range t.columns {
			defs = append(defs, c.name+" "+types[c.typ])
		}
		out = append(out, fmt.Sprintf("CREATE TABLE IF NOT EXISTS %s (\n    %s\n)", t.Name, strings.Join(defs, ",\n    ")))
		idx := fmt.Sprintf("CREATE INDEX %s_ts_idx ON %s (ts)", t.Name, t.Name)
		if engine != EngineMySQL {
			idx = strings.Replace(idx, "CREATE INDEX", "CREATE INDEX IF NOT EXISTS", 1)
		}
		out = append(out, idx)
	}
	return out, nil
}
