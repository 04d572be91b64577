package logic

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// positionPuzzles are puzzles whose paths meet most of the ladder: the
// diabolical collection, a few of the forum's top list (the chains) and
// the rated puzzles of TestGolden's rarer techniques.
func positionPuzzles(t *testing.T, diabolical, top int) []record.Puzzle {
	t.Helper()
	lines := puzzletest.Lines(t, puzzletest.Diabolical, diabolical)
	lines = append(lines, puzzletest.Lines(t, puzzletest.Top1465, top)...)
	rated := puzzletest.RatedPuzzles(t, 2294)
	for _, i := range []int{73, 74, 2293} {
		lines = append(lines, rated[i].Puzzle)
	}
	var ps []record.Puzzle
	for _, l := range lines {
		p, err := record.Rate(parse(t, l), sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	return ps
}

// TestPositions: every practice position of every technique a path uses
// is true on its board: the step is the solver's next step there (NextOn
// from the position's grid and candidates finds the same step), each
// elimination is a candidate of its cell and not the solution's digit,
// each placement is the solution's digit, and each link joins two
// candidates of the board.
func TestPositions(t *testing.T) {
	racefree.Only(t)
	checked := map[string]int{}
	for _, p := range positionPuzzles(t, 40, 6) {
		r, err := Explain(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range FiguresOf(r).Techniques {
			ps, err := Positions(p, name, 2)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) == 0 {
				t.Fatalf("puzzle %s: its path uses %s, no position", p.Givens, name)
			}
			for _, pos := range ps {
				checkPosition(t, p, name, pos)
				checked[name]++
			}
		}
	}
	if len(checked) < 25 {
		t.Errorf("only %d techniques checked: %v", len(checked), checked)
	}
	t.Logf("positions checked: %v", checked)
}

func checkPosition(t *testing.T, p record.Puzzle, name string, pos Position) {
	t.Helper()
	st := pos.Step
	where := func() string { return string(p.Givens.String()) + " " + name + ": " + st.Text }
	if st.Technique != name {
		t.Fatalf("%s: the step is a %s", where(), st.Technique)
	}
	for c := range 81 {
		if (pos.Grid[c] != 0) == (pos.Candidates[c] != 0) {
			t.Fatalf("%s: cell %d holds %d with candidates %b", where(), c, pos.Grid[c], pos.Candidates[c])
		}
		if pos.Grid[c] == 0 && pos.Candidates[c]&(1<<p.Solution[c]) == 0 {
			t.Fatalf("%s: cell %d lost its solution digit", where(), c)
		}
	}
	for _, e := range st.Eliminations {
		if pos.Candidates[e.Cell]&(1<<e.Digit) == 0 || int(p.Solution[e.Cell]) == e.Digit {
			t.Fatalf("%s: elimination %v is no candidate, or the solution's", where(), e)
		}
	}
	for _, pl := range st.Placements {
		if int(p.Solution[pl.Cell]) != pl.Digit || pos.Candidates[pl.Cell]&(1<<pl.Digit) == 0 {
			t.Fatalf("%s: placement %v is not the solution's", where(), pl)
		}
	}
	for _, l := range st.Links() {
		for _, x := range []Candidate{l.From, l.To} {
			if pos.Candidates[x.Cell]&(1<<x.Digit) == 0 {
				t.Fatalf("%s: link %v: %v is no candidate of the board", where(), l, x)
			}
		}
	}
	next, err := NextOn(p.Givens, pos.Grid, pos.Candidates, Options{})
	if err != nil {
		t.Fatalf("%s: NextOn: %v", where(), err)
	}
	// Where the technique applies in several places the solver may take
	// another first from a fresh board: the technique is what must agree,
	// or for the chains of one search (a Forcing Chain, a W-Wing, an
	// XY-Chain: one chain, named by its links) the grade.
	tc, _ := TechniqueByName(name)
	sameChain := tc.Family == "chains" && next.Grade == st.Grade
	if next.Technique != st.Technique && !sameChain {
		t.Fatalf("%s: from the position the solver's next step is %s", where(), next.Text)
	}
}

// TestStepsDrawn: every step of a chain, wing, fish or uniqueness pattern
// carries its cells, and every chain its links.
func TestStepsDrawn(t *testing.T) {
	racefree.Only(t)
	drawn := map[string]bool{"fish": true, "strong": true, "wings": true, "uniqueness": true, "exclusion": true, "chains": true}
	seen := map[string]bool{}
	for _, p := range positionPuzzles(t, 60, 8) {
		r, err := Explain(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range r.Steps {
			tc, _ := TechniqueByName(st.Technique)
			if !drawn[tc.Family] {
				continue
			}
			seen[st.Technique] = true
			if len(st.Cells) == 0 {
				t.Errorf("%s: no cells: %s", st.Technique, st.Text)
			}
			if tc.Family != "chains" && tc.Family != "strong" {
				continue
			}
			if links := st.Links(); len(links) == 0 {
				t.Errorf("%s: links %v: %s", st.Technique, links, st.Text)
			}
		}
	}
	t.Logf("drawn: %v", seen)
}
