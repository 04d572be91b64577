-- +goose Up
-- The band comes from the grade, not from backtracks (sudoku.Bands, in
-- tenths of a grade: 0 easy up to 2.0, 1 medium to 3.4, 2 hard to 4.6,
-- 3 fiendish to 6.6, 4 extreme above), so that the word a person reads says
-- how hard the puzzle is for a person. A row without a grade (several
-- solutions: grade 0) or waiting for one (grade_version NULL, also when a
-- new solver version grades the archive again and the old grade is still
-- there) has no band: NULL, so the bands hold exactly the rows that
-- grade_counts counts. Whoever writes a grade moves the band with it,
-- since the column is computed.
-- A store test checks that the expression agrees with sudoku.BandOf.
--
-- SQLite cannot change a generated column's expression, but a VIRTUAL
-- column holds nothing on disk: it is dropped and added again, which
-- rewrites no row (only the schema), and its indexes are built anew.
--
-- A band is no longer a range of backtracks, so the difficulty and
-- backtracks orders get band indexes too, in place of their own: like the
-- solve-time, clue and grade orders since 00006, the whole archive in
-- those orders is read as the bands merged (the rows without a band one arm
-- more), and a page of one band is a seek. As many indexes as before.
DROP INDEX puzzles_band_grade;
DROP INDEX puzzles_band_submitted;
DROP INDEX puzzles_band_clues;
DROP INDEX puzzles_band_solve_ns;
DROP INDEX puzzles_backtracks;
DROP INDEX puzzles_difficulty;
ALTER TABLE puzzles DROP COLUMN band;
ALTER TABLE puzzles ADD COLUMN band INTEGER GENERATED ALWAYS AS
    (CASE WHEN grade > 0 AND grade_version IS NOT NULL THEN (grade > 20) + (grade > 34) + (grade > 46) + (grade > 66) END) VIRTUAL;
CREATE INDEX puzzles_band_difficulty ON puzzles (band, backtracks, solve_ns);
CREATE INDEX puzzles_band_backtracks ON puzzles (band, backtracks);
CREATE INDEX puzzles_band_solve_ns   ON puzzles (band, solve_ns);
CREATE INDEX puzzles_band_clues      ON puzzles (band, clues);
CREATE INDEX puzzles_band_submitted  ON puzzles (band);
CREATE INDEX puzzles_band_grade      ON puzzles (band, grade);

-- +goose Down
DROP INDEX puzzles_band_grade;
DROP INDEX puzzles_band_submitted;
DROP INDEX puzzles_band_clues;
DROP INDEX puzzles_band_solve_ns;
DROP INDEX puzzles_band_backtracks;
DROP INDEX puzzles_band_difficulty;
ALTER TABLE puzzles DROP COLUMN band;
ALTER TABLE puzzles ADD COLUMN band INTEGER GENERATED ALWAYS AS
    ((backtracks >= 1) + (backtracks >= 16) + (backtracks >= 64) + (backtracks >= 128)) VIRTUAL;
CREATE INDEX puzzles_difficulty     ON puzzles (backtracks, solve_ns);
CREATE INDEX puzzles_backtracks     ON puzzles (backtracks);
CREATE INDEX puzzles_band_solve_ns  ON puzzles (band, solve_ns);
CREATE INDEX puzzles_band_clues     ON puzzles (band, clues);
CREATE INDEX puzzles_band_submitted ON puzzles (band);
CREATE INDEX puzzles_band_grade     ON puzzles (band, grade);
