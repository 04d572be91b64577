-- +goose Up
-- SQLite's 00023 makes its collections' ids never given twice
-- (AUTOINCREMENT). PostgreSQL's identity (a sequence) never gave an id
-- twice: nothing to change; the file keeps the two lists' numbers in
-- step.
SELECT 1;

-- +goose Down
SELECT 1;
