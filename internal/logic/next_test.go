package logic

import (
	"errors"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
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
