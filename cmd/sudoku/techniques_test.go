package main

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// TestUpgradeIndexesTechniques: an archive graded before migration 00017
// (its technique index empty, the backfill marker set, as the migration
// leaves it) is indexed by the next command that opens it, which says so;
// then technique= finds every puzzle that uses the technique.
func TestUpgradeIndexesTechniques(t *testing.T) {
	eachArchive(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		lines := puzzletest.Lines(t, puzzletest.Diabolical, 15)
		if _, stderr, err := runCmd(t, strings.Join(lines, "\n"), "import", "--db", dsn, "-"); err != nil {
			t.Fatalf("import: %v\n%s", err, stderr)
		}
		driver := "sqlite"
		if store.IsPostgres(dsn) {
			driver = "pgx"
		}
		raw, err := sql.Open(driver, dsn)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"DELETE FROM puzzle_techniques", "DELETE FROM technique_counts",
			"INSERT INTO settings (name, value) SELECT 'technique_backfill', " + map[string]string{"sqlite": "CAST(CAST(max(id) AS TEXT) AS BLOB)", "pgx": "convert_to(max(id)::text, 'UTF8')"}[driver] + " FROM puzzles"} {
			if _, err := raw.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		raw.Close()
		_, stderr, err := runCmd(t, "", "export", "--db", dsn)
		if err != nil || !strings.Contains(stderr, "indexing the techniques of 15 puzzles") {
			t.Fatalf("export: %v, stderr %q", err, stderr)
		}
		db, err := store.Open(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		var want int64
		if err := db.Export(ctx, record.ListQuery{}, func(p record.Puzzle) error {
			if strings.Contains("|"+string(p.Techniques)+"|", "|"+logic.HiddenSingle+"|") {
				want++
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		page, err := db.List(ctx, record.ListQuery{Techniques: record.JoinTechniques([]string{logic.HiddenSingle})})
		if err != nil || want == 0 || page.Total != want {
			t.Errorf("Hidden Single: total %d, %v; want %d", page.Total, err, want)
		}
		if _, stderr, _ := runCmd(t, "", "export", "--db", dsn); strings.Contains(stderr, "indexing") {
			t.Errorf("indexed twice: %q", stderr)
		}
	})
}
