-- +goose Up
-- One row per distinct set of givens. Grids are stored in canonical text
-- (81 characters, '.' for a blank) so the file stays readable with the
-- sqlite3 shell; submitted_at is Unix nanoseconds, UTC.
CREATE TABLE puzzles (
    id             INTEGER PRIMARY KEY,
    givens         TEXT    NOT NULL UNIQUE CHECK (length(givens) = 81),
    solution       TEXT    NOT NULL CHECK (length(solution) = 81 AND instr(solution, '.') = 0),
    clues          INTEGER NOT NULL CHECK (clues BETWEEN 1 AND 81),
    solutions      INTEGER NOT NULL CHECK (solutions IN (1, 2)),
    backtracks     INTEGER NOT NULL CHECK (backtracks >= 0),
    guesses        INTEGER NOT NULL CHECK (guesses >= 0),
    nodes          INTEGER NOT NULL CHECK (nodes >= 0),
    solve_ns       INTEGER NOT NULL CHECK (solve_ns >= 0),
    engine_version TEXT    NOT NULL,
    submitted_at   INTEGER NOT NULL,
    submissions    INTEGER NOT NULL DEFAULT 1 CHECK (submissions >= 1)
) STRICT;

-- +goose Down
DROP TABLE puzzles;
