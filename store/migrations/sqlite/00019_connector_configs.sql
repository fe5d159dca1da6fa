-- +goose Up
-- Configured connectors: one row per connection to a security tool. The
-- vendor type names a registered connector type; settings hold its
-- non-secret fields and secrets_encrypted its secret fields, sealed
-- together under the context "connector:" and the id. serves lists the
-- connector kinds this connector is chosen for (at most one connector per
-- kind, except threat_intel which may combine several).
CREATE TABLE connector_configs (
    id                TEXT PRIMARY KEY,
    vendor_type       TEXT NOT NULL,
    settings          TEXT NOT NULL DEFAULT '{}',
    secrets_encrypted TEXT NOT NULL DEFAULT '',
    serves            TEXT NOT NULL DEFAULT '[]',
    created_by        TEXT NOT NULL DEFAULT '',
    created_at        DATETIME NOT NULL,
    updated_at        DATETIME NOT NULL
);

-- Accounts the simulated identity provider acted on; an account never
-- acted on is enabled.
CREATE TABLE sim_users (
    user_name           TEXT PRIMARY KEY,
    status              TEXT NOT NULL,
    reason              TEXT NOT NULL DEFAULT '',
    updated_at          DATETIME NOT NULL,
    sessions_revoked_at DATETIME,
    mfa_reset_at        DATETIME
);

-- +goose Down
DROP TABLE sim_users;
DROP TABLE connector_configs;
