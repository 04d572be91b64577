package main

import (
	"context"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/variant/varianttest"
)

// TestExportTXTSaysVariantsLeftOut: `sudoku export` as TXT writes the
// classic puzzles only and says on stderr how many variants it left out.
func TestExportTXTSaysVariantsLeftOut(t *testing.T) {
	eachArchive(t, func(t *testing.T, db string) {
		if _, _, err := runCmd(t, easy+"\n", "import", "--db", db, "-"); err != nil {
			t.Fatal(err)
		}
		vp := varianttest.Puzzle(t, "killer-nogivens-1")
		p, err := record.RateVariant(vp, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, err := store.Open(context.Background(), db)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Submit(context.Background(), p); err != nil {
			t.Fatal(err)
		}
		s.Close()
		out, errOut, err := runCmd(t, "", "export", "--db", db)
		if err != nil || !strings.HasPrefix(out, easy+"\n# 1 variant puzzles left out") || !strings.Contains(errOut, "1 variant puzzles left out") {
			t.Errorf("export: stdout %q, stderr %q, %v; want the classic puzzle, and the variant left out said on both", out, errOut, err)
		}
	})
}
