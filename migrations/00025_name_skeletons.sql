-- +goose Up
-- Look-alike names (issue 45; docs/players.md "Look-alike names"):
-- name_skeleton is the key two names that look alike share (`сосо` and
-- `coco`, `STRASSE` and `straße`), made in Go (account.NameSkeleton,
-- account.CollectionSkeleton: Unicode TS #39's skeleton, case-blind). A
-- new account or collection whose name's skeleton another has is
-- refused; the index is not unique, so the look-alikes made before this
-- migration keep their names and keep working. SQL cannot make the
-- skeleton: the store fills the column in Go when it opens the archive,
-- in one transaction, while settings' name_skeletons is there
-- (store.skeletonNames).
ALTER TABLE players ADD COLUMN name_skeleton TEXT;
CREATE INDEX players_name_skeleton ON players (name_skeleton) WHERE name_skeleton IS NOT NULL;
ALTER TABLE collections ADD COLUMN name_skeleton TEXT;
CREATE INDEX collections_name_skeleton ON collections (name_skeleton) WHERE name_skeleton IS NOT NULL;
INSERT INTO settings (name, value) VALUES ('name_skeletons', CAST('1' AS BLOB));

-- +goose Down
DELETE FROM settings WHERE name = 'name_skeletons';
DROP INDEX collections_name_skeleton;
ALTER TABLE collections DROP COLUMN name_skeleton;
DROP INDEX players_name_skeleton;
ALTER TABLE players DROP COLUMN name_skeleton;
