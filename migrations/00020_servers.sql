-- +goose Up
-- The servers using the archive (docs/operations.md, "Upgrades"): each
-- `sudoku serve` registers itself at start-up, refreshes seen_at every
-- heartbeat (15 s) and removes its row when it stops. A newer binary that
-- has migrations to apply refuses to while a server of an older schema
-- (schema_version, the newest migration its binary carries) was seen
-- within the last minute, and names it. id is the server's
-- application_name (sudoku/<version>/s<schema>/<host>:<pid>); started_at
-- and seen_at are unix seconds.
CREATE TABLE servers (
    id             TEXT    PRIMARY KEY,
    host           TEXT    NOT NULL,
    pid            INTEGER NOT NULL,
    version        TEXT    NOT NULL,
    commit_id      TEXT    NOT NULL,
    schema_version INTEGER NOT NULL,
    started_at     INTEGER NOT NULL,
    seen_at        INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE servers;
