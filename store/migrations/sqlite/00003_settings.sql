-- +goose Up
-- Instance-wide configuration, one JSON document per key. Secrets inside a
-- document are sealed by the settings package before they reach this table.
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_by TEXT NOT NULL DEFAULT '',
    updated_at DATETIME NOT NULL
);

-- +goose Down
DROP TABLE settings;
