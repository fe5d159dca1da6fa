-- +goose Up
-- State of the simulated connectors, the embedded default for deployments
-- without real security tools. Keeping it in the database makes a
-- simulated action as durable and idempotent as a real one.

-- One row per performed call. The primary key is the idempotency key (the
-- action id): a retried call finds its row and returns the stored result
-- instead of acting twice.
CREATE TABLE sim_connector_calls (
    idempotency_key TEXT PRIMARY KEY,
    connector       TEXT NOT NULL,
    operation       TEXT NOT NULL,
    request         TEXT NOT NULL DEFAULT '{}',
    result          TEXT,
    started_at      DATETIME NOT NULL,
    completed_at    DATETIME
);
CREATE INDEX sim_connector_calls_started_idx ON sim_connector_calls (started_at, idempotency_key);

-- Named counters (ticket numbers), advanced by an upsert whose row lock
-- serialises concurrent allocations.
CREATE TABLE sim_counters (
    name       TEXT PRIMARY KEY,
    last_value INTEGER NOT NULL
);

CREATE TABLE sim_messages (
    message_id TEXT PRIMARY KEY,
    status     TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    updated_at DATETIME NOT NULL
);

-- Senders are stored lowercased: addresses and domains match without case.
CREATE TABLE sim_blocked_senders (
    sender     TEXT PRIMARY KEY,
    reason     TEXT NOT NULL DEFAULT '',
    blocked_at DATETIME NOT NULL
);

CREATE TABLE sim_hosts (
    host_id       TEXT PRIMARY KEY,
    hostname      TEXT NOT NULL,
    status        TEXT NOT NULL,
    isolation_id  TEXT NOT NULL DEFAULT '',
    isolated_at   DATETIME,
    unisolated_at DATETIME
);

CREATE TABLE sim_scans (
    scan_id     TEXT PRIMARY KEY,
    host_id     TEXT NOT NULL,
    scan_type   TEXT NOT NULL,
    status      TEXT NOT NULL,
    started_at  DATETIME NOT NULL,
    finished_at DATETIME,
    findings    TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX sim_scans_host_idx ON sim_scans (host_id, started_at);

CREATE TABLE sim_tickets (
    ticket_id   TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    priority    TEXT NOT NULL,
    created_at  DATETIME NOT NULL
);

-- "recipient" rather than "user": USER is a reserved word in PostgreSQL.
CREATE TABLE sim_notifications (
    id        TEXT PRIMARY KEY,
    recipient TEXT NOT NULL,
    channel   TEXT NOT NULL,
    message   TEXT NOT NULL,
    sent_at   DATETIME NOT NULL
);
CREATE INDEX sim_notifications_recipient_idx ON sim_notifications (recipient, sent_at);

-- +goose Down
DROP TABLE sim_notifications;
DROP TABLE sim_tickets;
DROP TABLE sim_scans;
DROP TABLE sim_hosts;
DROP TABLE sim_blocked_senders;
DROP TABLE sim_messages;
DROP TABLE sim_counters;
DROP TABLE sim_connector_calls;
