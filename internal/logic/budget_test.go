package logic

import (
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// TestBudget: no puzzle of the forum's hardest list takes a second; the
// budget stops it first with Floor set.
func TestBudget(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 5
	}
	var worst time.Duration
	floors := 0
	for i, p := range puzzletest.Lines(t, puzzletest.Forum1905, n) {
		g := parse(t, p)
		start := time.Now()
		r, err := Solve(g, Options{})
		el := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		worst = max(worst, el)
		if r.Floor {
			floors++
		}
		if el > time.Second {
			t.Errorf("forum puzzle %d took %v (grade %.1f floor %v)", i, el, r.Grade, r.Floor)
		}
	}
	t.Logf("%d forum puzzles: worst %v, %d floors", n, worst, floors)
}
