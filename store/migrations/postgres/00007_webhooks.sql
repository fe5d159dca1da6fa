-- +goose Up
CREATE TABLE webhook_sources (
    source           TEXT PRIMARY KEY,
    secret_encrypted TEXT NOT NULL,
    auto_triage      BOOLEAN NOT NULL DEFAULT FALSE,
    playbook         TEXT NOT NULL DEFAULT '',
    severity_mapping JSONB NOT NULL DEFAULT '{}',
    created_by       TEXT NOT NULL DEFAULT '',
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL
);

-- Accepted signatures, kept past the timestamp window so a replay within
-- it is recognised.
CREATE TABLE webhook_replays (
    signature_hash TEXT PRIMARY KEY,
    source         TEXT NOT NULL,
    expires_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX webhook_replays_expiry_idx ON webhook_replays (expires_at);

-- The durable intake queue: raw alerts that could not be turned into
-- incidents at once, and incidents whose automation (triage) is still to
-- start. The dispatcher drains it in seq order.
CREATE TABLE intake_queue (
    seq          BIGSERIAL PRIMARY KEY,
    id           TEXT NOT NULL,
    kind         TEXT NOT NULL,
    source       TEXT NOT NULL,
    payload      TEXT NOT NULL DEFAULT '',
    incident_id  TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    last_error   TEXT NOT NULL DEFAULT '',
    available_at TIMESTAMPTZ NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX intake_queue_id_key ON intake_queue (id);
CREATE INDEX intake_queue_pending_idx ON intake_queue (status, seq);

ALTER TABLE incidents ADD COLUMN title TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN external_source TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN external_id TEXT NOT NULL DEFAULT '';
ALTER TABLE incidents ADD COLUMN occurrences INTEGER NOT NULL DEFAULT 1;
ALTER TABLE incidents ADD COLUMN last_seen_at TIMESTAMPTZ;
ALTER TABLE incidents ADD COLUMN intake_id TEXT NOT NULL DEFAULT '';
CREATE INDEX incidents_external_idx ON incidents (external_source, external_id, created_at);
CREATE UNIQUE INDEX incidents_intake_key ON incidents (intake_id) WHERE intake_id <> '';

-- +goose Down
DROP INDEX incidents_intake_key;
DROP INDEX incidents_external_idx;
ALTER TABLE incidents DROP COLUMN intake_id;
ALTER TABLE incidents DROP COLUMN last_seen_at;
ALTER TABLE incidents DROP COLUMN occurrences;
ALTER TABLE incidents DROP COLUMN external_id;
ALTER TABLE incidents DROP COLUMN external_source;
ALTER TABLE incidents DROP COLUMN title;
DROP TABLE intake_queue;
DROP TABLE webhook_replays;
DROP TABLE webhook_sources;
