package logic

import (
	"slices"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

func TestFiguresOf(t *testing.T) {
	place := []Candidate{{Cell: 0, Digit: 1}}
	elim := []Candidate{{Cell: 1, Digit: 2}}
	for _, tc := range []struct {
		name   string
		r      Result
		ep, ed float64
		names  []string
	}{
		{"placement first", Result{Grade: 4.0, Steps: []Step{
			{Technique: "Hidden Single", Grade: 1.2, Placements: place},
			{Technique: "X-Wing", Grade: 3.2, Eliminations: elim},
			{Technique: "Hidden Single", Grade: 1.5, Placements: place},
			{Technique: "XY-Wing", Grade: 4.0, Eliminations: elim},
		}}, 1.2, 1.2, []string{"Hidden Single", "X-Wing", "XY-Wing"}},
		{"eliminations before the first placement", Result{Grade: 4.0, Steps: []Step{
			{Technique: "Pointing", Grade: 2.6, Eliminations: elim},
			{Technique: "XY-Wing", Grade: 4.0, Eliminations: elim},
			{Technique: "Naked Single", Grade: 2.3, Placements: place},
			{Technique: "Full House", Grade: 1.0, Placements: place},
		}}, 4.0, 2.6, []string{"Full House", "Naked Single", "Pointing", "XY-Wing"}},
		{"a technique met at two grades sorts by the lower", Result{Grade: 2.3, Steps: []Step{
			{Technique: "Naked Single", Grade: 2.3, Placements: place},
			{Technique: "Hidden Single", Grade: 1.5, Placements: place},
			{Technique: "Naked Single", Grade: 1.0, Placements: place},
		}}, 2.3, 2.3, []string{"Naked Single", "Hidden Single"}},
		{"stopped before any placement", Result{Grade: 9.5, Floor: true, Steps: []Step{
			{Technique: "Pointing", Grade: 2.6, Eliminations: elim},
		}}, 9.5, 2.6, []string{"Pointing"}},
		{"no step", Result{Grade: 7.0, Floor: true}, 7.0, 7.0, []string{}},
	} {
		f := FiguresOf(tc.r)
		if f.EP != tc.ep || f.ED != tc.ed || !slices.Equal(f.Techniques, tc.names) {
			t.Errorf("%s: ep %v ed %v %q, want %v %v %q", tc.name, f.EP, f.ED, f.Techniques, tc.ep, tc.ed, tc.names)
		}
	}
}

// TestGradeFigures grades real puzzles and checks the figures against
// their paths: grade_ed <= grade_ep <= grade, every technique once, the
// hardest among them, and the same figures for every way of writing a
// puzzle (the canonical form is graded).
func TestGradeFigures(t *testing.T) {
	racefree.Only(t)
	n := 60
	if testing.Short() {
		n = 15
	}
	for _, name := range []string{puzzletest.Top1465, puzzletest.Diabolical, puzzletest.Kaggle} {
		for _, line := range puzzletest.Lines(t, name, n) {
			g, err := sudoku.Parse(line)
			if err != nil {
				t.Fatal(err)
			}
			p, err := record.Rate(g, sudoku.Options{})
			if err != nil {
				t.Fatal(err)
			}
			GradePuzzle(&p)
			if p.GradeStatus != record.GradeDone || p.GradeEP == nil || p.GradeED == nil {
				t.Fatalf("%s: status %s, ep %v, ed %v", line, p.GradeStatus, p.GradeEP, p.GradeED)
			}
			if !(*p.GradeED <= *p.GradeEP && *p.GradeEP <= *p.Grade) {
				t.Errorf("%s: ed %v ep %v grade %v", line, *p.GradeED, *p.GradeEP, *p.Grade)
			}
			names := p.Techniques.Names()
			if len(names) == 0 || !p.GradeFloor && !slices.Contains(names, p.Technique) {
				t.Errorf("%s: techniques %q lack the hardest, %q", line, names, p.Technique)
			}
			seen := map[string]bool{}
			for _, n := range names {
				if seen[n] {
					t.Errorf("%s: %q listed twice in %q", line, n, names)
				}
				seen[n] = true
			}
		}
	}
}
