-- +goose Up
-- Collections with their setters' credit and provenance (docs/api.md
-- "Collections"), and who submitted a puzzle.
--
-- A collection has a name, unique whatever its case, and its credits:
-- description, author, source and licence (free text, '' when not given).
-- owner_id is the account that made it (NULL for one made by `sudoku
-- import --collection`, or once the account is deleted): the owner, a
-- moderator or an admin may add puzzles to it. How many puzzles it holds
-- is counted from collection_puzzles (a range of its primary key), so no
-- counter can drift when a puzzle is deleted.
CREATE TABLE collections (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    description TEXT    NOT NULL DEFAULT '',
    author      TEXT    NOT NULL DEFAULT '',
    source      TEXT    NOT NULL DEFAULT '',
    licence     TEXT    NOT NULL DEFAULT '',
    owner_id    INTEGER REFERENCES players (id) ON DELETE SET NULL,
    created_at  INTEGER NOT NULL
) STRICT;
CREATE UNIQUE INDEX collections_name ON collections (lower(name));
CREATE INDEX collections_owner ON collections (owner_id);

-- A puzzle in a collection, once (added_at: unix nanoseconds). The
-- puzzle's side of the key is indexed for the puzzle object's
-- collections and for the collection filter of a listing.
CREATE TABLE collection_puzzles (
    collection_id INTEGER NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    puzzle_id     INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    added_at      INTEGER NOT NULL,
    PRIMARY KEY (collection_id, puzzle_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX collection_puzzles_puzzle ON collection_puzzles (puzzle_id, collection_id);

-- submitted_by: the account whose submission archived the puzzle (NULL
-- when anonymous, imported, or once the account is deleted). Adding a
-- column with a NULL default rewrites nothing. It is no foreign key
-- (SQLite cannot drop a column that is one, which the Down needs):
-- DeletePlayer clears it, through the index.
ALTER TABLE puzzles ADD COLUMN submitted_by INTEGER;
CREATE INDEX puzzles_submitted_by ON puzzles (submitted_by) WHERE submitted_by IS NOT NULL;

-- +goose Down
DROP INDEX puzzles_submitted_by;
ALTER TABLE puzzles DROP COLUMN submitted_by;
DROP TABLE collection_puzzles;
DROP TABLE collections;
