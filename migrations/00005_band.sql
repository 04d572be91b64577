-- +goose Up
-- The difficulty band of each puzzle (sudoku.Bands: 0 easy, 1 medium,
-- 2 hard, 3 fiendish, 4 extreme) as a virtual column computed from
-- backtracks, so the history can filter by band. The thresholds are those of
-- sudoku.Bands; a store test checks that they agree.
ALTER TABLE puzzles ADD COLUMN band INTEGER GENERATED ALWAYS AS
    ((backtracks >= 1) + (backtracks >= 16) + (backtracks >= 64) + (backtracks >= 128)) VIRTUAL;

-- A band is a range of backtracks, so the difficulty and backtracks orders
-- seek inside it on their own indexes. The other orders get one index each
-- with the band in front, so a page of one band in those orders is a seek
-- too, whatever the band's share of the archive. The unique-only filter is
-- checked row by row on these: puzzles with two solutions are rare.
CREATE INDEX puzzles_band_solve_ns  ON puzzles (band, solve_ns);
CREATE INDEX puzzles_band_clues     ON puzzles (band, clues);
CREATE INDEX puzzles_band_submitted ON puzzles (band);

-- +goose Down
DROP INDEX puzzles_band_submitted;
DROP INDEX puzzles_band_clues;
DROP INDEX puzzles_band_solve_ns;
ALTER TABLE puzzles DROP COLUMN band;
