-- +goose Up
-- Search by technique (docs/api.md, technique=):
-- the techniques of each puzzle's logical path (puzzles.techniques, '|'
-- joined, migration 00010) as rows of an indexed table, so that
-- technique=NAME is an index seek, and their counts.
--
-- technique_names numbers the names a path has used (a row per technique
-- ever met, added as they come). puzzle_techniques holds a row per puzzle
-- and technique of its path: hardest is 1 for the puzzle's hardest
-- technique (puzzles.technique), grade is the puzzle's grade in tenths, so
-- that the practice list of a technique (puzzles where it is the hardest,
-- easiest first) is a seek on puzzle_techniques_practice.
-- technique_counts counts the puzzles of each technique, in the shards of
-- migration 00012 (SQLite keeps one, 1).
--
-- The triggers keep all three as the puzzles' grades are written, whoever
-- writes them (the graders, an upgrade, a copy, a reset): an insert with
-- techniques, any update that sets techniques, technique, grade or
-- grade_version, a delete. Only graded rows are indexed: a row whose grade
-- is reset (an engine upgrade) leaves the index, and its grade_counts row,
-- until it is graded again. The rows already graded when this migration runs are indexed by
-- the store after it (store.DB.IndexTechniques, with progress, resumable):
-- settings' technique_backfill holds the highest id not indexed yet, and
-- goes when the pass is over.
CREATE TABLE technique_names (
    id   INTEGER PRIMARY KEY,
    name TEXT    NOT NULL UNIQUE
) STRICT;

CREATE TABLE puzzle_techniques (
    technique INTEGER NOT NULL,
    puzzle_id INTEGER NOT NULL,
    hardest   INTEGER NOT NULL,
    grade     INTEGER NOT NULL,
    PRIMARY KEY (technique, puzzle_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX puzzle_techniques_puzzle ON puzzle_techniques (puzzle_id);
CREATE INDEX puzzle_techniques_practice ON puzzle_techniques (technique, grade, puzzle_id) WHERE hardest = 1;

CREATE TABLE technique_counts (
    technique INTEGER NOT NULL,
    shard     INTEGER NOT NULL DEFAULT 1,
    n         INTEGER NOT NULL,
    PRIMARY KEY (technique, shard)
) STRICT, WITHOUT ROWID;

-- The names of a row's techniques, as rows of json_each: the names hold no
-- '"' or '\' (they are the logic package's).
-- +goose StatementBegin
CREATE TRIGGER puzzle_techniques_insert AFTER INSERT ON puzzles WHEN NEW.techniques <> '' AND NEW.grade_version IS NOT NULL BEGIN
    INSERT INTO technique_names (name)
    SELECT value FROM json_each('["' || replace(NEW.techniques, '|', '","') || '"]') WHERE true
    ON CONFLICT (name) DO NOTHING;
    INSERT INTO puzzle_techniques (technique, puzzle_id, hardest, grade)
    SELECT id, NEW.id, name = NEW.technique, NEW.grade FROM technique_names
    WHERE name IN (SELECT value FROM json_each('["' || replace(NEW.techniques, '|', '","') || '"]'));
    INSERT INTO technique_counts (technique, shard, n)
    SELECT id, 1, 1 FROM technique_names
    WHERE NEW.hidden = 0 AND name IN (SELECT value FROM json_each('["' || replace(NEW.techniques, '|', '","') || '"]'))
    ON CONFLICT (technique, shard) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzle_techniques_update AFTER UPDATE OF techniques, technique, grade, grade_version ON puzzles BEGIN
    UPDATE technique_counts SET n = n - 1
    WHERE OLD.hidden = 0 AND shard = 1 AND technique IN (SELECT technique FROM puzzle_techniques WHERE puzzle_id = OLD.id);
    DELETE FROM puzzle_techniques WHERE puzzle_id = OLD.id;
    INSERT INTO technique_names (name)
    SELECT value FROM json_each('["' || replace(NEW.techniques, '|', '","') || '"]') WHERE NEW.techniques <> '' AND NEW.grade_version IS NOT NULL
    ON CONFLICT (name) DO NOTHING;
    INSERT INTO puzzle_techniques (technique, puzzle_id, hardest, grade)
    SELECT id, NEW.id, name = NEW.technique, NEW.grade FROM technique_names
    WHERE NEW.techniques <> '' AND NEW.grade_version IS NOT NULL AND name IN (SELECT value FROM json_each('["' || replace(NEW.techniques, '|', '","') || '"]'));
    INSERT INTO technique_counts (technique, shard, n)
    SELECT id, 1, 1 FROM technique_names
    WHERE NEW.hidden = 0 AND NEW.techniques <> '' AND NEW.grade_version IS NOT NULL AND name IN (SELECT value FROM json_each('["' || replace(NEW.techniques, '|', '","') || '"]'))
    ON CONFLICT (technique, shard) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzle_techniques_delete AFTER DELETE ON puzzles BEGIN
    UPDATE technique_counts SET n = n - 1
    WHERE OLD.hidden = 0 AND shard = 1 AND technique IN (SELECT technique FROM puzzle_techniques WHERE puzzle_id = OLD.id);
    DELETE FROM puzzle_techniques WHERE puzzle_id = OLD.id;
END;
-- +goose StatementEnd

-- A hidden puzzle (migration 00015) keeps its rows in puzzle_techniques
-- but is not counted, like every other count of the archive: hiding takes
-- its techniques out of technique_counts, restoring puts them back, and the
-- triggers above count only rows not hidden. (Hide and Restore update
-- hidden alone, never with the grade columns.)
-- +goose StatementBegin
CREATE TRIGGER puzzle_techniques_hide AFTER UPDATE OF hidden ON puzzles WHEN NEW.hidden <> OLD.hidden BEGIN
    UPDATE technique_counts SET n = n + CASE WHEN NEW.hidden = 0 THEN 1 ELSE -1 END
    WHERE shard = 1 AND technique IN (SELECT technique FROM puzzle_techniques WHERE puzzle_id = NEW.id);
END;
-- +goose StatementEnd

INSERT INTO settings (name, value)
SELECT 'technique_backfill', CAST(CAST(max(id) AS TEXT) AS BLOB) FROM puzzles WHERE techniques <> '' AND grade_version IS NOT NULL HAVING count(*) > 0;

-- +goose Down
DELETE FROM settings WHERE name = 'technique_backfill';
DROP TRIGGER puzzle_techniques_hide;
DROP TRIGGER puzzle_techniques_delete;
DROP TRIGGER puzzle_techniques_update;
DROP TRIGGER puzzle_techniques_insert;
DROP TABLE technique_counts;
DROP TABLE puzzle_techniques;
DROP TABLE technique_names;
