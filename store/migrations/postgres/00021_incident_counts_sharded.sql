-- +goose Up
-- The incident totals were one row per (status, severity, type), which
-- every writer of that kind locked until its commit: concurrent triage
-- runs (each moving an incident from open to triaged) and intake batches
-- queued on a handful of rows, one commit at a time. Each kind now has 16
-- rows; a transaction adds to the one its transaction id picks, and a
-- total is the sum over them.
ALTER TABLE incident_counts ADD COLUMN shard SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE incident_counts DROP CONSTRAINT incident_counts_pkey;
ALTER TABLE incident_counts ADD PRIMARY KEY (status, severity, incident_type, shard);

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION incident_counts_add(s TEXT, v TEXT, t TEXT, d BIGINT) RETURNS void AS $$
BEGIN
    INSERT INTO incident_counts (status, severity, incident_type, shard, n)
        VALUES (s, v, t, txid_current() % 16, d)
        ON CONFLICT (status, severity, incident_type, shard) DO UPDATE SET n = incident_counts.n + d;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- Incidents arrive in batches (the webhook intake commits concurrent
-- alerts together): count a statement's inserted or deleted rows once per
-- (status, severity, type) instead of once per row. Updates keep their
-- per-row trigger, which only fires when one of the three columns changes.
DROP TRIGGER incident_counts_insert_delete ON incidents;

-- +goose StatementBegin
CREATE FUNCTION incident_counts_inserted() RETURNS trigger AS $$
BEGIN
    INSERT INTO incident_counts (status, severity, incident_type, shard, n)
        SELECT status, severity, incident_type, txid_current() % 16, count(*) FROM new_rows
        GROUP BY status, severity, incident_type
        ORDER BY status, severity, incident_type
        ON CONFLICT (status, severity, incident_type, shard) DO UPDATE SET n = incident_counts.n + EXCLUDED.n;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION incident_counts_deleted() RETURNS trigger AS $$
BEGIN
    INSERT INTO incident_counts (status, severity, incident_type, shard, n)
        SELECT status, severity, incident_type, txid_current() % 16, -count(*) FROM old_rows
        GROUP BY status, severity, incident_type
        ORDER BY status, severity, incident_type
        ON CONFLICT (status, severity, incident_type, shard) DO UPDATE SET n = incident_counts.n + EXCLUDED.n;
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

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION incident_counts_add(s TEXT, v TEXT, t TEXT, d BIGINT) RETURNS void AS $$
BEGIN
    INSERT INTO incident_counts (status, severity, incident_type, n) VALUES (s, v, t, d)
        ON CONFLICT (status, severity, incident_type) DO UPDATE SET n = incident_counts.n + d;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

CREATE TEMP TABLE incident_counts_folded AS
    SELECT status, severity, incident_type, sum(n)::BIGINT AS n FROM incident_counts
    GROUP BY status, severity, incident_type;
DELETE FROM incident_counts;
ALTER TABLE incident_counts DROP CONSTRAINT incident_counts_pkey;
ALTER TABLE incident_counts DROP COLUMN shard;
ALTER TABLE incident_counts ADD PRIMARY KEY (status, severity, incident_type);
INSERT INTO incident_counts SELECT status, severity, incident_type, n FROM incident_counts_folded;
DROP TABLE incident_counts_folded;
