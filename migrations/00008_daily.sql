-- +goose Up
-- The puzzle of the day, kept: the first server to make a date's puzzle
-- records it here, so the date shows the same puzzle to everyone for good
-- (a later generator version cannot change a date already served), and the
-- unique class key means no puzzle, however written, is the puzzle of two
-- days.
CREATE TABLE daily (
    date          TEXT    PRIMARY KEY CHECK (length(date) = 10),
    puzzle_id     INTEGER NOT NULL REFERENCES puzzles (id),
    canonical_key BLOB    NOT NULL UNIQUE
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE daily;
