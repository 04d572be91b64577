-- +goose Up
-- A variant row may have 0 clues (a killer without givens): see SQLite's
-- 00028. PostgreSQL alters the CHECK in place (it validates the rows,
-- which all keep the old one).
ALTER TABLE puzzles DROP CONSTRAINT puzzles_clues_check;
ALTER TABLE puzzles ADD CONSTRAINT puzzles_clues_check CHECK (clues BETWEEN 1 AND 81 OR clues = 0 AND rules <> '');
CREATE INDEX puzzles_variant ON puzzles (id) WHERE rules <> '';

-- +goose Down
DELETE FROM puzzles WHERE clues = 0;
DROP INDEX puzzles_variant;
ALTER TABLE puzzles DROP CONSTRAINT puzzles_clues_check;
ALTER TABLE puzzles ADD CONSTRAINT puzzles_clues_check CHECK (clues BETWEEN 1 AND 81);
