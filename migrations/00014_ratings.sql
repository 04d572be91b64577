-- +goose Up
-- Difficulty measured from the players (the model is docs/ratings.md and
-- package ratings).
--
-- class_ratings: the model's state of one class (every way of writing a
--   puzzle: the canonical key, or the givens key of a puzzle without one,
--   as attempts.class_key), made at the class's first counted attempt.
--   difficulty is b, the log of the seconds a typical player needs; weight
--   is how many observations b is worth (the prior's and the counted
--   attempts', each shrunk by its clamp); prior is b's prior (from the
--   grade). plays and solves count the counted attempts and those solved.
--   A finish reads and writes its class's row in its own transaction (on
--   PostgreSQL SELECT ... FOR UPDATE), so the finishes of one class take
--   turns and none is lost.
CREATE TABLE class_ratings (
    class_key  BLOB    PRIMARY KEY,
    plays      INTEGER NOT NULL DEFAULT 0 CHECK (plays >= 0),
    solves     INTEGER NOT NULL DEFAULT 0 CHECK (solves >= 0),
    difficulty REAL    NOT NULL,
    weight     REAL    NOT NULL,
    prior      REAL    NOT NULL
) STRICT, WITHOUT ROWID;

-- The figures every puzzle of a class shows, copied from its class (0 for
-- none): plays, solves (solve_rate = solves / plays), the median seconds of
-- the counted solves, and player_seconds, round(exp(difficulty)) once the
-- class has ratings.MinPlays plays. The player_time order walks
-- puzzles_band_player_seconds (merged over the bands like the other
-- orders), the puzzles with player_seconds 0 after the others.
ALTER TABLE puzzles ADD COLUMN plays          INTEGER NOT NULL DEFAULT 0 CHECK (plays >= 0);
ALTER TABLE puzzles ADD COLUMN solves         INTEGER NOT NULL DEFAULT 0 CHECK (solves >= 0);
ALTER TABLE puzzles ADD COLUMN median_seconds INTEGER NOT NULL DEFAULT 0 CHECK (median_seconds >= 0);
ALTER TABLE puzzles ADD COLUMN player_seconds INTEGER NOT NULL DEFAULT 0 CHECK (player_seconds >= 0);
CREATE INDEX puzzles_band_player_seconds ON puzzles (band, player_seconds);

-- The player's side of the model: players.skill is exp(a), a the player's
-- ability (log of how much faster than a typical player); rated counts the
-- player's counted attempts (how much a is worth).
ALTER TABLE players ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated >= 0);

-- counted: the attempt moved the figures (the player's first finished
-- attempt at the class, not in practice). practice: played in a practice
-- mode whose hints name the technique; such attempts are recorded but not
-- counted (ratings.PracticeWeight). The median of a class's counted solves
-- is a walk of attempts_counted_solves.
ALTER TABLE attempts ADD COLUMN counted  INTEGER NOT NULL DEFAULT 0 CHECK (counted IN (0, 1));
ALTER TABLE attempts ADD COLUMN practice INTEGER NOT NULL DEFAULT 0 CHECK (practice IN (0, 1));
CREATE INDEX attempts_counted_solves ON attempts (class_key, seconds) WHERE counted = 1 AND outcome = 'solved';

-- +goose Down
DROP INDEX attempts_counted_solves;
ALTER TABLE attempts DROP COLUMN practice;
ALTER TABLE attempts DROP COLUMN counted;
ALTER TABLE players DROP COLUMN rated;
DROP INDEX puzzles_band_player_seconds;
ALTER TABLE puzzles DROP COLUMN player_seconds;
ALTER TABLE puzzles DROP COLUMN median_seconds;
ALTER TABLE puzzles DROP COLUMN solves;
ALTER TABLE puzzles DROP COLUMN plays;
DROP TABLE class_ratings;
