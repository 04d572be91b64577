-- +goose Up
-- Accounts that hold (issue 35; docs/players.md "Accounts").
--
-- name_key: the key a name is compared by, made in Go (package account:
-- the PRECIS UsernameCaseMapped profile of RFC 8265 for players, the
-- Nickname profile of RFC 8266 for collections) and unique in place of
-- lower(name), which folds ASCII only (SQLite's lower(), and
-- PostgreSQL's under the C locale): `ÉMILE` and `émile` were two
-- accounts. SQL cannot make the key, so the store fills it in Go when it
-- opens the archive, in one transaction, while settings' name_keys is
-- there (store.keyNames): where two existing names have one key, the
-- later one (by id) is renamed with the suffix -2 (-3, ...) and the
-- renaming recorded in the audit trail, so that both stay reachable.
ALTER TABLE players ADD COLUMN name_key TEXT;
DROP INDEX players_name;
CREATE UNIQUE INDEX players_name_key ON players (name_key) WHERE name_key IS NOT NULL;
ALTER TABLE collections ADD COLUMN name_key TEXT;
DROP INDEX collections_name;
CREATE UNIQUE INDEX collections_name_key ON collections (name_key) WHERE name_key IS NOT NULL;
INSERT INTO settings (name, value) VALUES ('name_keys', CAST('1' AS BLOB));

-- API tokens get an id (what `sudoku user tokens` lists and `sudoku user
-- revoke` and /me's Revoke name; the token's hash is never shown) and
-- the time they were last used (unix nanoseconds, NULL: never), written
-- at most once a minute per token.
CREATE TABLE tokens_new (
    id           INTEGER PRIMARY KEY,
    token_hash   BLOB    NOT NULL UNIQUE,
    player_id    INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at   INTEGER NOT NULL,
    last_used_at INTEGER
) STRICT;
INSERT INTO tokens_new (token_hash, player_id, created_at) SELECT token_hash, player_id, created_at FROM tokens ORDER BY created_at, token_hash;
DROP TABLE tokens;
ALTER TABLE tokens_new RENAME TO tokens;
CREATE INDEX tokens_player ON tokens (player_id, id);

-- The login throttle counts failures per name and per client address
-- (OWASP): address is the client's (the forwarded one behind
-- --trusted-proxy; an IPv6 client's /64), device the signed device cookie
-- of a browser the name logged in from before ('' without one), whose
-- tries are counted by the cookie instead of by the name or address.
ALTER TABLE login_failures ADD COLUMN address TEXT NOT NULL DEFAULT '';
ALTER TABLE login_failures ADD COLUMN device TEXT NOT NULL DEFAULT '';
CREATE INDEX login_failures_address ON login_failures (address, at);
CREATE INDEX login_failures_device ON login_failures (device, at) WHERE device <> '';

-- +goose Down
DROP INDEX login_failures_device;
DROP INDEX login_failures_address;
ALTER TABLE login_failures DROP COLUMN device;
ALTER TABLE login_failures DROP COLUMN address;
CREATE TABLE tokens_old (
    token_hash BLOB    PRIMARY KEY,
    player_id  INTEGER NOT NULL REFERENCES players (id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
INSERT INTO tokens_old (token_hash, player_id, created_at) SELECT token_hash, player_id, created_at FROM tokens;
DROP TABLE tokens;
ALTER TABLE tokens_old RENAME TO tokens;
CREATE INDEX tokens_player ON tokens (player_id);
DELETE FROM settings WHERE name = 'name_keys';
DROP INDEX collections_name_key;
ALTER TABLE collections DROP COLUMN name_key;
CREATE UNIQUE INDEX collections_name ON collections (lower(name));
DROP INDEX players_name_key;
ALTER TABLE players DROP COLUMN name_key;
CREATE UNIQUE INDEX players_name ON players (lower(name)) WHERE name IS NOT NULL;
