package bulk

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// variantRow returns a variant puzzle's row: the test set's first killer,
// read from the variant package's test data.
func variantRow(t *testing.T) record.Puzzle {
	t.Helper()
	p, err := record.RateVariant(varianttest.Puzzle(t, "killer-nogivens-1"), sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExportTXTLeavesVariantsOut: a TXT export, from a store of either
// database (GivensSource and VariantCounter) and from a plain Source,
// holds the classic puzzles' 81-character lines and ends with a comment
// that counts the variants it left out; JSON holds them all.
func TestExportTXTLeavesVariantsOut(t *testing.T) {
	for _, c := range []struct {
		name string
		dsn  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "sudoku.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.NewDB(t) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			db := mustOpenDB(t, c.dsn(t))
			classic := filled(t, 3).puzzles
			ps := append(classic, variantRow(t))
			if _, err := db.AddMany(ctx, ps); err != nil {
				t.Fatal(err)
			}
			checkTXTLeftOut(t, "store", db, record.ListQuery{}, len(classic), 1)
			checkTXTLeftOut(t, "plain source", plainSource{db}, record.ListQuery{}, len(classic), 1)
			var out bytes.Buffer
			if n, err := Export(ctx, db, &out, JSON, record.ListQuery{}); err != nil || n != int64(len(ps)) {
				t.Errorf("JSON export: %d puzzles, %v; want %d", n, err, len(ps))
			}
			checkTXTLeftOut(t, "variant filter", db, record.ListQuery{Variant: "killer"}, 0, 1)
		})
	}
}

// plainSource is a Source without the store's other methods.
type plainSource struct{ src Source }

func (p plainSource) Export(ctx context.Context, q record.ListQuery, fn func(record.Puzzle) error) error {
	return p.src.Export(ctx, q, fn)
}

// checkTXTLeftOut exports src as TXT: classic lines of 81 characters,
// then the comment counting the variants left out.
func checkTXTLeftOut(t *testing.T, how string, src Source, q record.ListQuery, classic, variants int) {
	t.Helper()
	var out bytes.Buffer
	r, err := ExportReport(context.Background(), src, &out, TXT, q, "")
	if err != nil || r.Written != int64(classic) || r.VariantsLeftOut != int64(variants) {
		t.Fatalf("%s: TXT export wrote %d puzzles, left out %d, %v; want %d and %d", how, r.Written, r.VariantsLeftOut, err, classic, variants)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != classic+1 {
		t.Fatalf("%s: %d lines, want %d and the comment:\n%s", how, len(lines), classic, out.String())
	}
	for _, l := range lines[:classic] {
		if len(l) != 81 {
			t.Errorf("%s: line %q is not 81 characters", how, l)
		}
	}
	if want := fmt.Sprintf(VariantsLeftOut, variants); lines[classic] != want {
		t.Errorf("%s: last line %q, want %q", how, lines[classic], want)
	}
}

// TestGradersNeverGradeVariants: the grading pipeline's one step
// (classGrades.grade) never hands a variant to the classic solver; the
// row comes back ungraded with record.VariantUngraded.
func TestGradersNeverGradeVariants(t *testing.T) {
	p := variantRow(t)
	var c classGrades
	c.grade(&p, func(*record.Puzzle) { t.Fatal("the classic solver was handed a variant") })
	if p.GradeVersion != record.VariantUngraded || p.Grade != nil || p.GradeStatus != record.GradeNone {
		t.Errorf("variant after the graders: version %q grade %v status %s", p.GradeVersion, p.Grade, p.GradeStatus)
	}
}
