-- +goose Up
CREATE TABLE sessions (
    id           TEXT PRIMARY KEY,
    token_hash   TEXT NOT NULL,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    csrf_token   TEXT NOT NULL,
    client_ip    TEXT NOT NULL DEFAULT '',
    user_agent   TEXT NOT NULL DEFAULT '',
    created_at   DATETIME NOT NULL,
    last_seen_at DATETIME NOT NULL,
    expires_at   DATETIME NOT NULL,
    revoked_at   DATETIME
);
CREATE UNIQUE INDEX sessions_token_hash_key ON sessions (token_hash);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE audit_events (
    id          TEXT PRIMARY KEY,
    occurred_at DATETIME NOT NULL,
    actor_id    TEXT NOT NULL DEFAULT '',
    actor       TEXT NOT NULL DEFAULT '',
    auth_method TEXT NOT NULL DEFAULT '',
    action      TEXT NOT NULL,
    target_type TEXT NOT NULL DEFAULT '',
    target_id   TEXT NOT NULL DEFAULT '',
    outcome     TEXT NOT NULL,
    status      INTEGER NOT NULL DEFAULT 0,
    client_ip   TEXT NOT NULL DEFAULT '',
    details     TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_events_time_idx ON audit_events (occurred_at, id);
CREATE INDEX audit_events_actor_idx ON audit_events (actor, occurred_at);
CREATE INDEX audit_events_action_idx ON audit_events (action, occurred_at);

-- The audit trail is append-only: the database itself refuses changes.
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_update BEFORE UPDATE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER audit_events_no_delete BEFORE DELETE ON audit_events
BEGIN
    SELECT RAISE(ABORT, 'audit_events is append-only');
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE audit_events;
DROP TABLE sessions;
