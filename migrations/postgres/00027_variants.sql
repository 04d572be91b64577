-- +goose Up
-- Variant Sudoku: see SQLite's 00027. PostgreSQL alters the CHECK in place
-- (it validates the rows, which all keep the old one).
ALTER TABLE puzzles ADD COLUMN rules           TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN canonical_rules TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN variant         TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN title           TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN author          TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles DROP CONSTRAINT puzzles_clues_check;
ALTER TABLE puzzles ADD CONSTRAINT puzzles_clues_check CHECK (clues BETWEEN 1 AND 81 OR clues = 0 AND rules <> '');
CREATE INDEX puzzles_variant ON puzzles (id) WHERE rules <> '';

-- +goose Down
DELETE FROM puzzles WHERE rules <> '';
DROP INDEX puzzles_variant;
ALTER TABLE puzzles DROP CONSTRAINT puzzles_clues_check;
ALTER TABLE puzzles ADD CONSTRAINT puzzles_clues_check CHECK (clues BETWEEN 1 AND 81);
ALTER TABLE puzzles DROP COLUMN author;
ALTER TABLE puzzles DROP COLUMN title;
ALTER TABLE puzzles DROP COLUMN variant;
ALTER TABLE puzzles DROP COLUMN canonical_rules;
ALTER TABLE puzzles DROP COLUMN rules;
