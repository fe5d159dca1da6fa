-- +goose Up
-- Policy rules decide whether a requested response action executes at once,
-- waits for approval at some level, or is refused. The condition is an
-- expression the policy package compiles; the database only stores it.
CREATE TABLE policies (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    description    TEXT NOT NULL DEFAULT '',
    condition      TEXT NOT NULL,
    action         TEXT NOT NULL,
    approval_level TEXT NOT NULL DEFAULT '',
    priority       INTEGER NOT NULL DEFAULT 0,
    enabled        BOOLEAN NOT NULL DEFAULT TRUE,
    created_by     TEXT NOT NULL DEFAULT '',
    created_at     DATETIME NOT NULL,
    updated_at     DATETIME NOT NULL
);
-- Names identify rules to people, so "Block Hosts" and "block hosts" clash.
CREATE UNIQUE INDEX policies_name_key ON policies (lower(name));
-- Every decision reads the enabled rules in priority order.
CREATE INDEX policies_enabled_priority_idx ON policies (enabled, priority);

-- +goose Down
DROP TABLE policies;
