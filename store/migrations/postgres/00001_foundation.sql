-- +goose Up
CREATE TABLE users (
    id            TEXT PRIMARY KEY,
    email         TEXT NOT NULL,
    username      TEXT NOT NULL,
    role          TEXT NOT NULL,
    display_name  TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL DEFAULT '',
    enabled       BOOLEAN NOT NULL DEFAULT TRUE,
    last_login_at TIMESTAMPTZ,
    created_at    TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_username_key ON users (lower(username));

CREATE TABLE api_keys (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name         TEXT NOT NULL,
    key_prefix   TEXT NOT NULL,
    key_hash     TEXT NOT NULL,
    scopes       JSONB NOT NULL DEFAULT '[]',
    expires_at   TIMESTAMPTZ,
    last_used_at TIMESTAMPTZ,
    revoked_at   TIMESTAMPTZ,
    created_at   TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash);
CREATE INDEX api_keys_user_id_idx ON api_keys (user_id);

-- One row per UTC year; the row lock taken by the upsert serialises number
-- allocation, and a rolled-back insert rolls the counter back with it.
CREATE TABLE incident_counters (
    year     INTEGER PRIMARY KEY,
    last_seq BIGINT NOT NULL
);

CREATE TABLE incidents (
    id                  TEXT PRIMARY KEY,
    incident_number     TEXT NOT NULL,
    number_year         INTEGER NOT NULL,
    number_seq          BIGINT NOT NULL,
    incident_type       TEXT NOT NULL,
    severity            TEXT NOT NULL,
    severity_rank       SMALLINT NOT NULL,
    status              TEXT NOT NULL,
    source              TEXT NOT NULL,
    description         TEXT NOT NULL DEFAULT '',
    assignee            TEXT NOT NULL DEFAULT '',
    raw_data            JSONB NOT NULL DEFAULT '{}',
    verdict             JSONB,
    recommended_actions JSONB NOT NULL DEFAULT '[]',
    resolution          TEXT NOT NULL DEFAULT '',
    created_by          TEXT NOT NULL DEFAULT '',
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL,
    triaged_at          TIMESTAMPTZ
);
CREATE UNIQUE INDEX incidents_number_key ON incidents (incident_number);
CREATE UNIQUE INDEX incidents_year_seq_key ON incidents (number_year, number_seq);
-- Every list filter pairs with the default sort so a filtered page is an index range scan.
CREATE INDEX incidents_created_at_idx ON incidents (created_at, id);
CREATE INDEX incidents_updated_at_idx ON incidents (updated_at, id);
CREATE INDEX incidents_status_created_idx ON incidents (status, created_at);
CREATE INDEX incidents_severity_created_idx ON incidents (severity, created_at);
CREATE INDEX incidents_type_created_idx ON incidents (incident_type, created_at);
CREATE INDEX incidents_severity_rank_idx ON incidents (severity_rank, created_at);

CREATE TABLE triages (
    id                  TEXT PRIMARY KEY,
    incident_id         TEXT NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
    workflow_id         TEXT NOT NULL,
    status              TEXT NOT NULL,
    verdict             JSONB,
    recommended_actions JSONB NOT NULL DEFAULT '[]',
    indicators          JSONB,
    analyzer            TEXT NOT NULL DEFAULT '',
    error               TEXT NOT NULL DEFAULT '',
    requested_by        TEXT NOT NULL DEFAULT '',
    duration_ms         BIGINT NOT NULL DEFAULT 0,
    started_at          TIMESTAMPTZ NOT NULL,
    completed_at        TIMESTAMPTZ
);
CREATE INDEX triages_incident_idx ON triages (incident_id, started_at);
-- At most one running triage per incident: a second request joins the first.
CREATE UNIQUE INDEX triages_one_running_key ON triages (incident_id) WHERE status = 'running';

-- +goose Down
DROP TABLE triages;
DROP TABLE incidents;
DROP TABLE incident_counters;
DROP TABLE api_keys;
DROP TABLE users;
