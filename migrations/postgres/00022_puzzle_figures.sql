-- +goose Up
-- The players' figures of a puzzle in a narrow table: see SQLite's 00022.
-- Its pages are filled to 70% only, so that a finish's update of a row
-- finds room on the row's own page and stays a HOT update (no index
-- entry; only the primary key is indexed and it never changes).
CREATE TABLE puzzle_figures (
    puzzle_id      BIGINT PRIMARY KEY,
    plays          BIGINT NOT NULL CHECK (plays > 0),
    solves         BIGINT NOT NULL CHECK (solves >= 0),
    median_seconds BIGINT NOT NULL CHECK (median_seconds >= 0)
) WITH (fillfactor = 70);
INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
SELECT id, plays, solves, median_seconds FROM puzzles WHERE plays > 0;
ALTER TABLE puzzles DROP COLUMN plays, DROP COLUMN solves, DROP COLUMN median_seconds;

-- +goose Down
ALTER TABLE puzzles ADD COLUMN plays          BIGINT NOT NULL DEFAULT 0 CHECK (plays >= 0),
                    ADD COLUMN solves         BIGINT NOT NULL DEFAULT 0 CHECK (solves >= 0),
                    ADD COLUMN median_seconds BIGINT NOT NULL DEFAULT 0 CHECK (median_seconds >= 0);
UPDATE puzzles SET plays = f.plays, solves = f.solves, median_seconds = f.median_seconds
FROM puzzle_figures AS f WHERE f.puzzle_id = puzzles.id;
DROP TABLE puzzle_figures;
