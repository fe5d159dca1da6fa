package store

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"
)

// JSON stores any JSON-serialisable value in a JSONB (PostgreSQL) or TEXT
// (SQLite) column.
type JSON[T any] struct {
	V T
}

// NewJSON wraps v for storage.
func NewJSON[T any](v T) JSON[T] { return JSON[T]{V: v} }

// Value implements driver.Valuer.
func (j JSON[T]) Value() (driver.Value, error) {
	b, err := json.Marshal(j.V)
	if err != nil {
		return nil, fmt.Errorf("encode json column: %w", err)
	}
	return string(b), nil
}

// Scan implements sql.Scanner.
func (j *JSON[T]) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		var zero T
		j.V = zero
		return nil
	case []byte:
		b = v
	case string:
		b = []byte(v)
	default:
		return fmt.Errorf("json column: unsupported source type %T", src)
	}
	return json.Unmarshal(b, &j.V)
}

// MarshalJSON makes the wrapper transparent in API output.
func (j JSON[T]) MarshalJSON() ([]byte, error) { return json.Marshal(j.V) }
