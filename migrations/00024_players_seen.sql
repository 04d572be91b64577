-- +goose Up
-- When a player was last seen by a session (unix nanoseconds; NULL: not
-- since this migration), written at most once an hour by each server, so
-- that `sudoku players prune` counts a visit as a sign of life beside
-- attempts started and finished and flags (issue 45: a visit today did not
-- keep an anonymous player).
ALTER TABLE players ADD COLUMN seen_at INTEGER;

-- +goose Down
ALTER TABLE players DROP COLUMN seen_at;
