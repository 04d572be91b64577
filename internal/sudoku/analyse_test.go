package sudoku

import (
	"slices"
	"testing"
)

// TestSymmetryOf names the symmetry of patterns made for each, and none.
func TestSymmetryOf(t *testing.T) {
	pattern := func(cells ...int) Grid {
		var g Grid
		for _, c := range cells {
			g[c] = 1
		}
		return g
	}
	at := func(r, c int) int { return r*9 + c }
	for _, tc := range []struct {
		name string
		g    Grid
		want string
	}{
		{"empty", Grid{}, "none"},
		{"centre", pattern(40), "rotational"},
		{"quarter turns", pattern(at(0, 1), at(1, 8), at(8, 7), at(7, 0)), "rotational"},
		{"half turn", pattern(at(0, 1), at(8, 7)), "central"},
		{"diagonal", pattern(at(0, 1), at(1, 0)), "diagonal"},
		{"anti-diagonal", pattern(at(0, 0), at(8, 8), at(0, 1), at(7, 8)), "anti-diagonal"},
		{"mirror", pattern(at(0, 0), at(0, 8), at(3, 4)), "mirror"},
		{"mirror-horizontal", pattern(at(0, 0), at(8, 0), at(4, 2)), "mirror-horizontal"},
		{"none", pattern(at(0, 0), at(0, 1)), "none"},
	} {
		if got := SymmetryOf(tc.g); got != tc.want {
			t.Errorf("%s: SymmetryOf = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestRedundant: a minimal puzzle has no redundant given; the same
// puzzle with one more given from its solution has exactly that one, and
// removing it leaves one solution while removing any other of its givens
// does not.
func TestRedundant(t *testing.T) {
	// A minimal 17-clue puzzle (Gordon Royle's list).
	g, err := Parse("000000010400000000020000000000050407008000300001090000300400200050100000000806000")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Solve(g, Options{})
	if err != nil || res.Solutions != 1 {
		t.Fatalf("Solve: %d solutions, %v", res.Solutions, err)
	}
	red, err := Redundant(g, res.Solution, Options{})
	if err != nil || len(red) != 0 {
		t.Fatalf("Redundant(17 clues) = %v, %v; want none", red, err)
	}
	extra := g
	cell := slices.Index(g[:], 0)
	extra[cell] = res.Solution[cell]
	red, err = Redundant(extra, res.Solution, Options{})
	if err != nil || !slices.Equal(red, []int{cell}) {
		t.Errorf("Redundant(17 + r1c1) = %v, %v; want [%d]", red, err, cell)
	}
	// Against the plain definition (remove the given, count the
	// solutions) on puzzles with givens to spare: the easy collection.
	for _, g := range append(readPuzzles(t, "testdata/norvig_easy50.txt")[:20], readPuzzles(t, "testdata/top1465_first20.txt")...) {
		res, _ := Solve(g, Options{})
		var want []int
		for i, v := range g {
			if v == 0 {
				continue
			}
			h := g
			h[i] = 0
			if r, _ := Solve(h, Options{}); r.Solutions == 1 {
				want = append(want, i)
			}
		}
		got, err := Redundant(g, res.Solution, Options{})
		if err != nil || !slices.Equal(got, want) && len(got)+len(want) > 0 {
			t.Errorf("Redundant(%s) = %v, %v; want %v", g, got, err, want)
		}
	}
}
