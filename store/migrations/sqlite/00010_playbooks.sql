-- +goose Up
CREATE TABLE playbooks (
    id                    TEXT PRIMARY KEY,
    name                  TEXT NOT NULL,
    description           TEXT NOT NULL DEFAULT '',
    version               TEXT NOT NULL,
    version_number        INTEGER NOT NULL,
    enabled               BOOLEAN NOT NULL DEFAULT TRUE,
    builtin               BOOLEAN NOT NULL DEFAULT FALSE,
    trigger_incident_type TEXT NOT NULL DEFAULT '',
    auto_run              BOOLEAN NOT NULL DEFAULT FALSE,
    created_by            TEXT NOT NULL DEFAULT '',
    created_at            DATETIME NOT NULL,
    updated_at            DATETIME NOT NULL
);
CREATE UNIQUE INDEX playbooks_name_key ON playbooks (lower(name));
CREATE INDEX playbooks_trigger_idx ON playbooks (trigger_incident_type, auto_run);

-- Every version ever saved; executions name the one they run.
CREATE TABLE playbook_versions (
    playbook_id    TEXT NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
    version_number INTEGER NOT NULL,
    version        TEXT NOT NULL,
    content        TEXT NOT NULL,
    created_by     TEXT NOT NULL DEFAULT '',
    created_at     DATETIME NOT NULL,
    PRIMARY KEY (playbook_id, version_number)
);

CREATE TABLE playbook_executions (
    id              TEXT PRIMARY KEY,
    playbook_id     TEXT NOT NULL,
    playbook_name   TEXT NOT NULL,
    version         TEXT NOT NULL,
    incident_id     TEXT NOT NULL,
    status          TEXT NOT NULL,
    triggered_by    TEXT NOT NULL,
    auto_key        TEXT,
    variables       TEXT NOT NULL DEFAULT '{}',
    steps           TEXT NOT NULL DEFAULT '[]',
    steps_completed INTEGER NOT NULL DEFAULT 0,
    steps_total     INTEGER NOT NULL DEFAULT 0,
    error           TEXT NOT NULL DEFAULT '',
    workflow_id     TEXT NOT NULL,
    started_at      DATETIME NOT NULL,
    completed_at    DATETIME,
    duration_ms     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX playbook_executions_playbook_idx ON playbook_executions (playbook_id, started_at);
CREATE INDEX playbook_executions_incident_idx ON playbook_executions (incident_id);
-- An automatic run happens once per playbook and incident.
CREATE UNIQUE INDEX playbook_executions_auto_key ON playbook_executions (auto_key);

-- +goose Down
DROP TABLE playbook_executions;
DROP TABLE playbook_versions;
DROP TABLE playbooks;
