-- +goose Up
-- Installed content packages: one row per package name, the version now
-- installed and who installed it.
CREATE TABLE packages (
    name          TEXT PRIMARY KEY,
    version       TEXT NOT NULL,
    description   TEXT NOT NULL DEFAULT '',
    author        TEXT NOT NULL DEFAULT '',
    license       TEXT NOT NULL DEFAULT '',
    tags          JSONB NOT NULL DEFAULT '[]',
    compatibility TEXT NOT NULL DEFAULT '',
    builtin       BOOLEAN NOT NULL DEFAULT FALSE,
    signed_by     TEXT NOT NULL DEFAULT '',
    installed_by  TEXT NOT NULL DEFAULT '',
    installed_at  TIMESTAMPTZ NOT NULL,
    updated_at    TIMESTAMPTZ NOT NULL
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
    tags           JSONB NOT NULL DEFAULT '[]',
    incident_types JSONB NOT NULL DEFAULT '[]',
    package_name   TEXT NOT NULL DEFAULT '',
    created_by     TEXT NOT NULL DEFAULT '',
    updated_by     TEXT NOT NULL DEFAULT '',
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL,
    -- Title words weigh more than body words in the ranking.
    search_vector  TSVECTOR GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', content), 'B')
    ) STORED
);
CREATE UNIQUE INDEX knowledge_articles_title_key ON knowledge_articles (lower(title));
CREATE INDEX knowledge_articles_search_idx ON knowledge_articles USING GIN (search_vector);

-- Hunt queries that packages add to the built-in library.
CREATE TABLE package_queries (
    name              TEXT PRIMARY KEY,
    title             TEXT NOT NULL DEFAULT '',
    query_type        TEXT NOT NULL,
    query             TEXT NOT NULL,
    category          TEXT NOT NULL DEFAULT '',
    description       TEXT NOT NULL DEFAULT '',
    parameters        JSONB NOT NULL DEFAULT '[]',
    templates         JSONB NOT NULL DEFAULT '{}',
    expected_baseline DOUBLE PRECISION NOT NULL DEFAULT 0,
    severity          TEXT NOT NULL DEFAULT '',
    mitre_techniques  JSONB NOT NULL DEFAULT '[]',
    key_fields        JSONB NOT NULL DEFAULT '[]',
    package_name      TEXT NOT NULL DEFAULT '',
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL
);

-- +goose Down
DROP TABLE package_queries;
DROP TABLE knowledge_articles;
DROP TABLE package_items;
DROP TABLE packages;
