-- +goose Up
-- PostgreSQL adds a pattern index for incident number prefixes here.
-- SQLite's case-insensitive LIKE cannot use an index, and the databases
-- it serves are small, so this version only keeps both dialects'
-- numbering equal.
SELECT 1;

-- +goose Down
SELECT 1;
