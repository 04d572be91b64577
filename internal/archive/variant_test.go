package archive

import (
	"errors"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/puzzletext"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/textrule"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// killerNoGivens is a killer without givens of the variant engine's test
// set (internal/variant/testdata/puzzles.txt, CC0): read from there so the
// test holds whatever the set holds.
func killerNoGivens(t *testing.T) puzzletext.Puzzle {
	t.Helper()
	return variantFromSet(t, "killer-nogivens-1")
}

func variantFromSet(t *testing.T, name string) puzzletext.Puzzle {
	t.Helper()
	p, err := puzzletext.Read(puzzletest.VariantText(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSubmitVariant: a variant without givens is rated by the variant
// engine, its rules, title, author and links kept, counted by its road;
// a classic grid without givens is still ErrNoGivens; a title the text
// rule refuses and a rule that cannot stand store nothing.
func TestSubmitVariant(t *testing.T) {
	m := &memStore{}
	a := New(Options{Store: m})
	p := killerNoGivens(t)
	p.Title, p.Author = " Cage match ", "Ann"
	got, dup, err := a.Submit(t.Context(), FromText(RoadAPI, p, 3))
	if err != nil || dup {
		t.Fatalf("killer: dup %v, %v", dup, err)
	}
	if got.Rules == "" || got.Variant != "killer" || got.Title != "Cage match" || got.Author != "Ann" ||
		got.Solutions != 1 || got.FPuzzles == "" || got.SudokuPad == "" || got.SubmitterID != 3 {
		t.Errorf("killer stored as %+v", got)
	}
	if fresh, _ := a.Submitted(RoadAPI); fresh != 1 {
		t.Errorf("api counted %d, want 1", fresh)
	}
	if _, _, err := a.Submit(t.Context(), Submission{Road: RoadAPI}); !errors.Is(err, record.ErrNoGivens) {
		t.Errorf("empty classic grid: %v", err)
	}
	bad := FromText(RoadForm, p, 0)
	bad.Title = "a\x00b"
	var te *textrule.Error
	if _, _, err := a.Submit(t.Context(), bad); !errors.As(err, &te) || record.KindOf(err) != record.KindInvalid {
		t.Errorf("NUL in title: %v", err)
	}
	bad = FromText(RoadForm, p, 0)
	bad.Author = strings.Repeat("a", puzzletext.MaxAuthor+1)
	if _, _, err := a.Submit(t.Context(), bad); record.KindOf(err) != record.KindInvalid {
		t.Errorf("long author: %v", err)
	}
	overlap := Submission{Road: RoadForm, Rules: []variant.Rule{
		{Type: variant.Killer, Cells: []variant.Cell{0, 1}}, {Type: variant.Killer, Cells: []variant.Cell{1, 2}}}}
	var re *variant.RuleError
	if _, _, err := a.Submit(t.Context(), overlap); !errors.As(err, &re) || record.KindOf(err) != record.KindUnprocessable {
		t.Errorf("overlapping cages: %v", err)
	}
	if len(m.puzzles) != 1 {
		t.Errorf("%d puzzles stored, want 1", len(m.puzzles))
	}
	if fresh, dups := a.Submitted(RoadForm); fresh+dups != 0 {
		t.Errorf("refused submissions counted")
	}
}
