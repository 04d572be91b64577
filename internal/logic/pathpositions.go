package logic

import (
	"context"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// The graders' path with its practice positions: walking the path once
// gives the grade and, for every technique of the path, the board before
// its first step, so that practice boards are recorded when a puzzle is
// graded instead of searched again when a player asks for them.

// PathPosition is the board before the first step of a technique on a
// puzzle's path (Position), and the technique's name.
type PathPosition struct {
	Technique string
	Position
}

// ErrStopped is a path whose walk ended with its context (the caller gave
// up): no result.
var ErrStopped = stoppedError{}

type stoppedError struct{}

func (stoppedError) Error() string     { return "the logical solver stopped: its caller gave up" }
func (stoppedError) Kind() record.Kind { return record.KindTimeout }

// walkDeep walks the graders' path (DeepBudget) of the archived puzzle p
// until ctx ends, and returns it mapped back onto p as written, with the
// first position of each of its techniques. It fails with
// ErrMultipleSolutions for a puzzle with several solutions and ErrStopped
// when ctx ended first.
func walkDeep(ctx context.Context, p record.Puzzle) (Result, []PathPosition, error) {
	if !p.Unique {
		return Result{}, nil, ErrMultipleSolutions
	}
	c, t := sudoku.CanonicalSolved(p.Givens, p.Solution)
	back := t.Inverse()
	cell := back.Cell
	digit := func(d int) int { return int(back.Digit(uint8(d))) }
	var out []PathPosition
	seen := map[string]bool{}
	r := solveEach(newBoard(c), Options{Budget: DeepBudget, Stop: ctx.Done()}, func(b *board, st Step) bool {
		if seen[st.Technique] {
			return true
		}
		seen[st.Technique] = true
		var pos Position
		for i := range 81 {
			o := cell(i)
			if v := b.val[i]; v != 0 {
				pos.Grid[o] = uint8(digit(int(v)))
			}
			for _, d := range digitsOf(b.cand[i]) {
				pos.Candidates[o] |= 1 << digit(d)
			}
		}
		pos.Step = st.Map(cell, digit)
		out = append(out, PathPosition{st.Technique, pos})
		return true
	})
	if r.Stopped {
		return Result{}, nil, ErrStopped
	}
	for i := range r.Steps {
		r.Steps[i] = r.Steps[i].Map(cell, digit)
	}
	return r, out, nil
}

// ExplainContext is Explain ending when ctx does (ErrStopped), with the
// first position of each technique of the path: a request's explanation
// stops when its client gives up.
func ExplainContext(ctx context.Context, p record.Puzzle) (Result, []PathPosition, error) {
	return walkDeep(ctx, p)
}

// GradeDeepPositions grades p as GradeDeep does and returns the first
// position of each technique of its path, written as p is written (the
// archive's graders record them for practice). It reports false, with p
// ungraded, when ctx ended first.
func GradeDeepPositions(ctx context.Context, p *record.Puzzle) (bool, []PathPosition) {
	if !p.Unique || p.Solution == (sudoku.Grid{}) {
		return GradeDeep(ctx, p), nil
	}
	if c, _ := sudoku.CanonicalSolved(p.Givens, p.Solution); p.Canonical != (sudoku.Grid{}) && c != p.Canonical {
		// A row measured by another engine: grade it as GradeDeep does.
		return GradeDeep(ctx, p), nil
	}
	clearGrade(p, Version)
	r, out, err := walkDeep(ctx, *p)
	if err != nil {
		clearGrade(p, "")
		return false, nil
	}
	setGrade(p, r)
	return true, out
}
