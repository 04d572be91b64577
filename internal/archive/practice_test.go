package archive

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// indexStore is a technique index in memory: the puzzles whose path uses
// each technique, in id order.
type indexStore struct{ ps []record.Puzzle }

func (x *indexStore) UsingTechnique(_ context.Context, name string, limit int) ([]record.Puzzle, error) {
	var out []record.Puzzle
	for _, p := range x.ps {
		if slices.Contains(p.Techniques.Names(), name) && len(out) < limit {
			out = append(out, p)
		}
	}
	return out, nil
}

// gradedPuzzles rates n puzzles of a test collection, with ids, ungraded.
func gradedPuzzles(t *testing.T, n int) []record.Puzzle {
	var ps []record.Puzzle
	for i, l := range puzzletest.Lines(t, "sudokuexchange_diabolical_even.txt", n) {
		g, err := sudoku.Parse(l)
		if err != nil {
			t.Fatal(err)
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.ID = int64(i + 1)
		ps = append(ps, p)
	}
	return ps
}

// TestGradersFillPractice: the grades the graders give (GradeDeep) are
// logic.GradeDeep's, and record each path's practice boards, so practice
// answers every technique of the graded paths without walking a path
// (the walker never starts); each board's step is the technique's, and
// its board the one Positions gives on the graders' path.
func TestGradersFillPractice(t *testing.T) {
	x := &indexStore{}
	a := New(Options{Store: &memStore{}, Techniques: x})
	ctx := t.Context()
	for _, p := range gradedPuzzles(t, 6) {
		want := p
		if !logic.GradeDeep(ctx, &want) || !a.GradeDeep(ctx, &p) {
			t.Fatal("a grade stopped")
		}
		if *p.Grade != *want.Grade || p.Techniques != want.Techniques || p.GradeVersion != want.GradeVersion {
			t.Fatalf("puzzle %d: grade %v %q, GradeDeep's %v %q", p.ID, *p.Grade, p.Techniques, *want.Grade, want.Techniques)
		}
		x.ps = append(x.ps, p)
	}
	checked := 0
	for _, tech := range logic.Techniques() {
		ps, _ := x.UsingTechnique(ctx, tech.Name, 40)
		boards, err := a.PracticeBoards(ctx, tech, 0, MaxPracticeBoards)
		if err != nil || len(boards) != len(ps) {
			t.Errorf("%s: %d boards (%v), %d puzzles use it", tech.Name, len(boards), err, len(ps))
		}
		for _, b := range boards {
			if b.Step.Technique != tech.Name || b.Puzzle.Givens.Clues() == 0 {
				t.Errorf("%s: board of puzzle %d steps %q", tech.Name, b.Puzzle.ID, b.Step.Technique)
			}
			for c, v := range b.Puzzle.Givens {
				if v != 0 && b.Grid[c] != v || b.Grid[c] != 0 && b.Grid[c] != b.Puzzle.Solution[c] {
					t.Fatalf("%s: puzzle %d cell %d: %d on the board", tech.Name, b.Puzzle.ID, c, b.Grid[c])
				}
			}
		}
		checked += len(boards)
	}
	a.practice.mu.Lock()
	walked := a.practice.running || len(a.practice.done) > 0
	a.practice.mu.Unlock()
	if walked {
		t.Error("the walker walked paths the graders had recorded")
	}
	if checked < 20 {
		t.Errorf("only %d boards: a poor test", checked)
	}
}

// TestPracticeWalksWhatNoGraderRecorded: puzzles graded before the start
// (no boards) are walked in the background, and a request answers them
// once the walker is done; a started archive walks them before anyone
// asks; a stopped archive starts no walker.
func TestPracticeWalksWhatNoGraderRecorded(t *testing.T) {
	x := &indexStore{}
	for _, p := range gradedPuzzles(t, 3) {
		logic.GradeDeep(t.Context(), &p)
		x.ps = append(x.ps, p)
	}
	a := New(Options{Store: &memStore{}, Techniques: x})
	tech, _ := logic.TechniqueByName(logic.HiddenSingle)
	var boards []PracticeBoard
	waitFor(t, func() bool {
		var err error
		boards, err = a.PracticeBoards(t.Context(), tech, 0, 3)
		return err == nil && len(boards) == 3
	})
	a.Stop()

	// Started, an archive prepares them before anyone asks.
	w := New(Options{Store: &memStore{}, Techniques: x, NoDaily: true})
	ctx, cancel := context.WithCancel(t.Context())
	wait := w.Start(ctx)
	waitFor(t, func() bool {
		boards, missing, _ := w.practice.collect(logic.HiddenSingle, x.ps, 0, 3)
		return len(boards) == 3 && len(missing) == 0
	})
	cancel()
	wait()

	b := New(Options{Store: &memStore{}, Techniques: x})
	b.Stop()
	if _, err := b.PracticeBoards(t.Context(), tech, 0, 3); !errors.Is(err, ErrPracticePending) {
		t.Errorf("a stopped archive: %v, want ErrPracticePending", err)
	}
}
