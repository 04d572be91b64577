package store

// variant_test.go: variant puzzles on both stores (issue 47): their
// columns written and read by every road, their keys (givens + rules),
// the rows the store refuses, the variant filter and its total, and the
// classic engine and solver kept off them. Each case runs on SQLite and
// PostgreSQL (TestVariants).

import (
	"context"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// variantSuite is the variant cases, run on each store.
var variantSuite = []suiteCase{
	{"VariantRoundTrip", testVariantRoundTrip},
	{"VariantBulkRoads", testVariantBulkRoads},
	{"VariantIdentity", testVariantIdentity},
	{"VariantClassicKeysUnchanged", testVariantClassicKeysUnchanged},
	{"VariantRefused", testVariantRefused},
	{"VariantFilter", testVariantFilter},
	{"VariantBrowse", testVariantBrowse},
	{"VariantNotGraded", testVariantNotGraded},
	{"VariantMigration", testVariantMigration},
	{"VariantCopyAndHide", testVariantCopyAndHide},
}

// TestVariants runs variantSuite on SQLite and PostgreSQL.
func TestVariants(t *testing.T) {
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		t.Run(bk.name, func(t *testing.T) {
			t.Parallel()
			runCases(t, bk, variantSuite)
		})
	}
}

// variantRow returns the archive's row of the test puzzle name, rated.
func variantRow(t *testing.T, name string) record.Puzzle {
	t.Helper()
	p, err := record.RateVariant(varianttest.Puzzle(t, name), sudoku.Options{})
	if err != nil {
		t.Fatalf("rate %s: %v", name, err)
	}
	return p
}

// checkVariantRead fails unless got, a row read back, holds want's
// variant columns, its links and no grade.
func checkVariantRead(t *testing.T, how string, got, want record.Puzzle) {
	t.Helper()
	if got.Rules != want.Rules || got.CanonicalRules != want.CanonicalRules || got.Variant != want.Variant ||
		got.Title != want.Title || got.Author != want.Author || got.Givens != want.Givens || got.Clues != want.Givens.Clues() {
		t.Errorf("%s: read back rules %.40q canonical %.40q variant %q title %q author %q clues %d; want %.40q %.40q %q %q %q %d",
			how, got.Rules, got.CanonicalRules, got.Variant, got.Title, got.Author, got.Clues,
			want.Rules, want.CanonicalRules, want.Variant, want.Title, want.Author, want.Givens.Clues())
	}
	if got.FPuzzles == "" || got.FPuzzles != want.FPuzzles || got.SudokuPad != want.SudokuPad {
		t.Errorf("%s: links %.50q %.50q, want %.50q %.50q", how, got.FPuzzles, got.SudokuPad, want.FPuzzles, want.SudokuPad)
	}
	if got.GradeStatus != record.GradeNone || got.Grade != nil || got.GradeVersion != record.VariantUngraded {
		t.Errorf("%s: grade %v status %s version %q, want none, no grade, %q", how, got.Grade, got.GradeStatus, got.GradeVersion, record.VariantUngraded)
	}
}

// testVariantRoundTrip: a killer without givens (0 clues) with a title
// and an author, submitted and read back with every variant column, its
// links, and no grade.
func testVariantRoundTrip(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p := variantRow(t, "killer-nogivens-1")
	p.Title, p.Author = "Cages, no givens", "A Setter"
	p.SetLinks()
	stored, dup, err := db.Submit(ctx, p)
	if err != nil || dup {
		t.Fatalf("Submit: %v (duplicate %v)", err, dup)
	}
	checkVariantRead(t, "Submit's row", stored, p)
	got, err := db.Puzzle(ctx, stored.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkVariantRead(t, "Puzzle", got, p)
	var n int
	err = db.Export(ctx, record.ListQuery{}, func(e record.Puzzle) error {
		n++
		checkVariantRead(t, "Export", e, p)
		return nil
	})
	if err != nil || n != 1 {
		t.Errorf("Export: %d rows, %v", n, err)
	}
	if st, err := db.Stats(ctx); err != nil || st.Total != 1 {
		t.Errorf("Stats with a puzzle of 0 clues: %+v, %v", st, err)
	}
}

// testVariantBulkRoads: SubmitMany, AddMany and a Batch write the variant
// columns as Submit does.
func testVariantBulkRoads(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	many := []record.Puzzle{variantRow(t, "thermo-1"), variantRow(t, "mix-5")}
	if dup, err := db.SubmitMany(ctx, many); err != nil || dup[0] || dup[1] {
		t.Fatalf("SubmitMany: %v %v", dup, err)
	}
	added := []record.Puzzle{variantRow(t, "arrow-1"), variantRow(t, "thermo-1")}
	if dup, err := db.AddMany(ctx, added); err != nil || dup[0] || !dup[1] {
		t.Fatalf("AddMany: %v %v, want the thermo a duplicate", dup, err)
	}
	b, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	batched := variantRow(t, "killer-nogivens-2")
	if err := b.Add([]record.Puzzle{batched}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []record.Puzzle{many[0], many[1], added[0], batched} {
		checkVariantRead(t, "row of "+string(p.Variant), rowOf(t, db, p), p)
	}
}

// rowOf reads back the archived row of p, found by its givens key.
func rowOf(t *testing.T, db *DB, p record.Puzzle) record.Puzzle {
	t.Helper()
	var id int64
	if err := db.reader.QueryRow(db.d.sql("SELECT id FROM puzzles WHERE givens_key = ?"), p.GivensKey()).Scan(&id); err != nil {
		t.Fatalf("row of %s %s: %v", p.Givens, p.Variant, err)
	}
	got, err := db.Puzzle(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return got
}
