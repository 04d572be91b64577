-- +goose Up
-- The servers using the archive: see the SQLite migration of the same
-- number.
CREATE TABLE servers (
    id             TEXT   PRIMARY KEY,
    host           TEXT   NOT NULL,
    pid            BIGINT NOT NULL,
    version        TEXT   NOT NULL,
    commit_id      TEXT   NOT NULL,
    schema_version BIGINT NOT NULL,
    started_at     BIGINT NOT NULL,
    seen_at        BIGINT NOT NULL
);

-- +goose Down
DROP TABLE servers;
