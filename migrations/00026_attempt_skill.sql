-- +goose Up
-- The player's skill (players.skill, the players' model's) after a counted
-- attempt's step, written in the finish's transaction: the history of the
-- player's rating that /me charts (issue 46). 0 for an attempt not
-- counted, and for those counted before this migration (their skill was
-- not kept).
ALTER TABLE attempts ADD COLUMN skill REAL NOT NULL DEFAULT 0 CHECK (skill >= 0);

-- +goose Down
ALTER TABLE attempts DROP COLUMN skill;
