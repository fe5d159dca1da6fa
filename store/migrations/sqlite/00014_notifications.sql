-- +goose Up
-- Notification channels: where events are sent, which events, and the
-- routing rules (severities, sources, hours in a time zone, days). Secret
-- configuration values are sealed together in secrets_encrypted.
CREATE TABLE notification_channels (
    id                TEXT PRIMARY KEY,
    name              TEXT NOT NULL,
    channel_type      TEXT NOT NULL,
    config            TEXT NOT NULL DEFAULT '{}',
    secrets_encrypted TEXT NOT NULL DEFAULT '',
    events            TEXT NOT NULL DEFAULT '[]',
    enabled           BOOLEAN NOT NULL DEFAULT TRUE,
    severities        TEXT NOT NULL DEFAULT '[]',
    sources           TEXT NOT NULL DEFAULT '[]',
    hours             TEXT NOT NULL DEFAULT '',
    timezone          TEXT NOT NULL DEFAULT '',
    days              TEXT NOT NULL DEFAULT '[]',
    dedup_window_secs BIGINT NOT NULL DEFAULT 0,
    created_by        TEXT NOT NULL DEFAULT '',
    created_at        DATETIME NOT NULL,
    updated_at        DATETIME NOT NULL
);
CREATE UNIQUE INDEX notification_channels_name_idx ON notification_channels (name);

-- The outbox: one row per event, written in the transaction of the change
-- that caused it; the relay routes queued rows to channels in seq order.
CREATE TABLE notification_events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id          TEXT NOT NULL UNIQUE,
    event_type  TEXT NOT NULL,
    incident_id TEXT NOT NULL DEFAULT '',
    severity    TEXT NOT NULL DEFAULT '',
    source      TEXT NOT NULL DEFAULT '',
    data        TEXT NOT NULL DEFAULT '{}',
    status      TEXT NOT NULL DEFAULT 'queued',
    created_at  DATETIME NOT NULL,
    routed_at   DATETIME
);
CREATE INDEX notification_events_queued_idx ON notification_events (status, seq);

-- The delivery log: exactly one row per (event, channel); its id is the
-- stable delivery id vendors see.
CREATE TABLE notification_deliveries (
    id              TEXT PRIMARY KEY,
    event_id        TEXT NOT NULL,
    channel_id      TEXT NOT NULL,
    event_type      TEXT NOT NULL,
    incident_id     TEXT NOT NULL DEFAULT '',
    status          TEXT NOT NULL,
    attempts        INTEGER NOT NULL DEFAULT 0,
    provider_status INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT NOT NULL DEFAULT '',
    created_at      DATETIME NOT NULL,
    updated_at      DATETIME NOT NULL,
    sent_at         DATETIME
);
CREATE UNIQUE INDEX notification_deliveries_event_channel_idx ON notification_deliveries (event_id, channel_id);
CREATE INDEX notification_deliveries_channel_idx ON notification_deliveries (channel_id, created_at);
CREATE INDEX notification_deliveries_dedup_idx ON notification_deliveries (channel_id, event_type, incident_id, created_at);
CREATE INDEX notification_deliveries_status_idx ON notification_deliveries (status, created_at);

-- +goose Down
DROP TABLE notification_deliveries;
DROP TABLE notification_events;
DROP TABLE notification_channels;
