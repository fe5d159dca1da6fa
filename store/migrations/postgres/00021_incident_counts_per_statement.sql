-- +goose Up
-- Incidents arrive in batches (the webhook intake commits concurrent
-- alerts together): count a statement's inserted or deleted rows once per
-- (status, severity, type) instead of once per row. Updates keep their
-- per-row trigger, which only fires when one of the three columns changes.
DROP TRIGGER incident_counts_insert_delete ON incidents;

-- +goose StatementBegin
CREATE FUNCTION incident_counts_inserted() RETURNS trigger AS $$
BEGIN
    INSERT INTO incident_counts (status, severity, incident_type, n)
        SELECT status, severity, incident_type, count(*) FROM new_rows
        GROUP BY status, severity, incident_type
        ORDER BY status, severity, incident_type
        ON CONFLICT (status, severity, incident_type) DO UPDATE SET n = incident_counts.n + EXCLUDED.n;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION incident_counts_deleted() RETURNS trigger AS $$
BEGIN
    INSERT INTO incident_counts (status, severity, incident_type, n)
        SELECT status, severity, incident_type, -count(*) FROM old_rows
        GROUP BY status, severity, incident_type
        ORDER BY status, severity, incident_type
        ON CONFLICT (status, severity, incident_type) DO UPDATE SET n = incident_counts.n + EXCLUDED.n;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TRIGGER incident_counts_inserted AFTER INSERT ON incidents
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION incident_counts_inserted();
CREATE TRIGGER incident_counts_deleted AFTER DELETE ON incidents
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION incident_counts_deleted();

-- +goose Down
DROP TRIGGER incident_counts_deleted ON incidents;
DROP TRIGGER incident_counts_inserted ON incidents;
DROP FUNCTION incident_counts_deleted();
DROP FUNCTION incident_counts_inserted();
CREATE TRIGGER incident_counts_insert_delete AFTER INSERT OR DELETE ON incidents
    FOR EACH ROW EXECUTE FUNCTION incident_counts_track();
