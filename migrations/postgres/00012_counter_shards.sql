-- +goose Up
-- Counters in shards. Every write transaction adds to the counters (counts,
-- stat_buckets, grade_counts) before it commits; with one row per counter,
-- the transactions of every server sharing the database took turns on
-- those rows. Now each counter has a row per shard (counts: its id is the
-- shard, 1-16; the histograms: a shard column in their keys), a counter's
-- value is the sum of its rows, and a write transaction adds to the rows
-- of one shard, which it locks first (the store picks a free one with
-- SKIP LOCKED: see tx.go), so transactions of different servers share no
-- counter row. A shard's rows may hold negative values (a row counted in
-- one shard and deleted in another), so the checks move to the sums.
--
-- counter_shard() is the shard of the transaction: the store sets it
-- (set_config('sudoku.shard', ..., true)) when it locks the shard; a
-- session that did not (psql, by hand) counts in shard 1.
-- +goose StatementBegin
CREATE FUNCTION counter_shard() RETURNS BIGINT LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('sudoku.shard', true), ''), '1')::bigint
$$;
-- +goose StatementEnd

ALTER TABLE counts DROP CONSTRAINT counts_id_check,
    DROP CONSTRAINT counts_total_check, DROP CONSTRAINT counts_uniq_check,
    DROP CONSTRAINT counts_submissions_check, DROP CONSTRAINT counts_classes_check,
    DROP CONSTRAINT counts_uniq_classes_check,
    ADD CONSTRAINT counts_shard CHECK (id BETWEEN 1 AND 16);
INSERT INTO counts (id, total, uniq, submissions, classes, uniq_classes)
SELECT k, 0, 0, 0, 0, 0 FROM generate_series(2, 16) AS k;

ALTER TABLE stat_buckets ADD COLUMN shard BIGINT NOT NULL DEFAULT 1,
    DROP CONSTRAINT stat_buckets_n_check, DROP CONSTRAINT stat_buckets_uniq_check,
    DROP CONSTRAINT stat_buckets_pkey, ADD PRIMARY KEY (kind, bucket, shard);
ALTER TABLE grade_counts ADD COLUMN shard BIGINT NOT NULL DEFAULT 1,
    DROP CONSTRAINT grade_counts_pkey, ADD PRIMARY KEY (grade, technique, shard);

-- The triggers of 00001, each counting in the transaction's shard. A
-- decrement may meet no row of the shard yet: it is an upsert.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE counts SET total = total - 1, uniq = uniq - (OLD.solutions = 1)::int,
        submissions = submissions - OLD.submissions WHERE id = counter_shard();
    INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq)
    VALUES (counter_shard(), 'backtracks', stat_bucket('backtracks', OLD.backtracks), -1, -(OLD.solutions = 1)::int),
           (counter_shard(), 'clues', OLD.clues, -1, -(OLD.solutions = 1)::int),
           (counter_shard(), 'solve_ns', stat_bucket('solve_ns', OLD.solve_ns), -1, -(OLD.solutions = 1)::int)
    ON CONFLICT (kind, bucket, shard) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq;
    IF OLD.grade_version IS NOT NULL THEN
        INSERT INTO grade_counts AS g (shard, grade, technique, n) VALUES (counter_shard(), OLD.grade, OLD.technique, -1)
        ON CONFLICT (grade, technique, shard) DO UPDATE SET n = g.n - 1;
    END IF;
    RETURN OLD;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE counts SET uniq = uniq - (OLD.solutions = 1)::int + (NEW.solutions = 1)::int WHERE id = counter_shard();
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_stats_submissions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE counts SET submissions = submissions - OLD.submissions + NEW.submissions WHERE id = counter_shard();
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_stats_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq)
    VALUES (counter_shard(), 'backtracks', stat_bucket('backtracks', OLD.backtracks), -1, -(OLD.solutions = 1)::int),
           (counter_shard(), 'clues', OLD.clues, -1, -(OLD.solutions = 1)::int),
           (counter_shard(), 'solve_ns', stat_bucket('solve_ns', OLD.solve_ns), -1, -(OLD.solutions = 1)::int)
    ON CONFLICT (kind, bucket, shard) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq;
    INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq)
    VALUES (counter_shard(), 'backtracks', stat_bucket('backtracks', NEW.backtracks), 1, (NEW.solutions = 1)::int),
           (counter_shard(), 'clues', NEW.clues, 1, (NEW.solutions = 1)::int),
           (counter_shard(), 'solve_ns', stat_bucket('solve_ns', NEW.solve_ns), 1, (NEW.solutions = 1)::int)
    ON CONFLICT (kind, bucket, shard) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_grade_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.grade_version IS NOT NULL THEN
        INSERT INTO grade_counts AS g (shard, grade, technique, n) VALUES (counter_shard(), OLD.grade, OLD.technique, -1)
        ON CONFLICT (grade, technique, shard) DO UPDATE SET n = g.n - 1;
    END IF;
    IF NEW.grade_version IS NOT NULL THEN
        INSERT INTO grade_counts AS g (shard, grade, technique, n) VALUES (counter_shard(), NEW.grade, NEW.technique, 1)
        ON CONFLICT (grade, technique, shard) DO UPDATE SET n = g.n + 1;
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose Down
-- Every shard's rows summed into shard 1, then the single-row schema of
-- 00001 and its triggers back.
UPDATE counts SET (total, uniq, submissions, classes, uniq_classes) =
    (SELECT sum(total), sum(uniq), sum(submissions), sum(classes), sum(uniq_classes) FROM counts)
