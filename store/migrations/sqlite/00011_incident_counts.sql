-- +goose Up
-- Lists report a total; counting a million rows per request is too slow,
-- so totals by status, severity and type are kept up to date by triggers.
CREATE TABLE incident_counts (
    status        TEXT NOT NULL,
    severity      TEXT NOT NULL,
    incident_type TEXT NOT NULL,
    n             INTEGER NOT NULL,
    PRIMARY KEY (status, severity, incident_type)
);
INSERT INTO incident_counts
    SELECT status, severity, incident_type, count(*) FROM incidents GROUP BY status, severity, incident_type;

-- +goose StatementBegin
CREATE TRIGGER incident_counts_insert AFTER INSERT ON incidents
BEGIN
    INSERT OR IGNORE INTO incident_counts VALUES (NEW.status, NEW.severity, NEW.incident_type, 0);
    UPDATE incident_counts SET n = n + 1
        WHERE status = NEW.status AND severity = NEW.severity AND incident_type = NEW.incident_type;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER incident_counts_delete AFTER DELETE ON incidents
BEGIN
    UPDATE incident_counts SET n = n - 1
        WHERE status = OLD.status AND severity = OLD.severity AND incident_type = OLD.incident_type;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER incident_counts_update AFTER UPDATE OF status, severity, incident_type ON incidents
    WHEN OLD.status IS NOT NEW.status OR OLD.severity IS NOT NEW.severity OR OLD.incident_type IS NOT NEW.incident_type
BEGIN
    UPDATE incident_counts SET n = n - 1
        WHERE status = OLD.status AND severity = OLD.severity AND incident_type = OLD.incident_type;
    INSERT OR IGNORE INTO incident_counts VALUES (NEW.status, NEW.severity, NEW.incident_type, 0);
    UPDATE incident_counts SET n = n + 1
        WHERE status = NEW.status AND severity = NEW.severity AND incident_type = NEW.incident_type;
END;
-- +goose StatementEnd

DROP INDEX incidents_status_created_idx;
DROP INDEX incidents_severity_created_idx;
DROP INDEX incidents_type_created_idx;
DROP INDEX incidents_severity_rank_idx;
CREATE INDEX incidents_status_created_idx ON incidents (status, created_at, id);
CREATE INDEX incidents_severity_created_idx ON incidents (severity, created_at, id);
CREATE INDEX incidents_type_created_idx ON incidents (incident_type, created_at, id);
CREATE INDEX incidents_severity_rank_idx ON incidents (severity_rank, created_at, id);
CREATE INDEX incidents_status_severity_idx ON incidents (status, severity, created_at, id);
CREATE INDEX incidents_triaged_idx ON incidents (triaged_at, created_at, id);

-- +goose Down
DROP INDEX incidents_triaged_idx;
DROP INDEX incidents_status_severity_idx;
DROP TRIGGER incident_counts_update;
DROP TRIGGER incident_counts_delete;
DROP TRIGGER incident_counts_insert;
DROP TABLE incident_counts;
