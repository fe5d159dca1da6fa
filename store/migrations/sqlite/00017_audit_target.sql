-- +goose Up
-- An incident's timeline reads the audit events about the incident and
-- its actions by target.
CREATE INDEX audit_events_target_idx ON audit_events (target_id, occurred_at);

-- +goose Down
DROP INDEX audit_events_target_idx;
