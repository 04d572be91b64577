package archive

import (
	"context"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// Explanation is the logical path of an archived puzzle (logic.Explain):
// shared by every caller that asks for the puzzle, so never changed.
type Explanation struct {
	logic.Result
}

// size is an explanation's weight in the cache: its steps, at about the
// bytes a step takes with its sentence and cells.
func (e Explanation) size() int { return 1024 + 512*len(e.Steps) }

// explainCacheBytes bounds the explanations kept in memory: some
// thousands of paths.
const explainCacheBytes = 16 << 20

// Explain returns the logical path of the archived puzzle p, written as p
// is written (logic.Explain), computed once per puzzle in a turn of the
// search gate (of the read lane for a read: ForReader) and kept: an
// explanation asked again, or by another client, costs no search. The
// walk stops when ctx ends (a 503 with Retry-After, logic.ErrStopped). It
// also records the path's practice positions.
func (a *Archive) Explain(ctx context.Context, p record.Puzzle) (Explanation, error) {
	if !p.Unique {
		return Explanation{}, logic.ErrMultipleSolutions
	}
	return a.explains.get(ctx, p.Givens, func() (Explanation, error) {
		var e Explanation
		err := a.Searching(ctx, func() error {
			r, path, err := logic.ExplainContext(ctx, p)
			if err == nil {
				e.Result = r
				a.practice.walked(p.ID, path, "")
			}
			return err
		})
		return e, err
	})
}
