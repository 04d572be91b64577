-- +goose Up
-- Faster writes into a large archive (a bulk import of a million puzzles ran
-- at half the rate of a small one). Four changes, one table rebuild:
--
-- 1. Givens are unique by givens_key, a compact encoding of the givens,
--    instead of by the 81-character text: the unique index of the text was
--    larger than all the others together (90 bytes an entry), and every new
--    puzzle lands at a random place in it. givens_key is 11 bytes of bitmap,
--    bit i%8 of byte i/8 set when cell i (row by row from 0) is given, then
--    the given digits in cell order, two to a byte, high half first, an odd
--    last digit in a high half (zero low half): 20 bytes for 17 givens. It
--    is one-to-one with the givens, so its unique index refuses exactly the
--    duplicates the old one did. The store writes it (store.givensKey); the
--    expression below computes the same bytes for the rows already here.
--
-- 2. The solve-time and clue orders of the whole archive are read by
--    merging the five bands of the band indexes of 00005 (each band is in
--    that order already), so puzzles_solve_ns and puzzles_clues go: one
--    index fewer to update at a random place.
--
-- 3. The running totals and histograms of 00003/00004 are counted by the
--    store for the rows it inserts, once per transaction, instead of by an
--    AFTER INSERT trigger per row. Their triggers for UPDATE and DELETE stay,
--    so a row changed or removed by hand still moves the counters; a row
--    inserted by hand (not through `sudoku`) is not counted.
--
-- 4. The CHECKs on the text of givens and solution go: a CHECK that calls a
--    function (length, instr) may fail with an error, so SQLite copied every
--    page a many-row INSERT touched into a statement journal first, in case
--    the statement had to be undone alone (a fifth of the time of a
--    many-row insert). The store checks every grid before writing it, more
--    strictly than they did (the solution must solve the givens), and every
--    read checks the text again; the CHECKs on numbers stay.
CREATE TABLE puzzles_v6 (
    id             INTEGER PRIMARY KEY,
    givens         TEXT    NOT NULL,
    givens_key     BLOB    NOT NULL,
    solution       TEXT    NOT NULL,
    clues          INTEGER NOT NULL CHECK (clues BETWEEN 1 AND 81),
    solutions      INTEGER NOT NULL CHECK (solutions IN (1, 2)),
    backtracks     INTEGER NOT NULL CHECK (backtracks >= 0),
    guesses        INTEGER NOT NULL CHECK (guesses >= 0),
    nodes          INTEGER NOT NULL CHECK (nodes >= 0),
    solve_ns       INTEGER NOT NULL CHECK (solve_ns >= 0),
    engine_version TEXT    NOT NULL,
    submitted_at   INTEGER NOT NULL,
    submissions    INTEGER NOT NULL DEFAULT 1 CHECK (submissions >= 1),
    band           INTEGER GENERATED ALWAYS AS
        ((backtracks >= 1) + (backtracks >= 16) + (backtracks >= 64) + (backtracks >= 128)) VIRTUAL
) STRICT;

