-- +goose Up
-- Counters in shards, for PostgreSQL servers that write at once (see
-- migrations/postgres/00012_counter_shards.sql): the tally tables gain the
-- shard column there. SQLite has one writer at a time, so it keeps one
-- shard, number 1: counts keeps its single row (id 1, its shard), and the
-- histograms' rows are all of shard 1. The column is here so that the two
-- schemas stay one; the store reads every counter as a sum over shards on
-- both databases.
ALTER TABLE stat_buckets ADD COLUMN shard INTEGER NOT NULL DEFAULT 1;
ALTER TABLE grade_counts ADD COLUMN shard INTEGER NOT NULL DEFAULT 1;

-- +goose Down
ALTER TABLE grade_counts DROP COLUMN shard;
ALTER TABLE stat_buckets DROP COLUMN shard;
