-- +goose Up
-- A collection's id is never given again (issue 45): a deleted
-- collection's address (/collections/{id}) went to the next new one, as
-- an INTEGER PRIMARY KEY without AUTOINCREMENT takes the largest id + 1,
-- so old links opened another collection. AUTOINCREMENT keeps the
-- largest id ever used in sqlite_sequence. SQLite cannot add it to a
-- table, so collections is made again, and collection_puzzles with it:
-- dropping collections while collection_puzzles referred to it would
-- delete their rows (foreign keys are on: an implicit DELETE, ON DELETE
-- CASCADE). The new tables are filled, the old ones dropped (the child
-- first), and the new ones renamed, which rewrites the child's reference
-- to the new name. The ids of collections deleted before this migration,
-- larger than every id left, are read back from the audit trail
-- ("collection 12 ..." of each collection_delete), so they are never
-- given again either. PostgreSQL's identity never gave an id twice (its
-- 00023 changes nothing).
CREATE TABLE collections_new (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    name        TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    author      TEXT    NOT NULL DEFAULT '',
    source      TEXT    NOT NULL DEFAULT '',
    licence     TEXT    NOT NULL DEFAULT '',
    owner_id    INTEGER REFERENCES players (id) ON DELETE SET NULL,
    created_at  INTEGER NOT NULL,
    name_key    TEXT
) STRICT;
INSERT INTO collections_new (id, name, description, author, source, licence, owner_id, created_at, name_key)
    SELECT id, name, description, author, source, licence, owner_id, created_at, name_key FROM collections;
CREATE TABLE collection_puzzles_new (
    collection_id INTEGER NOT NULL REFERENCES collections_new (id) ON DELETE CASCADE,
    puzzle_id     INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    added_at      INTEGER NOT NULL,
    PRIMARY KEY (collection_id, puzzle_id)
) STRICT, WITHOUT ROWID;
INSERT INTO collection_puzzles_new (collection_id, puzzle_id, added_at)
    SELECT collection_id, puzzle_id, added_at FROM collection_puzzles;
DROP TABLE collection_puzzles;
DROP TABLE collections;
ALTER TABLE collections_new RENAME TO collections;
ALTER TABLE collection_puzzles_new RENAME TO collection_puzzles;
CREATE UNIQUE INDEX collections_name_key ON collections (name_key) WHERE name_key IS NOT NULL;
CREATE INDEX collections_owner ON collections (owner_id);
CREATE INDEX collection_puzzles_puzzle ON collection_puzzles (puzzle_id, collection_id);
-- The largest id ever used: the table's, or a deleted one's from the
-- audit trail. sqlite_sequence has a row for the table only once a row
-- was inserted into it (the copy above, if any).
DELETE FROM sqlite_sequence WHERE name = 'collections';
INSERT INTO sqlite_sequence (name, seq) SELECT 'collections', max(coalesce((SELECT max(id) FROM collections), 0), coalesce((
    SELECT max(CAST(substr(detail, 12, instr(substr(detail, 12), ' ') - 1) AS INTEGER)) FROM audit
    WHERE action = 'collection_delete' AND detail LIKE 'collection %'), 0));

-- +goose Down
CREATE TABLE collections_old (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    author      TEXT    NOT NULL DEFAULT '',
    source      TEXT    NOT NULL DEFAULT '',
    licence     TEXT    NOT NULL DEFAULT '',
    owner_id    INTEGER REFERENCES players (id) ON DELETE SET NULL,
    created_at  INTEGER NOT NULL,
    name_key    TEXT
) STRICT;
INSERT INTO collections_old SELECT id, name, description, author, source, licence, owner_id, created_at, name_key FROM collections;
CREATE TABLE collection_puzzles_old (
    collection_id INTEGER NOT NULL REFERENCES collections_old (id) ON DELETE CASCADE,
    puzzle_id     INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    added_at      INTEGER NOT NULL,
    PRIMARY KEY (collection_id, puzzle_id)
) STRICT, WITHOUT ROWID;
INSERT INTO collection_puzzles_old SELECT collection_id, puzzle_id, added_at FROM collection_puzzles;
DROP TABLE collection_puzzles;
DROP TABLE collections;
ALTER TABLE collections_old RENAME TO collections;
ALTER TABLE collection_puzzles_old RENAME TO collection_puzzles;
CREATE UNIQUE INDEX collections_name_key ON collections (name_key) WHERE name_key IS NOT NULL;
CREATE INDEX collections_owner ON collections (owner_id);
CREATE INDEX collection_puzzles_puzzle ON collection_puzzles (puzzle_id, collection_id);
