-- +goose Up
-- One index per sort order of the contract, so that every order pages by
-- keyset in both directions without a sort step. SQLite appends the rowid
-- (id) to every index key, which makes each order total with id as the last
-- tie-break: (backtracks, solve_ns, id), (backtracks, id), (solve_ns, id),
-- (clues, id). The submitted order is id order, the table itself.
CREATE INDEX puzzles_difficulty ON puzzles (backtracks, solve_ns);
CREATE INDEX puzzles_backtracks ON puzzles (backtracks);
CREATE INDEX puzzles_solve_ns   ON puzzles (solve_ns);
CREATE INDEX puzzles_clues      ON puzzles (clues);

-- The same orders restricted to puzzles with exactly one solution, for the
-- unique-only filter: partial indexes, so a page of unique puzzles never
-- walks past rows it then throws away.
CREATE INDEX puzzles_unique_difficulty ON puzzles (backtracks, solve_ns) WHERE solutions = 1;
CREATE INDEX puzzles_unique_backtracks ON puzzles (backtracks) WHERE solutions = 1;
CREATE INDEX puzzles_unique_solve_ns   ON puzzles (solve_ns) WHERE solutions = 1;
CREATE INDEX puzzles_unique_clues      ON puzzles (clues) WHERE solutions = 1;
CREATE INDEX puzzles_unique_submitted  ON puzzles (id) WHERE solutions = 1;

-- +goose Down
DROP INDEX puzzles_unique_submitted;
DROP INDEX puzzles_unique_clues;
DROP INDEX puzzles_unique_solve_ns;
DROP INDEX puzzles_unique_backtracks;
DROP INDEX puzzles_unique_difficulty;
DROP INDEX puzzles_clues;
DROP INDEX puzzles_solve_ns;
DROP INDEX puzzles_backtracks;
DROP INDEX puzzles_difficulty;