WHERE id = 1;
DELETE FROM counts WHERE id <> 1;
ALTER TABLE counts DROP CONSTRAINT counts_shard,
    ADD CONSTRAINT counts_id_check CHECK (id = 1),
    ADD CONSTRAINT counts_total_check CHECK (total >= 0), ADD CONSTRAINT counts_uniq_check CHECK (uniq >= 0),
    ADD CONSTRAINT counts_submissions_check CHECK (submissions >= 0), ADD CONSTRAINT counts_classes_check CHECK (classes >= 0),
    ADD CONSTRAINT counts_uniq_classes_check CHECK (uniq_classes >= 0);

CREATE TABLE stat_buckets_1 AS
SELECT kind, bucket, sum(n)::bigint AS n, sum(uniq)::bigint AS uniq, sum(heads)::bigint AS heads FROM stat_buckets GROUP BY kind, bucket;
DELETE FROM stat_buckets;
ALTER TABLE stat_buckets DROP CONSTRAINT stat_buckets_pkey, DROP COLUMN shard, ADD PRIMARY KEY (kind, bucket),
    ADD CONSTRAINT stat_buckets_n_check CHECK (n >= 0), ADD CONSTRAINT stat_buckets_uniq_check CHECK (uniq >= 0);
INSERT INTO stat_buckets (kind, bucket, n, uniq, heads) SELECT kind, bucket, n, uniq, heads FROM stat_buckets_1;
DROP TABLE stat_buckets_1;

CREATE TABLE grade_counts_1 AS
SELECT grade, technique, sum(n)::bigint AS n FROM grade_counts GROUP BY grade, technique;
DELETE FROM grade_counts;
ALTER TABLE grade_counts DROP CONSTRAINT grade_counts_pkey, DROP COLUMN shard, ADD PRIMARY KEY (grade, technique);
INSERT INTO grade_counts (grade, technique, n) SELECT grade, technique, n FROM grade_counts_1;
DROP TABLE grade_counts_1;

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE counts SET total = total - 1, uniq = uniq - (OLD.solutions = 1)::int,
        submissions = submissions - OLD.submissions WHERE id = 1;
    UPDATE stat_buckets SET n = n - 1, uniq = uniq - (OLD.solutions = 1)::int
    WHERE (kind = 'backtracks' AND bucket = stat_bucket('backtracks', OLD.backtracks))
       OR (kind = 'solve_ns' AND bucket = stat_bucket('solve_ns', OLD.solve_ns))
       OR (kind = 'clues' AND bucket = OLD.clues);
    IF OLD.grade_version IS NOT NULL THEN
        UPDATE grade_counts SET n = n - 1 WHERE grade = OLD.grade AND technique = OLD.technique;
    END IF;
    RETURN OLD;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_count_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE counts SET uniq = uniq - (OLD.solutions = 1)::int + (NEW.solutions = 1)::int WHERE id = 1;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_stats_submissions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE counts SET submissions = submissions - OLD.submissions + NEW.submissions WHERE id = 1;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_stats_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE stat_buckets SET n = n - 1, uniq = uniq - (OLD.solutions = 1)::int
    WHERE (kind = 'backtracks' AND bucket = stat_bucket('backtracks', OLD.backtracks))
       OR (kind = 'solve_ns' AND bucket = stat_bucket('solve_ns', OLD.solve_ns))
       OR (kind = 'clues' AND bucket = OLD.clues);
    INSERT INTO stat_buckets AS s (kind, bucket, n, uniq)
    VALUES ('backtracks', stat_bucket('backtracks', NEW.backtracks), 1, (NEW.solutions = 1)::int),
           ('clues', NEW.clues, 1, (NEW.solutions = 1)::int),
           ('solve_ns', stat_bucket('solve_ns', NEW.solve_ns), 1, (NEW.solutions = 1)::int)
    ON CONFLICT (kind, bucket) DO UPDATE SET n = s.n + 1, uniq = s.uniq + excluded.uniq;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION puzzles_grade_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.grade_version IS NOT NULL THEN
        UPDATE grade_counts SET n = n - 1 WHERE grade = OLD.grade AND technique = OLD.technique;
    END IF;
    IF NEW.grade_version IS NOT NULL THEN
        INSERT INTO grade_counts AS g (grade, technique, n) VALUES (NEW.grade, NEW.technique, 1)
        ON CONFLICT (grade, technique) DO UPDATE SET n = g.n + 1;
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

DROP FUNCTION counter_shard;