INSERT INTO puzzles_v6 (id, givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions)
SELECT id, givens,
    unhex(
        printf('%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x%02x',
            ((substr(givens, 1, 1) <> '.') << 0) | ((substr(givens, 2, 1) <> '.') << 1) | ((substr(givens, 3, 1) <> '.') << 2) | ((substr(givens, 4, 1) <> '.') << 3) | ((substr(givens, 5, 1) <> '.') << 4) | ((substr(givens, 6, 1) <> '.') << 5) | ((substr(givens, 7, 1) <> '.') << 6) | ((substr(givens, 8, 1) <> '.') << 7),
            ((substr(givens, 9, 1) <> '.') << 0) | ((substr(givens, 10, 1) <> '.') << 1) | ((substr(givens, 11, 1) <> '.') << 2) | ((substr(givens, 12, 1) <> '.') << 3) | ((substr(givens, 13, 1) <> '.') << 4) | ((substr(givens, 14, 1) <> '.') << 5) | ((substr(givens, 15, 1) <> '.') << 6) | ((substr(givens, 16, 1) <> '.') << 7),
            ((substr(givens, 17, 1) <> '.') << 0) | ((substr(givens, 18, 1) <> '.') << 1) | ((substr(givens, 19, 1) <> '.') << 2) | ((substr(givens, 20, 1) <> '.') << 3) | ((substr(givens, 21, 1) <> '.') << 4) | ((substr(givens, 22, 1) <> '.') << 5) | ((substr(givens, 23, 1) <> '.') << 6) | ((substr(givens, 24, 1) <> '.') << 7),
            ((substr(givens, 25, 1) <> '.') << 0) | ((substr(givens, 26, 1) <> '.') << 1) | ((substr(givens, 27, 1) <> '.') << 2) | ((substr(givens, 28, 1) <> '.') << 3) | ((substr(givens, 29, 1) <> '.') << 4) | ((substr(givens, 30, 1) <> '.') << 5) | ((substr(givens, 31, 1) <> '.') << 6) | ((substr(givens, 32, 1) <> '.') << 7),
            ((substr(givens, 33, 1) <> '.') << 0) | ((substr(givens, 34, 1) <> '.') << 1) | ((substr(givens, 35, 1) <> '.') << 2) | ((substr(givens, 36, 1) <> '.') << 3) | ((substr(givens, 37, 1) <> '.') << 4) | ((substr(givens, 38, 1) <> '.') << 5) | ((substr(givens, 39, 1) <> '.') << 6) | ((substr(givens, 40, 1) <> '.') << 7),
            ((substr(givens, 41, 1) <> '.') << 0) | ((substr(givens, 42, 1) <> '.') << 1) | ((substr(givens, 43, 1) <> '.') << 2) | ((substr(givens, 44, 1) <> '.') << 3) | ((substr(givens, 45, 1) <> '.') << 4) | ((substr(givens, 46, 1) <> '.') << 5) | ((substr(givens, 47, 1) <> '.') << 6) | ((substr(givens, 48, 1) <> '.') << 7),
            ((substr(givens, 49, 1) <> '.') << 0) | ((substr(givens, 50, 1) <> '.') << 1) | ((substr(givens, 51, 1) <> '.') << 2) | ((substr(givens, 52, 1) <> '.') << 3) | ((substr(givens, 53, 1) <> '.') << 4) | ((substr(givens, 54, 1) <> '.') << 5) | ((substr(givens, 55, 1) <> '.') << 6) | ((substr(givens, 56, 1) <> '.') << 7),
            ((substr(givens, 57, 1) <> '.') << 0) | ((substr(givens, 58, 1) <> '.') << 1) | ((substr(givens, 59, 1) <> '.') << 2) | ((substr(givens, 60, 1) <> '.') << 3) | ((substr(givens, 61, 1) <> '.') << 4) | ((substr(givens, 62, 1) <> '.') << 5) | ((substr(givens, 63, 1) <> '.') << 6) | ((substr(givens, 64, 1) <> '.') << 7),
            ((substr(givens, 65, 1) <> '.') << 0) | ((substr(givens, 66, 1) <> '.') << 1) | ((substr(givens, 67, 1) <> '.') << 2) | ((substr(givens, 68, 1) <> '.') << 3) | ((substr(givens, 69, 1) <> '.') << 4) | ((substr(givens, 70, 1) <> '.') << 5) | ((substr(givens, 71, 1) <> '.') << 6) | ((substr(givens, 72, 1) <> '.') << 7),
            ((substr(givens, 73, 1) <> '.') << 0) | ((substr(givens, 74, 1) <> '.') << 1) | ((substr(givens, 75, 1) <> '.') << 2) | ((substr(givens, 76, 1) <> '.') << 3) | ((substr(givens, 77, 1) <> '.') << 4) | ((substr(givens, 78, 1) <> '.') << 5) | ((substr(givens, 79, 1) <> '.') << 6) | ((substr(givens, 80, 1) <> '.') << 7),
            ((substr(givens, 81, 1) <> '.') << 0))
        || replace(givens, '.', '')
        || iif(length(replace(givens, '.', '')) % 2 = 1, '0', '')),
    solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions
