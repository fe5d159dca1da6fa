-- +goose Up
-- Lists report a total; counting a million rows per request is too slow,
-- so totals by status, severity and type are kept up to date by triggers.
CREATE TABLE incident_counts (
    status        TEXT NOT NULL,
    severity      TEXT NOT NULL,
    incident_type TEXT NOT NULL,
    n             BIGINT NOT NULL,
    PRIMARY KEY (status, severity, incident_type)
);
INSERT INTO incident_counts
    SELECT status, severity, incident_type, count(*) FROM incidents GROUP BY status, severity, incident_type;

-- +goose StatementBegin
CREATE FUNCTION incident_counts_add(s TEXT, v TEXT, t TEXT, d BIGINT) RETURNS void AS $$
BEGIN
    INSERT INTO incident_counts (status, severity, incident_type, n) VALUES (s, v, t, d)
        ON CONFLICT (status, severity, incident_type) DO UPDATE SET n = incident_counts.n + d;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION incident_counts_track() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        PERFORM incident_counts_add(NEW.status, NEW.severity, NEW.incident_type, 1);
    ELSIF TG_OP = 'DELETE' THEN
        PERFORM incident_counts_add(OLD.status, OLD.severity, OLD.incident_type, -1);
    ELSIF (OLD.status, OLD.severity, OLD.incident_type) < (NEW.status, NEW.severity, NEW.incident_type) THEN
        -- Touch the two count rows in one global order, so concurrent
        -- updates moving incidents opposite ways cannot deadlock.
        PERFORM incident_counts_add(OLD.status, OLD.severity, OLD.incident_type, -1);
        PERFORM incident_counts_add(NEW.status, NEW.severity, NEW.incident_type, 1);
    ELSE
        PERFORM incident_counts_add(NEW.status, NEW.severity, NEW.incident_type, 1);
        PERFORM incident_counts_add(OLD.status, OLD.severity, OLD.incident_type, -1);
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER incident_counts_insert_delete AFTER INSERT OR DELETE ON incidents
    FOR EACH ROW EXECUTE FUNCTION incident_counts_track();
CREATE TRIGGER incident_counts_update AFTER UPDATE OF status, severity, incident_type ON incidents
    FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.severity IS DISTINCT FROM NEW.severity
        OR OLD.incident_type IS DISTINCT FROM NEW.incident_type)
    EXECUTE FUNCTION incident_counts_track();

-- Every sort breaks ties by created_at and then id, and each sort column's
-- index ends the same way, so any page is an index range scan.
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
DROP TRIGGER incident_counts_update ON incidents;
DROP TRIGGER incident_counts_insert_delete ON incidents;
DROP FUNCTION incident_counts_track();
DROP FUNCTION incident_counts_add(TEXT, TEXT, TEXT, BIGINT);
DROP TABLE incident_counts;
