-- +goose Up
-- Histograms for the stats page, kept up to date by triggers in the same
-- transaction as the rows they count (the pattern of 00003's counts), so
-- /stats reads a few dozen rows however large the archive is. (Since 00006
-- the store counts the rows it inserts itself; the triggers below for
-- inserts are gone, those for updates and deletes stay.)
--
-- stat_edges holds the lower edge of every bucket of the log-scale
-- histograms; a puzzle falls in the bucket with the largest edge not above
-- its value. The Go side has the same edges (sudoku.BacktracksBucket,
-- record.SolveTimeBucket) and a store test checks that they agree.
--   backtracks: bucket 0 is 0, bucket k >= 1 is 2^(k-1) to 2^k - 1.
--   solve_ns:   bucket 0 is under 1 µs, then 1-2-5 steps: 1 µs, 2 µs, 5 µs,
--               10 µs, ... each bucket up to the next edge.
-- Clue counts need no edges: the bucket is the count.
CREATE TABLE stat_edges (
    kind   TEXT    NOT NULL,
    lo     INTEGER NOT NULL,
    bucket INTEGER NOT NULL,
    PRIMARY KEY (kind, lo)
) STRICT, WITHOUT ROWID;

INSERT INTO stat_edges (kind, lo, bucket) VALUES ('backtracks', 0, 0);
INSERT INTO stat_edges (kind, lo, bucket)
WITH RECURSIVE e(k, lo) AS (SELECT 1, 1 UNION ALL SELECT k + 1, lo * 2 FROM e WHERE k < 62)
SELECT 'backtracks', lo, k FROM e;

INSERT INTO stat_edges (kind, lo, bucket) VALUES ('solve_ns', 0, 0);
INSERT INTO stat_edges (kind, lo, bucket)
WITH RECURSIVE d(i, p) AS (SELECT 0, 1000 UNION ALL SELECT i + 1, p * 10 FROM d WHERE i < 8)
SELECT 'solve_ns', p * m.f, 3 * d.i + m.j
FROM d, (SELECT 1 AS f, 1 AS j UNION ALL SELECT 2, 2 UNION ALL SELECT 5, 3) AS m;

-- n counts puzzles in the bucket; uniq those of them with one solution.
CREATE TABLE stat_buckets (
    kind   TEXT    NOT NULL,
    bucket INTEGER NOT NULL,
    n      INTEGER NOT NULL CHECK (n >= 0),
    uniq   INTEGER NOT NULL CHECK (uniq >= 0),
    PRIMARY KEY (kind, bucket)
) STRICT, WITHOUT ROWID;

INSERT INTO stat_buckets (kind, bucket, n, uniq)
SELECT 'backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= p.backtracks ORDER BY lo DESC LIMIT 1) AS b,
       count(*), count(*) FILTER (WHERE solutions = 1)
FROM puzzles AS p GROUP BY b;
INSERT INTO stat_buckets (kind, bucket, n, uniq)
SELECT 'solve_ns', (SELECT bucket FROM stat_edges WHERE kind = 'solve_ns' AND lo <= p.solve_ns ORDER BY lo DESC LIMIT 1) AS b,
       count(*), count(*) FILTER (WHERE solutions = 1)
FROM puzzles AS p GROUP BY b;
INSERT INTO stat_buckets (kind, bucket, n, uniq)
SELECT 'clues', clues, count(*), count(*) FILTER (WHERE solutions = 1) FROM puzzles GROUP BY clues;

-- Submissions in all (a puzzle's row counts every submission of its givens).
ALTER TABLE counts ADD COLUMN submissions INTEGER NOT NULL DEFAULT 0 CHECK (submissions >= 0);
UPDATE counts SET submissions = (SELECT coalesce(sum(submissions), 0) FROM puzzles) WHERE id = 1;

-- The running totals of 00003 count submissions too: its triggers are
-- replaced by ones that keep all three, one UPDATE per row as before.
DROP TRIGGER puzzles_count_insert;
DROP TRIGGER puzzles_count_delete;

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_insert AFTER INSERT ON puzzles BEGIN
    UPDATE counts SET total = total + 1, uniq = uniq + (NEW.solutions = 1), submissions = submissions + NEW.submissions
    WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_delete AFTER DELETE ON puzzles BEGIN
    UPDATE counts SET total = total - 1, uniq = uniq - (OLD.solutions = 1), submissions = submissions - OLD.submissions
    WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_stats_insert AFTER INSERT ON puzzles BEGIN
    INSERT INTO stat_buckets (kind, bucket, n, uniq)
    VALUES ('backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= NEW.backtracks ORDER BY lo DESC LIMIT 1), 1, NEW.solutions = 1),
           ('solve_ns', (SELECT bucket FROM stat_edges WHERE kind = 'solve_ns' AND lo <= NEW.solve_ns ORDER BY lo DESC LIMIT 1), 1, NEW.solutions = 1),
           ('clues', NEW.clues, 1, NEW.solutions = 1)
    ON CONFLICT (kind, bucket) DO UPDATE SET n = n + 1, uniq = uniq + excluded.uniq;
END;
-- +goose StatementEnd

-- Puzzles are never deleted nor measured again, but a row changed by hand
-- (the sqlite3 shell) must not leave the histograms wrong: the old values
-- leave their buckets, the new ones join theirs.
-- +goose StatementBegin
CREATE TRIGGER puzzles_stats_delete AFTER DELETE ON puzzles BEGIN
    UPDATE stat_buckets SET n = n - 1, uniq = uniq - (OLD.solutions = 1)
    WHERE (kind = 'backtracks' AND bucket = (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= OLD.backtracks ORDER BY lo DESC LIMIT 1))
       OR (kind = 'solve_ns' AND bucket = (SELECT bucket FROM stat_edges WHERE kind = 'solve_ns' AND lo <= OLD.solve_ns ORDER BY lo DESC LIMIT 1))
       OR (kind = 'clues' AND bucket = OLD.clues);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_stats_submissions AFTER UPDATE OF submissions ON puzzles BEGIN
    UPDATE counts SET submissions = submissions - OLD.submissions + NEW.submissions WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_stats_update AFTER UPDATE OF backtracks, solve_ns, clues, solutions ON puzzles BEGIN
    UPDATE stat_buckets SET n = n - 1, uniq = uniq - (OLD.solutions = 1)
    WHERE (kind = 'backtracks' AND bucket = (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= OLD.backtracks ORDER BY lo DESC LIMIT 1))
       OR (kind = 'solve_ns' AND bucket = (SELECT bucket FROM stat_edges WHERE kind = 'solve_ns' AND lo <= OLD.solve_ns ORDER BY lo DESC LIMIT 1))
       OR (kind = 'clues' AND bucket = OLD.clues);
    INSERT INTO stat_buckets (kind, bucket, n, uniq)
    VALUES ('backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= NEW.backtracks ORDER BY lo DESC LIMIT 1), 1, NEW.solutions = 1),
           ('solve_ns', (SELECT bucket FROM stat_edges WHERE kind = 'solve_ns' AND lo <= NEW.solve_ns ORDER BY lo DESC LIMIT 1), 1, NEW.solutions = 1),
           ('clues', NEW.clues, 1, NEW.solutions = 1)
    ON CONFLICT (kind, bucket) DO UPDATE SET n = n + 1, uniq = uniq + excluded.uniq;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER puzzles_stats_update;
DROP TRIGGER puzzles_stats_submissions;
DROP TRIGGER puzzles_stats_delete;
DROP TRIGGER puzzles_stats_insert;
DROP TRIGGER puzzles_count_delete;
DROP TRIGGER puzzles_count_insert;
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
ALTER TABLE counts DROP COLUMN submissions;
DROP TABLE stat_buckets;
DROP TABLE stat_edges;
