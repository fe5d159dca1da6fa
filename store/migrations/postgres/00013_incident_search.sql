-- +goose Up
-- The dashboard's search box matches incident numbers by prefix; with the
-- database's collation only a pattern index turns LIKE 'INC-2026-00%'
-- into an index range instead of a scan of every incident.
CREATE INDEX incidents_number_pattern_idx ON incidents (incident_number text_pattern_ops);

-- +goose Down
DROP INDEX incidents_number_pattern_idx;
