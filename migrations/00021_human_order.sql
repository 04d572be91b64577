-- +goose Up
-- The human order (docs/ratings.md "The human order";
-- record.SortHuman, the rule in internal/record/human.go): one key, the
-- seconds a typical player needs, for every puzzle: its player_seconds
-- when the players' model shows them, else the time the model's default
-- prior gives its grade (300 s at grade 2.0, times 6 every 5 grades:
-- record.GradeSeconds), else 0 (no grade, no plays), which that order puts
-- last in either direction (like player_seconds 0 in player_time's).
--
-- A computed column, so that every write of the grade (the graders, an
-- upgrade, a copy) or of player_seconds (a finish, a refit, a new way of
-- writing a played puzzle) moves the key with it, and no writer has to
-- know. VIRTUAL: nothing on disk but its index. A store test checks that
-- the expression agrees with record.GradeSeconds on every grade.
-- puzzles_band_human serves the order as the other orders' band indexes
-- do (merged over the bands, keyset paging on (band, human, id)).
ALTER TABLE puzzles ADD COLUMN human INTEGER GENERATED ALWAYS AS
    (CASE WHEN player_seconds > 0 THEN player_seconds
          WHEN grade > 0 THEN CAST(round(300 * exp((grade - 20) * 0.0358351893845611)) AS INTEGER)
          ELSE 0 END) VIRTUAL;
CREATE INDEX puzzles_band_human ON puzzles (band, human);

-- +goose Down
DROP INDEX puzzles_band_human;
ALTER TABLE puzzles DROP COLUMN human;
