-- +goose Up
CREATE TABLE actions (
    id               TEXT PRIMARY KEY,
    incident_id      TEXT,
    action_type      TEXT NOT NULL,
    status           TEXT NOT NULL,
    approval_level   TEXT NOT NULL DEFAULT '',
    parameters       JSONB NOT NULL DEFAULT '{}',
    requested_by     TEXT NOT NULL,
    requested_by_id  TEXT NOT NULL DEFAULT '',
    requested_at     TIMESTAMPTZ NOT NULL,
    executed_at      TIMESTAMPTZ,
    executed_by      TEXT NOT NULL DEFAULT '',
    approved_by      TEXT NOT NULL DEFAULT '',
    approved_at      TIMESTAMPTZ,
    approval_comment TEXT NOT NULL DEFAULT '',
    rejected_by      TEXT NOT NULL DEFAULT '',
    rejected_at      TIMESTAMPTZ,
    rejection_reason TEXT NOT NULL DEFAULT '',
    result           JSONB,
    error            TEXT NOT NULL DEFAULT '',
    policy_rule_id   TEXT NOT NULL DEFAULT '',
    policy_rule_name TEXT NOT NULL DEFAULT '',
    decision_reason  TEXT NOT NULL DEFAULT '',
    rollback_of      TEXT NOT NULL DEFAULT '',
    rolled_back_by   TEXT NOT NULL DEFAULT '',
    workflow_id      TEXT NOT NULL,
    expires_at       TIMESTAMPTZ,
    updated_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX actions_status_idx ON actions (status, requested_at);
CREATE INDEX actions_incident_idx ON actions (incident_id, requested_at);
CREATE INDEX actions_type_idx ON actions (action_type, requested_at);
CREATE INDEX actions_level_idx ON actions (approval_level, status);
CREATE INDEX actions_requested_idx ON actions (requested_at, id);

-- The kill switch state, mirrored from its workflow so every process can
-- check it before a connector call and it survives any restart.
CREATE TABLE kill_switch (
    id         INTEGER PRIMARY KEY,
    active     BOOLEAN NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    changed_by TEXT NOT NULL DEFAULT '',
    changed_at TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE kill_switch;
DROP TABLE actions;
