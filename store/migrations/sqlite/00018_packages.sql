-- +goose Up
-- Installed content packages: one row per package name, the version now
-- installed and who installed it.
CREATE TABLE packages (
    name          TEXT PRIMARY KEY,
    version       TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    author        TEXT NOT NULL DEFAULT '',
    license       TEXT NOT NULL DEFAULT '',
    tags          TEXT NOT NULL DEFAULT '[]',
    compatibility TEXT NOT NULL DEFAULT '',
    builtin       BOOLEAN NOT NULL DEFAULT FALSE,
    signed_by     TEXT NOT NULL DEFAULT '',
    installed_by  TEXT NOT NULL DEFAULT '',
    installed_at  DATETIME NOT NULL,
    updated_at    DATETIME NOT NULL
);

-- What a package installed. content_hash is the item's canonical form as
-- installed, so a later local edit is told from an untouched item.
CREATE TABLE package_items (
    package_name    TEXT NOT NULL REFERENCES packages (name) ON DELETE CASCADE,
    item_type       TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    item_name       TEXT NOT NULL,
    package_version TEXT NOT NULL,
    content_hash    TEXT NOT NULL,
    PRIMARY KEY (item_type, target_id)
);
CREATE INDEX package_items_package_idx ON package_items (package_name);

-- Runbooks and other Markdown articles, searchable by their words.
CREATE TABLE knowledge_articles (
    id             TEXT PRIMARY KEY,
    title          TEXT NOT NULL,
    content        TEXT NOT NULL DEFAULT '',
    tags           TEXT NOT NULL DEFAULT '[]',
    incident_types TEXT NOT NULL DEFAULT '[]',
    package_name   TEXT NOT NULL DEFAULT '',
    created_by     TEXT NOT NULL DEFAULT '',
    updated_by     TEXT NOT NULL DEFAULT '',
    created_at     DATETIME NOT NULL,
    updated_at     DATETIME NOT NULL
);
CREATE UNIQUE INDEX knowledge_articles_title_key ON knowledge_articles (lower(title));

-- The full-text index of the articles, kept in step by triggers. The id
-- column links back; it is not searched.
CREATE VIRTUAL TABLE knowledge_fts USING fts5(id UNINDEXED, title, content, tokenize = 'porter unicode61');

-- +goose StatementBegin
CREATE TRIGGER knowledge_fts_insert AFTER INSERT ON knowledge_articles BEGIN
    INSERT INTO knowledge_fts (id, title, content) VALUES (new.id, new.title, new.content);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER knowledge_fts_update AFTER UPDATE ON knowledge_articles BEGIN
    DELETE FROM knowledge_fts WHERE id = old.id;
    INSERT INTO knowledge_fts (id, title, content) VALUES (new.id, new.title, new.content);
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER knowledge_fts_delete AFTER DELETE ON knowledge_articles BEGIN
    DELETE FROM knowledge_fts WHERE id = old.id;
END;
-- +goose StatementEnd

-- Hunt queries that packages add to the built-in library.
CREATE TABLE package_queries (
    name              TEXT PRIMARY KEY,
    title             TEXT NOT NULL DEFAULT '',
    query_type        TEXT NOT NULL,
    query             TEXT NOT NULL,
    category          TEXT NOT NULL DEFAULT '',
    description       TEXT NOT NULL DEFAULT '',
    parameters        TEXT NOT NULL DEFAULT '[]',
    templates         TEXT NOT NULL DEFAULT '{}',
    expected_baseline REAL NOT NULL DEFAULT 0,
    severity          TEXT NOT NULL DEFAULT '',
    mitre_techniques  TEXT NOT NULL DEFAULT '[]',
    key_fields        TEXT NOT NULL DEFAULT '[]',
    package_name      TEXT NOT NULL DEFAULT '',
    created_at        DATETIME NOT NULL,
    updated_at        DATETIME NOT NULL
);

-- +goose Down
DROP TABLE package_queries;
DROP TRIGGER knowledge_fts_delete;
DROP TRIGGER knowledge_fts_update;
DROP TRIGGER knowledge_fts_insert;
DROP TABLE knowledge_fts;
DROP TABLE knowledge_articles;
DROP TABLE package_items;
DROP TABLE packages;
