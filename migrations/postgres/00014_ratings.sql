-- +goose Up
-- Difficulty measured from the players: the same change as SQLite's
-- migration 00014, whose comments explain it (BIGINT for INTEGER, BYTEA
-- for BLOB, DOUBLE PRECISION for REAL).
CREATE TABLE class_ratings (
    class_key  BYTEA   PRIMARY KEY,
    plays      BIGINT  NOT NULL DEFAULT 0 CHECK (plays >= 0),
    solves     BIGINT  NOT NULL DEFAULT 0 CHECK (solves >= 0),
    difficulty DOUBLE PRECISION NOT NULL,
    weight     DOUBLE PRECISION NOT NULL,
    prior      DOUBLE PRECISION NOT NULL
);

ALTER TABLE puzzles ADD COLUMN plays          BIGINT NOT NULL DEFAULT 0 CHECK (plays >= 0),
                    ADD COLUMN solves         BIGINT NOT NULL DEFAULT 0 CHECK (solves >= 0),
                    ADD COLUMN median_seconds BIGINT NOT NULL DEFAULT 0 CHECK (median_seconds >= 0),
                    ADD COLUMN player_seconds BIGINT NOT NULL DEFAULT 0 CHECK (player_seconds >= 0);
CREATE INDEX puzzles_band_player_seconds ON puzzles (band, player_seconds);

ALTER TABLE players ADD COLUMN rated BIGINT NOT NULL DEFAULT 0 CHECK (rated >= 0);

ALTER TABLE attempts ADD COLUMN counted  BIGINT NOT NULL DEFAULT 0 CHECK (counted IN (0, 1)),
                     ADD COLUMN practice BIGINT NOT NULL DEFAULT 0 CHECK (practice IN (0, 1));
CREATE INDEX attempts_counted_solves ON attempts (class_key, seconds) WHERE counted = 1 AND outcome = 'solved';

-- +goose Down
DROP INDEX attempts_counted_solves;
ALTER TABLE attempts DROP COLUMN practice, DROP COLUMN counted;
ALTER TABLE players DROP COLUMN rated;
DROP INDEX puzzles_band_player_seconds;
ALTER TABLE puzzles DROP COLUMN player_seconds, DROP COLUMN median_seconds, DROP COLUMN solves, DROP COLUMN plays;
DROP TABLE class_ratings;
