-- +goose Up
-- Threat-intelligence reputations by indicator, so repeated lookups within
-- a type's freshness window are served locally instead of spending the
-- provider's latency and quota again. A refresh overwrites the row.
CREATE TABLE intel_cache (
    indicator_type  TEXT NOT NULL,
    indicator_value TEXT NOT NULL,
    reputation      TEXT NOT NULL,
    fetched_at      DATETIME NOT NULL,
    expires_at      DATETIME NOT NULL,
    PRIMARY KEY (indicator_type, indicator_value)
);
-- Purging stale rows scans by expiry.
CREATE INDEX intel_cache_expires_idx ON intel_cache (expires_at);

-- +goose Down
DROP TABLE intel_cache;
