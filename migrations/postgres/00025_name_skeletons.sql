-- +goose Up
-- Look-alike names: the same change as SQLite's migration 00025, whose
-- comments explain it (the skeletons filled in Go at open).
ALTER TABLE players ADD COLUMN name_skeleton TEXT;
CREATE INDEX players_name_skeleton ON players (name_skeleton) WHERE name_skeleton IS NOT NULL;
ALTER TABLE collections ADD COLUMN name_skeleton TEXT;
CREATE INDEX collections_name_skeleton ON collections (name_skeleton) WHERE name_skeleton IS NOT NULL;
INSERT INTO settings (name, value) VALUES ('name_skeletons', '\x31'::bytea);

-- +goose Down
DELETE FROM settings WHERE name = 'name_skeletons';
DROP INDEX collections_name_skeleton;
ALTER TABLE collections DROP COLUMN name_skeleton;
DROP INDEX players_name_skeleton;
ALTER TABLE players DROP COLUMN name_skeleton;
