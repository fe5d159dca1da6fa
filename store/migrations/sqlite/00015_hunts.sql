-- +goose Up
-- Where hunts look: a named data source with its kind (sql, search_index,
-- siem_search, log_analytics, custom), its non-secret configuration and its
-- credentials sealed by the secrets box (never stored in clear).
CREATE TABLE data_sources (
    name                  TEXT PRIMARY KEY,
    kind                  TEXT NOT NULL,
    description           TEXT NOT NULL DEFAULT '',
    config                TEXT NOT NULL DEFAULT '{}',
    credentials_encrypted TEXT NOT NULL DEFAULT '',
    created_by            TEXT NOT NULL DEFAULT '',
    created_at            DATETIME NOT NULL,
    updated_at            DATETIME NOT NULL
);

-- A hypothesis-driven hunt: its queries (inline or library instances),
-- schedule and trigger.
CREATE TABLE hunts (
    id               TEXT PRIMARY KEY,
    name             TEXT NOT NULL,
    hypothesis       TEXT NOT NULL DEFAULT '',
    hunt_type        TEXT NOT NULL,
    status           TEXT NOT NULL,
    queries          TEXT NOT NULL DEFAULT '[]',
    schedule         TEXT NOT NULL DEFAULT '{}',
    trigger_spec     TEXT NOT NULL DEFAULT '{}',
    mitre_techniques TEXT NOT NULL DEFAULT '[]',
    data_sources     TEXT NOT NULL DEFAULT '[]',
    tags             TEXT NOT NULL DEFAULT '[]',
    enabled          BOOLEAN NOT NULL DEFAULT TRUE,
    fail_hunt_on_error BOOLEAN NOT NULL DEFAULT FALSE,
    last_success_to  DATETIME,
    created_by       TEXT NOT NULL DEFAULT '',
    created_at       DATETIME NOT NULL,
    updated_at       DATETIME NOT NULL
);
CREATE UNIQUE INDEX hunts_name_key ON hunts (name);
CREATE INDEX hunts_status_idx ON hunts (status, created_at);

-- One execution of a hunt over a time window; workflow_id links it to its
-- Temporal workflow (for scheduled runs, the ID the schedule gave it).
CREATE TABLE hunt_runs (
    id                TEXT PRIMARY KEY,
    hunt_id           TEXT NOT NULL REFERENCES hunts (id) ON DELETE CASCADE,
    workflow_id       TEXT NOT NULL,
    run_trigger       TEXT NOT NULL,
    status            TEXT NOT NULL,
    window_from       DATETIME NOT NULL,
    window_to         DATETIME NOT NULL,
    total_findings    INTEGER NOT NULL DEFAULT 0,
    critical_findings INTEGER NOT NULL DEFAULT 0,
    new_findings      INTEGER NOT NULL DEFAULT 0,
    query_results     TEXT NOT NULL DEFAULT '[]',
    error             TEXT NOT NULL DEFAULT '',
    duration_ms       INTEGER NOT NULL DEFAULT 0,
    started_at        DATETIME NOT NULL,
    completed_at      DATETIME
);
CREATE UNIQUE INDEX hunt_runs_workflow_key ON hunt_runs (workflow_id);
CREATE INDEX hunt_runs_hunt_idx ON hunt_runs (hunt_id, started_at);

-- A matching row. The fingerprint is unique per hunt: the same evidence in
-- a later run is counted on the first finding (seen_count, last_run_id)
-- instead of becoming a new one.
CREATE TABLE hunt_findings (
    id           TEXT PRIMARY KEY,
    hunt_id      TEXT NOT NULL REFERENCES hunts (id) ON DELETE CASCADE,
    run_id       TEXT NOT NULL,
    last_run_id  TEXT NOT NULL,
    query_index  INTEGER NOT NULL,
    query_name   TEXT NOT NULL DEFAULT '',
    query        TEXT NOT NULL DEFAULT '',
    severity     TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    evidence     TEXT NOT NULL DEFAULT '{}',
    seen_count   INTEGER NOT NULL DEFAULT 1,
    incident_id  TEXT NOT NULL DEFAULT '',
    created_at   DATETIME NOT NULL,
    last_seen_at DATETIME NOT NULL
);
CREATE UNIQUE INDEX hunt_findings_fingerprint_key ON hunt_findings (hunt_id, fingerprint);
CREATE INDEX hunt_findings_run_idx ON hunt_findings (last_run_id);

-- +goose Down
DROP TABLE hunt_findings;
DROP TABLE hunt_runs;
DROP TABLE hunts;
DROP TABLE data_sources;
