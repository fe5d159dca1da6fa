-- +goose Up
ALTER TABLE triages ADD COLUMN model TEXT NOT NULL DEFAULT '';
ALTER TABLE triages ADD COLUMN fallback_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE triages ADD COLUMN intel TEXT NOT NULL DEFAULT '[]';

-- +goose Down
ALTER TABLE triages DROP COLUMN intel;
ALTER TABLE triages DROP COLUMN fallback_reason;
ALTER TABLE triages DROP COLUMN model;
