-- +goose Up
-- One index per sort order of docs/api.md, so that every order pages by
-- keyset in both directions without a sort step. SQLite appends the rowid
-- (id) to every index key, which makes each order total with id as the last
-- tie-break: (backtracks, solve_ns, id), (backtracks, id), (solve_ns, id),
-- (clues, id). The submitted order is id order, the table itself.
CREATE INDEX puzzles_difficulty ON puzzles (backtracks, solve_ns);
CREATE INDEX puzzles_backtracks ON puzzles (backtracks);
CREATE INDEX puzzles_solve_ns   ON puzzles (solve_ns);
CREATE INDEX puzzles_clues      ON puzzles (clues);

-- +goose Down
DROP INDEX puzzles_clues;
DROP INDEX puzzles_solve_ns;
DROP INDEX puzzles_backtracks;
DROP INDEX puzzles_difficulty;
