-- +goose Up
-- The players' figures of a puzzle (migration 00014) but player_seconds
-- move out of the wide puzzles row into a narrow table of their own, so
-- that a finish, which rewrites them, rewrites a short row with one index
-- (on PostgreSQL an in-place, HOT update) instead of the puzzle's row and
-- every index of puzzles. player_seconds stays on puzzles: the
-- player_time and human orders page on it (puzzles_band_player_seconds,
-- puzzles_band_human), and it changes only once a class has
-- ratings.MinPlays plays.
--
-- A row exists only for a puzzle with plays (no row reads as 0, 0, 0):
-- plays counts the players' counted first attempts at the puzzle's class,
-- solves those solved, median_seconds the median seconds of the counted
-- solves (0 for none). The store deletes a puzzle's row with the puzzle.
CREATE TABLE puzzle_figures (
    puzzle_id      INTEGER PRIMARY KEY,
    plays          INTEGER NOT NULL CHECK (plays > 0),
    solves         INTEGER NOT NULL CHECK (solves >= 0),
    median_seconds INTEGER NOT NULL CHECK (median_seconds >= 0)
) STRICT;
INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
SELECT id, plays, solves, median_seconds FROM puzzles WHERE plays > 0;
ALTER TABLE puzzles DROP COLUMN plays;
ALTER TABLE puzzles DROP COLUMN solves;
ALTER TABLE puzzles DROP COLUMN median_seconds;

-- +goose Down
ALTER TABLE puzzles ADD COLUMN plays          INTEGER NOT NULL DEFAULT 0 CHECK (plays >= 0);
ALTER TABLE puzzles ADD COLUMN solves         INTEGER NOT NULL DEFAULT 0 CHECK (solves >= 0);
ALTER TABLE puzzles ADD COLUMN median_seconds INTEGER NOT NULL DEFAULT 0 CHECK (median_seconds >= 0);
UPDATE puzzles SET plays = f.plays, solves = f.solves, median_seconds = f.median_seconds
FROM puzzle_figures AS f WHERE f.puzzle_id = puzzles.id;
DROP TABLE puzzle_figures;
