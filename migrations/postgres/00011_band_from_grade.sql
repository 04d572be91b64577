-- +goose Up
-- The band comes from the grade, not from backtracks: see SQLite's 00011.
-- A row without a grade (grade 0) or waiting for one (grade_version NULL)
-- has no band (NULL). PostgreSQL 15 cannot
-- change a generated column's expression, and its generated columns are
-- stored, so the column is dropped and added again: one rewrite of the
-- table, then its band indexes are built anew. The difficulty and
-- backtracks orders are read through band indexes, like the others.
DROP INDEX puzzles_band_grade;
DROP INDEX puzzles_band_submitted;
DROP INDEX puzzles_band_clues;
DROP INDEX puzzles_band_solve_ns;
DROP INDEX puzzles_backtracks;
DROP INDEX puzzles_difficulty;
ALTER TABLE puzzles DROP COLUMN band;
ALTER TABLE puzzles ADD COLUMN band BIGINT GENERATED ALWAYS AS
    (CASE WHEN grade > 0 AND grade_version IS NOT NULL THEN (grade > 20)::int + (grade > 34)::int + (grade > 46)::int + (grade > 66)::int END) STORED;
CREATE INDEX puzzles_band_difficulty ON puzzles (band, backtracks, solve_ns, id);
CREATE INDEX puzzles_band_backtracks ON puzzles (band, backtracks, id);
CREATE INDEX puzzles_band_solve_ns   ON puzzles (band, solve_ns, id);
CREATE INDEX puzzles_band_clues      ON puzzles (band, clues, id);
CREATE INDEX puzzles_band_submitted  ON puzzles (band, id);
CREATE INDEX puzzles_band_grade      ON puzzles (band, grade, id);

-- +goose Down
DROP INDEX puzzles_band_grade;
DROP INDEX puzzles_band_submitted;
DROP INDEX puzzles_band_clues;
DROP INDEX puzzles_band_solve_ns;
DROP INDEX puzzles_band_backtracks;
DROP INDEX puzzles_band_difficulty;
ALTER TABLE puzzles DROP COLUMN band;
ALTER TABLE puzzles ADD COLUMN band BIGINT GENERATED ALWAYS AS
    ((backtracks >= 1)::int + (backtracks >= 16)::int + (backtracks >= 64)::int + (backtracks >= 128)::int) STORED;
CREATE INDEX puzzles_difficulty     ON puzzles (backtracks, solve_ns, id);
CREATE INDEX puzzles_backtracks     ON puzzles (backtracks, id);
CREATE INDEX puzzles_band_solve_ns  ON puzzles (band, solve_ns, id);
CREATE INDEX puzzles_band_clues     ON puzzles (band, clues, id);
CREATE INDEX puzzles_band_submitted ON puzzles (band, id);
CREATE INDEX puzzles_band_grade     ON puzzles (band, grade, id);
