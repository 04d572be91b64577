package logic

import (
	"errors"
	"reflect"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

func TestNext(t *testing.T) {
	p := puzzletest.Lines(t, puzzletest.Diabolical, 1)[0]
	g := parse(t, p)
	r, err := Solve(g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := NextSolved(g, g, Options{})
	if err != nil || st.Text != r.Steps[0].Text {
		t.Fatalf("NextSolved from the givens: %v %q, want %q", err, st.Text, r.Steps[0].Text)
	}
	// Progress: the solution's digits of the first ten placements.
	res, _ := sudoku.Solve(g, sudoku.Options{})
	prog := g
	n := 0
	for c := range 81 {
		if prog[c] == 0 && n < 10 {
			prog[c] = res.Solution[c]
			n++
		}
	}
	st, err = NextSolved(g, prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range st.Placements {
		if res.Solution[pl.Cell] != uint8(pl.Digit) {
			t.Fatalf("unsound hint %q", st.Text)
		}
	}
	if _, err := NextSolved(g, res.Solution, Options{}); !errors.Is(err, ErrSolved) {
		t.Errorf("full grid: %v, want ErrSolved", err)
	}
	var empty sudoku.Grid
	if _, err := NextSolved(g, empty, Options{}); !errors.Is(err, ErrProgress) {
		t.Errorf("givens dropped: %v, want ErrProgress", err)
	}
	if _, err := Solve(empty, Options{}); !errors.Is(err, ErrMultipleSolutions) {
		t.Errorf("empty grid: %v, want ErrMultipleSolutions", err)
	}
}

// TestHintIsFirstStep checks that a hint on an untouched board is the
// explanation's first step (issue 46: a hint on a puzzle graded 11.1
// offered a step that was not), on puzzles easy and hard, each written as
// its collection writes it, not in its canonical form; and that with
// DefaultBudget the hint is that step or none (ErrStuck), never another.
func TestHintIsFirstStep(t *testing.T) {
	racefree.Only(t)
	n := 4
	if testing.Short() {
		n = 1
	}
	var ps []string
	for _, c := range []struct {
		name string
		n    int
	}{{puzzletest.Kaggle, 100}, {puzzletest.Norvig, 50}, {puzzletest.SeventeenClue, 100}, {puzzletest.Diabolical, 200}, {puzzletest.Top1465, 100}} {
		ps = append(ps, puzzletest.Lines(t, c.name, c.n*n/4)...)
	}
	// the puzzle of the report, graded 11.1, and a few more of the hardest
	ps = append(ps, "98.7..6..75..4......3..8.7.5....7.3...94.........2.1..3.......1.9...5.8...52....6")
	for _, r := range puzzletest.RatedFile(t, puzzletest.Forum1905Rate, n) {
		ps = append(ps, r.Puzzle)
	}
	stuck := 0
	for _, s := range ps {
		g := parse(t, s)
		res, err := sudoku.Solve(g, sudoku.Options{})
		if err != nil || res.Solutions != 1 {
			t.Fatalf("%s: %v, %d solutions", s, err, res.Solutions)
		}
		r, err := Explain(record.Puzzle{Givens: g, Solution: res.Solution, Unique: true})
		if err != nil {
			t.Fatal(err)
		}
		want := r.Steps[0]
		got, err := NextFor(g, res.Solution, g, [81]uint16{}, Options{Budget: DeepBudget})
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: hint %v %q, explanation's first step %q", s, err, got.Text, want.Text)
		}
		got, err = NextFor(g, res.Solution, g, [81]uint16{}, Options{})
		switch {
		case errors.Is(err, ErrStuck):
			stuck++
		case err != nil || !reflect.DeepEqual(got, want):
			t.Errorf("%s: hint within DefaultBudget %v %q, explanation's first step %q", s, err, got.Text, want.Text)
		}
	}
	t.Logf("%d puzzles; within DefaultBudget %d hints found nothing", len(ps), stuck)
}
