package logic

import (
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// TestBudget: the budget ends the grading of the forum's hardest puzzles
// (Sudoku Explainer 11+) with Floor set and the grade proven so far, and a
// smaller budget ends it sooner, never later in the ladder. How long the
// default budget takes is logged, not asserted (a shared machine, the race
// detector); BenchmarkForumBudget measures it.
func TestBudget(t *testing.T) {
	racefree.Only(t)
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
			if r.Grade < 6 || r.Technique == "" {
				t.Errorf("forum puzzle %d: floor grade %.1f (%q), want the grade proven so far", i, r.Grade, r.Technique)
			}
		}
		small, err := Solve(g, Options{Budget: DefaultBudget / 100})
		if err != nil {
			t.Fatal(err)
		}
		if !small.Floor || len(small.Steps) > len(r.Steps) {
			t.Errorf("forum puzzle %d: a hundredth of the budget gives %d steps, floor %v; the full budget %d steps",
				i, len(small.Steps), small.Floor, len(r.Steps))
		}
	}
	t.Logf("%d forum puzzles: worst %v, %d floors", n, worst, floors)
}

// BenchmarkForumBudget grades the first 50 of the forum's hardest puzzles,
// each stopped by the budget, and reports the slowest in milliseconds (the
// target: none over a second).
//
//	go test ./internal/logic -run '^$' -bench ForumBudget -benchtime 1x
func BenchmarkForumBudget(b *testing.B) {
	lines := puzzletest.Lines(b, puzzletest.Forum1905, 50)
	var worst time.Duration
	for b.Loop() {
		for _, p := range lines {
			g := parse(b, p)
			start := time.Now()
			if _, err := Solve(g, Options{}); err != nil {
				b.Fatal(err)
			}
			worst = max(worst, time.Since(start))
		}
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "worst-ms")
}
