package archive

import (
	"context"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Canonical returns the canonical form of g (sudoku.Canonical), found in a
// turn of the search gate (of the read lane for a read: ForReader): the
// share link's look-up of the same puzzle written another way, and its
// check against the hidden classes. ok is false when the search failed (a
// grid with no solution, over the budget); err is the gate's refusal (no
// turn in time: ErrOverloaded, or ctx ended), which the caller answers as
// such, not as the puzzle's fault.
func (a *Archive) Canonical(ctx context.Context, g sudoku.Grid) (canon sudoku.Grid, ok bool, err error) {
	var cerr error
	err = a.Searching(ctx, func() error {
		canon, _, cerr = sudoku.Canonical(g, a.SolveOptions(ctx))
		return nil
	})
	return canon, err == nil && cerr == nil, err
}

// A Shared is a share link's puzzle that is not archived, ready to play:
// one search (not Rate's timed runs: a share link is a GET anyone can
// repeat, and the measures are taken when the puzzle is archived).
type Shared struct {
	Result sudoku.Result
	// Refused says why the givens are no puzzle to play (no givens, no
	// solution, a search over the budget); nil when they are one.
	Refused error
}

// SolveShared solves a share link's givens in a turn of the search gate
// (of the read lane for a read). What is wrong with the puzzle is in
// Shared.Refused; err is only the gate's refusal (ErrOverloaded, or ctx
// ended), so the caller tells a busy archive from a bad puzzle.
func (a *Archive) SolveShared(ctx context.Context, g sudoku.Grid) (Shared, error) {
	if g.Clues() == 0 {
		return Shared{Refused: record.ErrNoGivens}, nil
	}
	var sh Shared
	if err := a.Searching(ctx, func() error {
		sh.Result, sh.Refused = sudoku.Solve(g, a.SolveOptions(ctx))
		return nil
	}); err != nil {
		return Shared{}, err
	}
	if sh.Refused == nil && sh.Result.Solutions == 0 {
		sh.Refused = sudoku.ErrNoSolution
	}
	return sh, nil
}
