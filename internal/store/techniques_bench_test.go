package store

import (
	"context"
	"database/sql"
	"fmt"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// benchTechniques are the techniques the benchmark archive's puzzles use,
// each in a share of them (per mille), from the commonest (every puzzle
// uses a hidden single) to rare ones, as in real archives.
var benchTechniques = []struct {
	name     string
	perMille int64
}{
	{logic.HiddenSingle, 1000}, {logic.NakedSingle, 700}, {logic.Pointing, 400}, {logic.NakedPair, 200},
	{logic.XWing, 50}, {logic.XYWing, 30}, {logic.Swordfish, 10}, {logic.Jellyfish, 1},
}

// indexBenchTechniques gives the puzzles with one solution of the
// benchmark archive at dsn (storetest.BuildArchive's, whose rows have no
// techniques) the techniques of benchTechniques, each puzzle drawn for
// each technique by a hash of its id, straight into the technique index
// and its counts (once: an archive that has them is left alone).
func indexBenchTechniques(b *testing.B, dsn string) {
	b.Helper()
	d, driver := sqliteDialect, "sqlite"
	if IsPostgres(dsn) {
		d, driver = postgresDialect, "pgx"
	}
	raw, err := sql.Open(driver, dsn)
	if err != nil {
		b.Fatal(err)
	}
	defer raw.Close()
	var n int64
	if err := raw.QueryRow("SELECT count(*) FROM technique_names").Scan(&n); err != nil || n > 0 {
		if err != nil {
			b.Fatal(err)
		}
		return
	}
	for i, t := range benchTechniques {
		var id int64
		if err := raw.QueryRow(d.sql("INSERT INTO technique_names (name) VALUES (?) RETURNING id"), t.name).Scan(&id); err != nil {
			b.Fatal(err)
		}
		// A multiplier per technique, so that the techniques fall on the
		// puzzles independently of one another.
		mult := []int64{2654435761, 2246822519, 3266489917, 668265263, 374761393, 2870177450, 1181783497, 1640531527}[i]
		if _, err := raw.Exec(d.sql("INSERT INTO puzzle_techniques (technique, puzzle_id, hardest, grade) SELECT ?, id, 0, grade FROM puzzles WHERE solutions = 1 AND (id * ?) % 1000 < ?"),
			id, mult, t.perMille); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := raw.Exec("INSERT INTO technique_counts (technique, shard, n) SELECT technique, 1, count(*) FROM puzzle_techniques GROUP BY technique"); err != nil {
		b.Fatal(err)
	}
	if d.postgres {
		if _, err := raw.Exec("ANALYZE"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkListTechnique lists pages of 20 of the million-puzzle archive
// filtered by technique: a common one (hidden single: every puzzle), a
// middling one (X-Wing: 5%), a rare one (Jellyfish: 0.1%) and two at once,
// in three orders; the first page and one further on by cursor. ns/op is
// the cost of one request to the store, the total counted.
func BenchmarkListTechnique(b *testing.B) {
	path := millionArchive(b)
	db := MustOpenDBAt(b, path) // migrated first
	indexBenchTechniques(b, path)
	benchmarkListTechnique(b, db)
}

// BenchmarkListTechniquePostgres is BenchmarkListTechnique on a throwaway
// PostgreSQL cluster holding an archive of the same rows (-benchtime
// decides nothing about its size: archiveRows).
func BenchmarkListTechniquePostgres(b *testing.B) {
	dsn := pgtest.Start(b).NewDB(b)
	if err := buildArchive(dsn, archiveRows); err != nil {
		b.Fatal(err)
	}
	indexBenchTechniques(b, dsn)
	benchmarkListTechnique(b, MustOpenDBAt(b, dsn))
}

func benchmarkListTechnique(b *testing.B, db *DB) {
	ctx := context.Background()
	for _, f := range []struct {
		name  string
		names []string
	}{
		{"hidden-single", []string{logic.HiddenSingle}},
		{"x-wing", []string{logic.XWing}},
		{"jellyfish", []string{logic.Jellyfish}},
		{"pointing+x-wing", []string{logic.Pointing, logic.XWing}},
	} {
		for _, o := range []struct {
			sort record.Sort
			desc bool
		}{{record.SortDifficulty, true}, {record.SortGrade, false}, {record.SortSubmitted, true}} {
			q := record.ListQuery{Sort: o.sort, Desc: o.desc, Limit: 20, Techniques: record.JoinTechniques(f.names)}
			first, err := db.List(ctx, q)
			if err != nil {
				b.Fatal(err)
			}
			deep := q
			for range 5 { // page 6
				if first.NextCursor == "" {
					break
				}
				deep.Cursor = first.NextCursor
				if first, err = db.List(ctx, deep); err != nil {
					b.Fatal(err)
				}
			}
			for _, c := range []struct {
				name string
				q    record.ListQuery
			}{{"first", q}, {"page6", deep}} {
				b.Run(fmt.Sprintf("%s/%s/%s", f.name, o.sort, c.name), func(b *testing.B) {
					var total int64
					for b.Loop() {
						page, err := db.List(ctx, c.q)
						if err != nil {
							b.Fatal(err)
						}
						if len(page.Puzzles) == 0 || page.Total < int64(len(page.Puzzles)) {
							b.Fatalf("%d rows, total %d", len(page.Puzzles), page.Total)
						}
						total = page.Total
					}
					b.ReportMetric(float64(total), "total")
				})
			}
		}
	}
}
