package record

import "github.com/sudoku-archive/sudoku/internal/sudoku"

// Analysis is what a setter learns of a grid: the fields of POST
// /api/analyse. Minimal is nil, Redundant empty and the grade's fields nil
// unless the grid has exactly one solution; Canonical and SameAs are nil
// for a grid without a solution.
type Analysis struct {
	Solutions  int          `json:"solutions"` // 0, 1 or 2 (two or more)
	Unique     bool         `json:"unique"`
	Clues      int          `json:"clues"`
	Minimal    *bool        `json:"minimal"`   // no given can go
	Redundant  []int        `json:"redundant"` // the cells (0-80) whose given can go, each alone
	Symmetry   string       `json:"symmetry"`  // see SymmetryOf
	Grade      *float64     `json:"grade"`
	GradeFloor bool         `json:"grade_floor"`
	GradeEP    *float64     `json:"grade_ep"`
	GradeED    *float64     `json:"grade_ed"`
	Technique  string       `json:"technique"`
	Techniques Techniques   `json:"techniques"`
	Canonical  *sudoku.Grid `json:"canonical"`
	SameAs     *int64       `json:"same_as"` // the first archived puzzle of the same class
	// GradeStatus is done (the figures above), pending (beyond a
	// request's budget: being graded, ask again) or none (no solution, or
	// several: no grade).
	GradeStatus GradeStatus `json:"grade_status"`
}
