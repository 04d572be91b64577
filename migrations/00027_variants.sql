-- +goose Up
-- Variant Sudoku (issue 47): a puzzle is its givens and its rules. Five
-- columns, '' for a classic puzzle (every row archived before this one):
-- rules, the rules' normal written form (record.Rules, compact JSON);
-- canonical_rules, those of the canonical form (with canonical, the
-- puzzle's identity: the store appends a hash of them to canonical_key,
-- and one of rules to givens_key, docs/storage.md); variant, the short
-- names joined by commas (the list's filter); title and author, the
-- setter's. Adding a column with a constant default rewrites no row.
-- 00028 lets a variant row have 0 clues; the two are apart so that this
-- package's code runs on an archive of 00027 (its tests' older server,
-- which names these columns, beside a migration still to apply).
ALTER TABLE puzzles ADD COLUMN rules           TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN canonical_rules TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN variant         TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN title           TEXT NOT NULL DEFAULT '';
ALTER TABLE puzzles ADD COLUMN author          TEXT NOT NULL DEFAULT '';

-- +goose Down
-- The variant rows cannot stand in the old schema: they go.
DELETE FROM puzzles WHERE rules <> '';
ALTER TABLE puzzles DROP COLUMN author;
ALTER TABLE puzzles DROP COLUMN title;
ALTER TABLE puzzles DROP COLUMN variant;
ALTER TABLE puzzles DROP COLUMN canonical_rules;
ALTER TABLE puzzles DROP COLUMN rules;
