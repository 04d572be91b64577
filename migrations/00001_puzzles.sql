-- +goose Up
-- (placeholder: the store work replaces this file's body)
CREATE TABLE placeholder (id INTEGER PRIMARY KEY);

-- +goose Down
DROP TABLE placeholder;
