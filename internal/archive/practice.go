package archive

import (
	"context"
	"errors"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TechniqueStore is what practice boards need of the store (*store.DB
// provides it): the technique index.
type TechniqueStore interface {
	// UsingTechnique returns up to limit puzzles whose path uses name.
	UsingTechnique(ctx context.Context, name string, limit int) ([]record.Puzzle, error)
}

// ErrNoTechniques is PracticeBoards on an archive whose store keeps no
// technique index (Options.Techniques nil).
var ErrNoTechniques = errors.New("this archive keeps no technique index")

// puzzlesPerBoard is how many puzzles using the technique are read for
// each board asked: a hidden or changed puzzle gives none.
const puzzlesPerBoard = 2

// PracticeBoard is a board at which a technique is the next step, and the
// puzzle it comes from.
type PracticeBoard struct {
	Puzzle record.Puzzle
	logic.Position
}

// PracticeBoards finds up to limit boards of technique t, one a puzzle,
// each puzzle's path solved in a turn of the search gate: the boards of
// the puzzles using t, from the skip-th on (GET
// /api/techniques/{slug}/practice, the practice page).
func (a *Archive) PracticeBoards(ctx context.Context, t logic.Technique, skip, limit int) ([]PracticeBoard, error) {
	if a.techniques == nil {
		return nil, ErrNoTechniques
	}
	puzzles, err := a.techniques.UsingTechnique(ctx, t.Name, min((skip+limit)*puzzlesPerBoard, record.MaxLimit))
	if err != nil {
		return nil, fmt.Errorf("puzzles using %s: %w", t.Name, err)
	}
	var out []PracticeBoard
	for _, p := range puzzles[min(skip, len(puzzles)):] {
		if len(out) == limit {
			break
		}
		if !p.Unique {
			continue
		}
		var found []logic.Position
		if err := a.Searching(ctx, func() error {
			var err error
			found, err = logic.Positions(p, t.Name, 1)
			return err
		}); err != nil {
			return nil, fmt.Errorf("practice positions of puzzle %d: %w", p.ID, err)
		}
		for _, pos := range found {
			out = append(out, PracticeBoard{p, pos})
		}
	}
	return out, nil
}
