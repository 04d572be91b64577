-- +goose Up
-- The human order: see SQLite's 00021. PostgreSQL's generated columns are
-- stored, so adding it rewrites the table once. The arithmetic is in
-- double precision (as Go's record.GradeSeconds), not numeric.
ALTER TABLE puzzles ADD COLUMN human BIGINT GENERATED ALWAYS AS
    (CASE WHEN player_seconds > 0 THEN player_seconds
          WHEN grade > 0 THEN CAST(round(300 * exp(CAST(grade - 20 AS double precision) * CAST(0.0358351893845611 AS double precision))) AS BIGINT)
          ELSE 0 END) STORED;
CREATE INDEX puzzles_band_human ON puzzles (band, human, id);

-- +goose Down
DROP INDEX puzzles_band_human;
ALTER TABLE puzzles DROP COLUMN human;
