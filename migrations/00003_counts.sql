-- +goose Up
-- Running totals, so a listing reports its total without COUNT(*) over the
-- archive. Triggers keep them in the same transaction as the rows they count;
-- the initial values count what an older database already holds.
CREATE TABLE counts (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    total  INTEGER NOT NULL CHECK (total >= 0),
    uniq   INTEGER NOT NULL CHECK (uniq >= 0)
) STRICT;

INSERT INTO counts (id, total, uniq)
SELECT 1, count(*), count(*) FILTER (WHERE solutions = 1) FROM puzzles;

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_insert AFTER INSERT ON puzzles BEGIN
    UPDATE counts SET total = total + 1, uniq = uniq + (NEW.solutions = 1) WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_delete AFTER DELETE ON puzzles BEGIN
    UPDATE counts SET total = total - 1, uniq = uniq - (OLD.solutions = 1) WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_update AFTER UPDATE OF solutions ON puzzles BEGIN
    UPDATE counts SET uniq = uniq - (OLD.solutions = 1) + (NEW.solutions = 1) WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER puzzles_count_update;
DROP TRIGGER puzzles_count_delete;
DROP TRIGGER puzzles_count_insert;
DROP TABLE counts;
