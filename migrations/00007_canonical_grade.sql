-- +goose Up
-- Engine version 2: the measures belong to the puzzle, not to the way it is
-- written, and a human-style grade stands beside them. (Engine 2's bands
-- keep engine 1's thresholds, so the band column stays as it is.)
--
-- canonical, canonical_key: the puzzle's canonical form (sudoku.Canonical),
--   the same for every way of writing it, as text and as its compact key
--   (sudoku.Grid.Key). NULL until the row is measured by engine 2: the store
--   re-measures older rows on start-up (store.DB.Upgrade).
-- same_as: the id of the first archived puzzle of the same class, NULL for
--   the first one: the store links new rows to their class in the
--   transaction that writes them.
-- classes: one row per class, its canonical key and its first puzzle, so a
--   class is found in one seek of its primary key.
-- grade, grade_floor, technique, grade_version: the logical solver's grade
--   in tenths of Sudoku Explainer's scale (72 for 7.2), 0 for none (several
--   solutions, or not graded yet); grade_version names the solver that
--   graded the row, NULL until it has been graded.
ALTER TABLE puzzles ADD COLUMN canonical TEXT;
ALTER TABLE puzzles ADD COLUMN canonical_key BLOB;
ALTER TABLE puzzles ADD COLUMN same_as INTEGER;
ALTER TABLE puzzles ADD COLUMN grade INTEGER NOT NULL DEFAULT 0 CHECK (grade >= 0);
ALTER TABLE puzzles ADD COLUMN grade_floor INTEGER NOT NULL DEFAULT 0 CHECK (grade_floor IN (0, 1));
ALTER TABLE puzzles ADD COLUMN technique TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN grade_version TEXT;

CREATE TABLE classes (
    canonical_key BLOB    PRIMARY KEY,
    first_id      INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

-- Distinct puzzles (classes; those with one solution) beside entries, and
-- per backtracks bucket the first entries of the classes with one solution,
-- so a listing of one band, one row per puzzle, knows its total.
ALTER TABLE counts ADD COLUMN classes INTEGER NOT NULL DEFAULT 0 CHECK (classes >= 0);
ALTER TABLE counts ADD COLUMN uniq_classes INTEGER NOT NULL DEFAULT 0 CHECK (uniq_classes >= 0);
ALTER TABLE stat_buckets ADD COLUMN heads INTEGER NOT NULL DEFAULT 0;

-- How many entries have each grade and hardest technique, for the stats
-- page. The store counts the rows it inserts graded; these triggers count
-- the grades given or withdrawn later, and rows removed by hand.
CREATE TABLE grade_counts (
    grade     INTEGER NOT NULL,
    technique TEXT    NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (grade, technique)
) STRICT, WITHOUT ROWID;

-- +goose StatementBegin
CREATE TRIGGER puzzles_grade_update AFTER UPDATE OF grade_version ON puzzles BEGIN
    UPDATE grade_counts SET n = n - 1
    WHERE OLD.grade_version IS NOT NULL AND grade = OLD.grade AND technique = OLD.technique;
    INSERT INTO grade_counts (grade, technique, n)
    SELECT NEW.grade, NEW.technique, 1 WHERE NEW.grade_version IS NOT NULL
    ON CONFLICT (grade, technique) DO UPDATE SET n = n + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_grade_delete AFTER DELETE ON puzzles WHEN OLD.grade_version IS NOT NULL BEGIN
    UPDATE grade_counts SET n = n - 1 WHERE grade = OLD.grade AND technique = OLD.technique;
END;
-- +goose StatementEnd

-- The other entries of a class, and the rows waiting for a grade.
CREATE INDEX puzzles_same_as ON puzzles (same_as) WHERE same_as IS NOT NULL;
CREATE INDEX puzzles_pending ON puzzles (id) WHERE grade_version IS NULL;

-- The grade order, like solve time and clues: read whole as the five bands
-- merged, one band as a seek.
CREATE INDEX puzzles_band_grade     ON puzzles (band, grade);

-- +goose Down
DROP INDEX puzzles_band_grade;
DROP INDEX puzzles_pending;
DROP TRIGGER puzzles_grade_delete;
DROP TRIGGER puzzles_grade_update;
DROP TABLE grade_counts;
DROP INDEX puzzles_same_as;
ALTER TABLE stat_buckets DROP COLUMN heads;
ALTER TABLE counts DROP COLUMN uniq_classes;
ALTER TABLE counts DROP COLUMN classes;
DROP TABLE classes;
ALTER TABLE puzzles DROP COLUMN grade_version;
ALTER TABLE puzzles DROP COLUMN technique;
ALTER TABLE puzzles DROP COLUMN grade_floor;
ALTER TABLE puzzles DROP COLUMN grade;
ALTER TABLE puzzles DROP COLUMN same_as;
ALTER TABLE puzzles DROP COLUMN canonical_key;
ALTER TABLE puzzles DROP COLUMN canonical;
-- Rows measured by engine 2 keep its measures; `sudoku` of the older
-- version reads them as they are.
