// Package migrations holds the database schema as numbered SQL files, applied
// in order at start-up by the store: *.sql for SQLite, postgres/*.sql for
// PostgreSQL, side by side.
package migrations

import (
	"embed"
	"io/fs"
)

// FS holds every SQLite migration file.
//
//go:embed *.sql
var FS embed.FS

//go:embed postgres/*.sql
var postgres embed.FS

// Postgres holds every PostgreSQL migration file.
var Postgres fs.FS = must(fs.Sub(postgres, "postgres"))

func must(f fs.FS, err error) fs.FS {
	if err != nil {
		panic(err)
	}
	return f
}

// Recount recomputes the running totals and histograms (tables counts and
// stat_buckets of 00003 and 00004, with the class counts of 00007) from the puzzles themselves, the way
// 00004 counted the rows already there. The store keeps them as it writes;
// this is for tools that write rows around it, such as the benchmarks'
// archive builder. It counts everything in shard 1 (migration 00012).
const Recount = `
UPDATE counts SET total = 0, uniq = 0, submissions = 0, classes = 0, uniq_classes = 0 WHERE id <> 1;
UPDATE counts SET
    total       = (SELECT count(*) FROM puzzles),
    uniq        = (SELECT count(*) FROM puzzles WHERE solutions = 1),
    submissions = (SELECT coalesce(sum(submissions), 0) FROM puzzles),
    classes      = (SELECT count(*) FROM puzzles WHERE same_as IS NULL AND canonical_key IS NOT NULL),
    uniq_classes = (SELECT count(*) FROM puzzles WHERE same_as IS NULL AND canonical_key IS NOT NULL AND solutions = 1)
WHERE id = 1;
DELETE FROM stat_buckets;
INSERT INTO stat_buckets (kind, bucket, n, uniq, heads)
SELECT 'backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= p.backtracks ORDER BY lo DESC LIMIT 1) AS b,
       count(*), count(*) FILTER (WHERE solutions = 1),
       count(*) FILTER (WHERE solutions = 1 AND same_as IS NULL AND canonical_key IS NOT NULL)
FROM puzzles AS p GROUP BY b;
INSERT INTO stat_buckets (kind, bucket, n, uniq)
SELECT 'solve_ns', (SELECT bucket FROM stat_edges WHERE kind = 'solve_ns' AND lo <= p.solve_ns ORDER BY lo DESC LIMIT 1) AS b,
       count(*), count(*) FILTER (WHERE solutions = 1)
FROM puzzles AS p GROUP BY b;
INSERT INTO stat_buckets (kind, bucket, n, uniq)
SELECT 'clues', clues, count(*), count(*) FILTER (WHERE solutions = 1) FROM puzzles GROUP BY clues;
DELETE FROM grade_counts;
INSERT INTO grade_counts (grade, technique, n)
SELECT grade, technique, count(*) FROM puzzles WHERE grade_version IS NOT NULL GROUP BY grade, technique;
`
