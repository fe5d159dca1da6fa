-- +goose Up
-- Per-source payload format and authentication. Sources registered before
-- keep the signed scheme and format detection. Tokens are kept as SHA-256
-- hashes only; the previous token stays valid until its expiry so that a
-- rotation needs no downtime at the sender.
ALTER TABLE webhook_sources ADD COLUMN format TEXT NOT NULL DEFAULT 'auto';
ALTER TABLE webhook_sources ADD COLUMN auth_mode TEXT NOT NULL DEFAULT 'hmac';
ALTER TABLE webhook_sources ADD COLUMN mapping JSONB NOT NULL DEFAULT '{}';
ALTER TABLE webhook_sources ADD COLUMN resolve_incidents BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE webhook_sources ADD COLUMN basic_username TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_sources ADD COLUMN token_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_sources ADD COLUMN previous_token_hash TEXT NOT NULL DEFAULT '';
ALTER TABLE webhook_sources ADD COLUMN previous_token_expires_at TIMESTAMPTZ;

-- +goose Down
ALTER TABLE webhook_sources DROP COLUMN previous_token_expires_at;
ALTER TABLE webhook_sources DROP COLUMN previous_token_hash;
ALTER TABLE webhook_sources DROP COLUMN token_hash;
ALTER TABLE webhook_sources DROP COLUMN basic_username;
ALTER TABLE webhook_sources DROP COLUMN resolve_incidents;
ALTER TABLE webhook_sources DROP COLUMN mapping;
ALTER TABLE webhook_sources DROP COLUMN auth_mode;
ALTER TABLE webhook_sources DROP COLUMN format;