FROM puzzles ORDER BY id;

-- Dropping the old table drops its indexes and triggers too.
DROP TABLE puzzles;
ALTER TABLE puzzles_v6 RENAME TO puzzles;

CREATE UNIQUE INDEX puzzles_givens_key ON puzzles (givens_key);
CREATE INDEX puzzles_difficulty     ON puzzles (backtracks, solve_ns);
CREATE INDEX puzzles_backtracks     ON puzzles (backtracks);
CREATE INDEX puzzles_band_solve_ns  ON puzzles (band, solve_ns);
CREATE INDEX puzzles_band_clues     ON puzzles (band, clues);
CREATE INDEX puzzles_band_submitted ON puzzles (band);

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_update AFTER UPDATE OF solutions ON puzzles BEGIN
    UPDATE counts SET uniq = uniq - (OLD.solutions = 1) + (NEW.solutions = 1) WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_delete AFTER DELETE ON puzzles BEGIN
    UPDATE counts SET total = total - 1, uniq = uniq - (OLD.solutions = 1), submissions = submissions - OLD.submissions
    WHERE id = 1;
END;
-- +goose StatementEnd

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
CREATE TABLE puzzles_v5 (
    id             INTEGER PRIMARY KEY,
    givens         TEXT    NOT NULL UNIQUE CHECK (length(givens) = 81),
    solution       TEXT    NOT NULL CHECK (length(solution) = 81 AND instr(solution, '.') = 0),
    clues          INTEGER NOT NULL CHECK (clues BETWEEN 1 AND 81),
    solutions      INTEGER NOT NULL CHECK (solutions IN (1, 2)),
    backtracks     INTEGER NOT NULL CHECK (backtracks >= 0),
    guesses        INTEGER NOT NULL CHECK (guesses >= 0),
    nodes          INTEGER NOT NULL CHECK (nodes >= 0),
    solve_ns       INTEGER NOT NULL CHECK (solve_ns >= 0),
    engine_version TEXT    NOT NULL,
    submitted_at   INTEGER NOT NULL,
    submissions    INTEGER NOT NULL DEFAULT 1 CHECK (submissions >= 1),
    band           INTEGER GENERATED ALWAYS AS
        ((backtracks >= 1) + (backtracks >= 16) + (backtracks >= 64) + (backtracks >= 128)) VIRTUAL
) STRICT;

INSERT INTO puzzles_v5 (id, givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions)
SELECT id, givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions FROM puzzles ORDER BY id;

DROP TABLE puzzles;
ALTER TABLE puzzles_v5 RENAME TO puzzles;

CREATE INDEX puzzles_difficulty     ON puzzles (backtracks, solve_ns);
CREATE INDEX puzzles_backtracks     ON puzzles (backtracks);
CREATE INDEX puzzles_solve_ns       ON puzzles (solve_ns);
CREATE INDEX puzzles_clues          ON puzzles (clues);
CREATE INDEX puzzles_band_solve_ns  ON puzzles (band, solve_ns);
CREATE INDEX puzzles_band_clues     ON puzzles (band, clues);
CREATE INDEX puzzles_band_submitted ON puzzles (band);

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_update AFTER UPDATE OF solutions ON puzzles BEGIN
    UPDATE counts SET uniq = uniq - (OLD.solutions = 1) + (NEW.solutions = 1) WHERE id = 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_delete AFTER DELETE ON puzzles BEGIN
    UPDATE counts SET total = total - 1, uniq = uniq - (OLD.solutions = 1), submissions = submissions - OLD.submissions
    WHERE id = 1;
END;
-- +goose StatementEnd

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

-- +goose StatementBegin
CREATE TRIGGER puzzles_count_insert AFTER INSERT ON puzzles BEGIN
    UPDATE counts SET total = total + 1, uniq = uniq + (NEW.solutions = 1), submissions = submissions + NEW.submissions
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
