package bulk

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestRated: a puzzle goes through its compact form unchanged, whether
// the form holds it (Rate's puzzles) or keeps it whole.
func TestRated(t *testing.T) {
	_, lines := collection(t, puzzletest.Norvig, 5)
	for _, line := range lines {
		p := mustRate(t, line)
		r := compact(&p)
		if r.full != nil {
			t.Errorf("%s: kept whole", line)
		}
		if diff := cmp.Diff(p, r.puzzle()); diff != "" {
			t.Errorf("%s (-want +got):\n%s", line, diff)
		}
		graded := p
		graded.SetGradeTenths(72)
		graded.Technique, graded.GradeVersion = "X-Wing", "1"
		odd := p
		odd.Clues++
		for _, q := range []record.Puzzle{graded, odd} {
			r := compact(&q)
			if r.full == nil {
				t.Errorf("%s: %+v not kept whole", line, q)
			}
			if diff := cmp.Diff(q, r.puzzle()); diff != "" {
				t.Errorf("%s (-want +got):\n%s", line, diff)
			}
		}
	}
}
