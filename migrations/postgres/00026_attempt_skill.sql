-- +goose Up
-- The player's skill after a counted attempt's step: see SQLite's 00026.
ALTER TABLE attempts ADD COLUMN skill DOUBLE PRECISION NOT NULL DEFAULT 0 CHECK (skill >= 0);

-- +goose Down
ALTER TABLE attempts DROP COLUMN skill;
