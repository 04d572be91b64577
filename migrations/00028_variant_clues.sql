-- +goose Up
-- A killer without givens has 0 clues, which CHECK (clues BETWEEN 1 AND
-- 81) refuses: the CHECK is widened to allow 0 for a variant row only
-- (rules, 00027). SQLite cannot alter a CHECK, and the rebuild of 00006 (a
-- new table, copied, the old one dropped) is no longer safe here: five
-- tables refer to puzzles (id) with foreign keys on, so dropping the old
-- table would delete their rows (an implicit DELETE, ON DELETE CASCADE),
-- and it would rewrite every row of a large archive. SQLite's documented
-- way for a change that no stored row can violate ("Making Other Kinds Of
-- Table Schema Changes": removing a CHECK or changing a default) edits the
-- table's text in sqlite_schema, in this migration's transaction: every
-- row satisfies the old CHECK, so it satisfies the wider one. The
-- comparisons call no function, so the CHECK cannot fail with an error
-- (see 00006, point 4). The edit must find the text: json() of a text
-- that is not JSON fails the migration otherwise (SQL has no RAISE outside
-- a trigger). writable_schema=RESET turns the edit off and reloads this
-- connection's schema; the CREATE INDEX after it moves schema_version on,
-- so every other connection reloads it too.
SELECT CASE WHEN instr(sql, 'CHECK (clues BETWEEN 1 AND 81)') = 0 THEN json('sudoku: clues CHECK not found') END
FROM sqlite_schema WHERE type = 'table' AND name = 'puzzles';
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (clues BETWEEN 1 AND 81)', 'CHECK (clues BETWEEN 1 AND 81 OR clues = 0 AND rules <> '''')')
WHERE type = 'table' AND name = 'puzzles';
PRAGMA writable_schema = RESET;

-- The variant rows, few among many classic ones: the filter variant=NAME
-- counts them alone (variantTotal), and a classic row is not in the index
-- (no cost to a classic insert).
CREATE INDEX puzzles_variant ON puzzles (id) WHERE rules <> '';

-- +goose Down
-- A row of 0 clues cannot stand in the old schema: it goes.
DELETE FROM puzzles WHERE clues = 0;
DROP INDEX puzzles_variant;
PRAGMA writable_schema = ON;
UPDATE sqlite_schema
SET sql = replace(sql, 'CHECK (clues BETWEEN 1 AND 81 OR clues = 0 AND rules <> '''')', 'CHECK (clues BETWEEN 1 AND 81)')
WHERE type = 'table' AND name = 'puzzles';
PRAGMA writable_schema = RESET;
-- Moves schema_version on, so other connections reload the CHECK.
CREATE TABLE variant_clues_down (x INTEGER);
DROP TABLE variant_clues_down;
