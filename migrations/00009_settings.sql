-- +goose Up
-- Values the servers sharing one archive must agree on, created once by
-- the first of them: the key that signs CSRF tokens (store.DB.Secret), so
-- a form served by one server is accepted by another.
CREATE TABLE settings (
    name  TEXT PRIMARY KEY,
    value BLOB NOT NULL
) STRICT, WITHOUT ROWID;

-- +goose Down
DROP TABLE settings;
