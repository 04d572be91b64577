package archive

import (
	"context"
	"errors"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// A Hint is the next logical step on a player's board (Archive.Hint).
type Hint struct {
	Step logic.Step
	// Ignored lists the empty cells whose pencil marks leave out their
	// solution digit: no step holds on such a board, so the hint set
	// their marks aside (Marks shows none there).
	Ignored []int
	// Marks are the player's pencil marks the step was found with.
	Marks [81]uint16
}

// A WrongBoard is a player's board no step holds on: a changed given
// (Given is its cell, Cells nil) or digits that are not the solution's
// (their Cells; Given is -1).
type WrongBoard struct {
	Given int
	Cells []int
}

func (e *WrongBoard) Error() string {
	if e.Cells == nil {
		return fmt.Sprintf("progress changes the given at r%dc%d", e.Given/9+1, e.Given%9+1)
	}
	return fmt.Sprintf("%d digits of the board are not the solution's", len(e.Cells))
}

// Hint finds the next logical step on a player's board: progress is the
// givens plus the digits placed so far, marks the player's pencil marks
// (0 for a cell that shows none). It solves the givens in a turn of the
// search gate (of the read lane for a read: ForReader), then walks as the
// explanation walks (logic.NextFor: the puzzle's canonical form, the
// explanation's budget), so that on an untouched board the hint is the
// explanation's first step; beyond the budget it reveals one cell. It
// fails with sudoku.ErrNoSolution, logic.ErrMultipleSolutions, a
// *WrongBoard, logic.ErrSolved on a full board, or the gate's errors.
func (a *Archive) Hint(ctx context.Context, givens, progress sudoku.Grid, marks [81]uint16) (Hint, error) {
	var res sudoku.Result
	if err := a.Searching(ctx, func() error {
		var err error
		res, err = sudoku.Solve(givens, a.SolveOptions(ctx))
		return err
	}); err != nil {
		return Hint{}, err
	}
	switch res.Solutions {
	case 0:
		return Hint{}, sudoku.ErrNoSolution
	case 2:
		return Hint{}, logic.ErrMultipleSolutions
	}
	h := Hint{Ignored: marksMissing(progress, res.Solution, marks), Marks: marks}
	for _, c := range h.Ignored {
		h.Marks[c] = 0
	}
	if bad := boardRefused(givens, progress, res.Solution); bad != nil {
		return Hint{}, bad
	}
	var err error
	h.Step, err = a.nextStep(ctx, givens, res.Solution, progress, h.Marks)
	return h, err
}

// nextStep walks to the hint's step in a turn of the gate; beyond the
// budget (logic.ErrStuck) it reveals the first empty cell.
func (a *Archive) nextStep(ctx context.Context, givens, solution, progress sudoku.Grid, marks [81]uint16) (logic.Step, error) {
	var st logic.Step
	err := a.Searching(ctx, func() error {
		var err error
		st, err = logic.NextFor(givens, solution, progress, marks, logic.Options{Budget: logic.DeepBudget, Stop: ctx.Done()})
		return err
	})
	if errors.Is(err, logic.ErrStuck) {
		for i, v := range progress {
			if v == 0 {
				return logic.Reveal(i, int(solution[i])), nil
			}
		}
	}
	return st, err
}

// marksMissing lists the empty cells whose pencil marks leave out their
// solution digit.
func marksMissing(progress, solution sudoku.Grid, marks [81]uint16) []int {
	var bad []int
	for c := range 81 {
		if progress[c] == 0 && marks[c] != 0 && marks[c]&(1<<solution[c]) == 0 {
			bad = append(bad, c)
		}
	}
	return bad
}

// boardRefused says why no step holds on the player's board, or nil: a
// changed given or digits that are not the solution's.
func boardRefused(givens, progress, solution sudoku.Grid) *WrongBoard {
	var wrong []int
	for i, v := range progress {
		if givens[i] != 0 && v != givens[i] {
			return &WrongBoard{Given: i}
		}
		if v != 0 && v != solution[i] {
			wrong = append(wrong, i)
		}
	}
	if len(wrong) > 0 {
		return &WrongBoard{Given: -1, Cells: wrong}
	}
	return nil
}
