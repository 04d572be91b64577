package bulk

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestGradeOncePerClass archives puzzles each written several ways, in a
// shuffled order, and grades them in small pages: the solver runs once a
// class, and every row carries the grade the solver gives its own givens.
func TestGradeOncePerClass(t *testing.T) {
	ctx := context.Background()
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "grade.db"))
	rng := rand.New(rand.NewPCG(9, 10))
	var ps []record.Puzzle
	classes := map[sudoku.Grid]bool{}
	add := func(g sudoku.Grid) {
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
		classes[p.Canonical] = true
	}
	// Diabolical puzzles: graded in about a second under -race each (the
	// test grades every row again for its own grade; top1465's took 215 s).
	for _, line := range puzzletest.Lines(t, puzzletest.Diabolical, 12) {
		g, _ := sudoku.Parse(line)
		for range 4 {
			add(g)
			g = relabel(g, rng)
		}
	}
	// A puzzle with several solutions, written two ways: no grade, but
	// graded all the same.
	g, _ := sudoku.Parse(puzzletest.Lines(t, puzzletest.Diabolical, 13)[12])
	for i, n := 0, 0; n < 8; i++ {
		if g[i] != 0 {
			g[i], n = 0, n+1
		}
	}
	add(g)
	add(relabel(g, rng))
	if ps[len(ps)-1].Unique {
		t.Fatal("the puzzle with givens removed still has one solution")
	}
	rng.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	if _, err := db.AddMany(ctx, ps); err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	calls := map[sudoku.Grid]int{}
	counted := func(p *record.Puzzle) {
		mu.Lock()
		calls[p.Canonical]++
		mu.Unlock()
		logic.GradePuzzle(p)
	}
	n, err := Grade(ctx, db, counted, PassOptions{Page: 5, Workers: 1})
	if err != nil || n != int64(len(ps)) {
		t.Fatalf("graded %d rows, %v; want %d", n, err, len(ps))
	}
	for c := range classes {
		if calls[c] != 1 {
			t.Errorf("class %s graded %d times, want once", c, calls[c])
		}
	}
	for _, p := range ps {
		got, err := db.PuzzleByGivens(ctx, p.Givens)
		if err != nil {
			t.Fatal(err)
		}
		want := p
		logic.GradePuzzle(&want)
		if got.GradeVersion != want.GradeVersion || got.Technique != want.Technique ||
			got.GradeFloor != want.GradeFloor || (got.Grade == nil) != (want.Grade == nil) ||
			(got.Grade != nil && *got.Grade != *want.Grade) {
			t.Errorf("%s: grade %v %q %v %q, its own %v %q %v %q", p.Givens,
				got.Grade, got.Technique, got.GradeFloor, got.GradeVersion,
				want.Grade, want.Technique, want.GradeFloor, want.GradeVersion)
		}
	}
	if n, err := db.CountUngraded(ctx); err != nil || n != 0 {
		t.Errorf("%d rows still ungraded, %v", n, err)
	}
}
