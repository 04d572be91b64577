-- +goose Up
-- Variant Sudoku: see SQLite's 00027.
ALTER TABLE puzzles ADD COLUMN rules           TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN canonical_rules TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN variant         TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN title           TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN author          TEXT NOT NULL DEFAULT '';

-- +goose Down
DELETE FROM puzzles WHERE rules <> '';
ALTER TABLE puzzles DROP COLUMN author;
ALTER TABLE puzzles DROP COLUMN title;
ALTER TABLE puzzles DROP COLUMN variant;
ALTER TABLE puzzles DROP COLUMN canonical_rules;
ALTER TABLE puzzles DROP COLUMN rules;
