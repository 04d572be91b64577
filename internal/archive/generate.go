package archive

import (
	"context"
	"time"

	"github.com/sudoku-archive/sudoku/internal/generate"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// Generate makes a new puzzle for req within budget, in a turn of the
// search gate, and archives it by RoadGenerate. A target not met in time
// is a *generate.MissError, returned as it is. req.MaxNodes 0 means the
// archive's budget.
func (a *Archive) Generate(ctx context.Context, req generate.Request, budget time.Duration) (record.Puzzle, error) {
	if req.MaxNodes <= 0 {
		req.MaxNodes = a.budget
	}
	var p record.Puzzle
	err := a.Searching(ctx, func() error {
		gctx, cancel := context.WithTimeout(ctx, budget)
		defer cancel()
		var err error
		p, _, err = generate.Generate(gctx, req)
		return err
	})
	if err != nil {
		return p, err
	}
	stored, _, err := a.SubmitRated(ctx, RoadGenerate, p)
	return stored, err
}
