-- +goose Up
-- When a player was last seen by a session: see SQLite's 00024.
ALTER TABLE players ADD COLUMN seen_at BIGINT;

-- +goose Down
ALTER TABLE players DROP COLUMN seen_at;
