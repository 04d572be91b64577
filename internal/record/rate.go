package record

import "github.com/sudoku-archive/sudoku/internal/sudoku"

// Rate measures g with the engine (sudoku.Rate, which says what each
// figure means and how it fails) and returns the archive's row of it: the
// measures, no grade yet (GradeStatus pending, Band "": package logic
// grades) and none of the archive's own fields.
func Rate(g sudoku.Grid, opt sudoku.Options) (Puzzle, error) {
	m, err := sudoku.Rate(g, opt)
	if err != nil {
		return Puzzle{}, err
	}
	return FromMeasures(m), nil
}

// FromMeasures returns the archive's row of what the engine measured.
func FromMeasures(m sudoku.Measures) Puzzle {
	p := Puzzle{
		Givens: m.Givens, Canonical: m.Canonical, Solution: m.Solution, Clues: m.Clues,
		Solutions: m.Solutions, Unique: m.Solutions == 1,
		Backtracks: m.Backtracks, Guesses: m.Guesses, Nodes: m.Nodes,
		SolveNS: m.SolveNS, EngineVersion: m.EngineVersion,
	}
	p.SetGradeStatus()
	return p
}
