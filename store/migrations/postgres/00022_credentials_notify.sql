-- +goose Up
-- Every change to an API key or a user that may change who a key
-- authenticates as is announced on the vigil_credentials channel when it
-- commits, whoever makes it (an API process, another one, an operator's
-- psql): each process's key cache empties on it (store/key_cache.go), so
-- a revocation or a disabled user takes effect at once everywhere.
-- +goose StatementBegin
CREATE FUNCTION credentials_changed() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('vigil_credentials', '');
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
-- +goose StatementEnd

-- A key's last-use bookkeeping changes nothing it grants, so it stays quiet.
CREATE TRIGGER api_keys_changed
    AFTER UPDATE OF user_id, key_hash, scopes, expires_at, revoked_at OR DELETE OR TRUNCATE ON api_keys
    FOR EACH STATEMENT EXECUTE FUNCTION credentials_changed();
CREATE TRIGGER users_changed AFTER UPDATE OR DELETE OR TRUNCATE ON users
    FOR EACH STATEMENT EXECUTE FUNCTION credentials_changed();

-- +goose Down
DROP TRIGGER users_changed ON users;
DROP TRIGGER api_keys_changed ON api_keys;
DROP FUNCTION credentials_changed();
