package templates

import (
	"encoding/json"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// NavTechniques is the "Techniques" entry of the navigation.
const NavTechniques = "techniques"

// TechniqueInfo is one technique of the ladder with the archive's counts.
type TechniqueInfo struct {
	logic.Technique
	Description string
	Puzzles     int64 // puzzles whose path uses it
	Hardest     int64 // puzzles that need it as their hardest
}

// GradeText writes the technique's grade, a range when it varies.
func (t TechniqueInfo) GradeText() string {
	g := strconv.FormatFloat(t.Grade, 'f', 1, 64)
	if t.Top > t.Grade {
		g += "–" + strconv.FormatFloat(t.Top, 'f', 1, 64)
	}
	return g
}

// URL is the technique's page.
func (t TechniqueInfo) URL() string { return "/techniques/" + t.Slug }

// SearchURL lists the puzzles whose path uses the technique.
func (t TechniqueInfo) SearchURL() string {
	return "/puzzles?technique=" + t.Slug + "&sort=grade&order=asc"
}

// TechniquesView is the /techniques page.
type TechniquesView struct {
	Rows []TechniqueInfo
}

// TechniqueView is the page of one technique.
type TechniqueView struct {
	Info     TechniqueInfo
	Example  *ExampleStep    // nil when no archived puzzle shows the technique
	Practice []record.Puzzle // puzzles whose hardest technique it is, easiest first
	// Boards is how many practice boards the practice page offers (at
	// most 20, from as many puzzles): the offer is made only when there
	// are some.
	Boards int
}

// PracticeURL opens p in practice mode for the technique.
func (v TechniqueView) PracticeURL(p record.Puzzle) string {
	return PuzzleURL(p.ID) + "?practice=" + v.Info.Slug
}

// ExampleStep is a step of a technique on an archived puzzle's logical
// path: the puzzle, the steps before it (which give the board it is taken
// on) and the step.
type ExampleStep struct {
	Puzzle record.Puzzle
	Before []logic.Step
	Step   logic.Step
}

// StepCell is one cell of the board an example step is drawn on.
type StepCell struct {
	Index   int
	Value   uint8
	Given   bool
	Hot     bool       // one of the step's cells
	Marks   [10]string // per digit 1-9: "on", "struck" (the step removes it), "good" (the step places it) or ""
	Label   string     // for screen readers
	Classes string
}

// Cells replays the steps before the example on the givens and returns
// the board the step is taken on, with the step's cells highlighted, the
// candidates it removes struck and the digits it places picked out: the
// explanation's board (explain.js), drawn on the server.
func (e ExampleStep) Cells() []StepCell {
	values, cands := e.board()
	return boardCells(e.Puzzle.Givens, values, cands, &e.Step)
}

// Drawing is the example step's pattern drawn over its board.
func (e ExampleStep) Drawing() StepDrawing {
	_, cands := e.board()
	return DrawStep(e.Step, cands)
}

// board replays the steps before the example: the digits placed and the
// candidates left.
func (e ExampleStep) board() ([81]uint8, [81]uint16) {
	var values [81]uint8
	copy(values[:], e.Puzzle.Givens[:])
	var cands [81]uint16
	for i := range 81 {
		if values[i] == 0 {
			cands[i] = 0x3FE
		}
	}
	place := func(cell, d int) {
		values[cell] = uint8(d)
		cands[cell] = 0
		for _, p := range peers[cell] {
			cands[p] &^= 1 << d
		}
	}
	for i := range 81 {
		if values[i] != 0 {
			place(i, int(values[i]))
		}
	}
	for _, st := range e.Before {
		for _, p := range st.Placements {
			place(p.Cell, p.Digit)
		}
		for _, x := range st.Eliminations {
			cands[x.Cell] &^= 1 << x.Digit
		}
	}
	return values, cands
}

// boardCells draws a board: the digits placed (givens apart), the
// candidates left and, when st is not nil, the step on it (its cells
// highlighted, the candidates it removes struck, the digits it places
// picked out).
func boardCells(givens sudoku.Grid, values [81]uint8, cands [81]uint16, st *logic.Step) []StepCell {
	hot := map[int]bool{}
	good, struck := map[int]uint16{}, map[int]uint16{}
	if st != nil {
		for _, c := range st.Cells {
			hot[c] = true
		}
		for _, p := range st.Placements {
			good[p.Cell] |= 1 << p.Digit
			hot[p.Cell] = true
		}
		for _, x := range st.Eliminations {
			struck[x.Cell] |= 1 << x.Digit
			hot[x.Cell] = true
		}
	}
	cells := make([]StepCell, 81)
	for i := range 81 {
		c := StepCell{Index: i, Value: values[i], Given: givens[i] != 0, Hot: hot[i]}
		c.Classes = "empty"
		switch {
		case c.Given:
			c.Classes = "given"
		case c.Value != 0:
			c.Classes = "placed"
		}
		if c.Hot {
			c.Classes += " hint-cell"
		}
		c.Label = cellName(i)
		if c.Value != 0 {
			c.Label += ", " + digit(c.Value)
		}
		for d := 1; d <= 9; d++ {
			bit := uint16(1) << d
			switch {
			case c.Value != 0:
			case good[i]&bit != 0:
				c.Marks[d] = "good"
			case struck[i]&bit != 0:
				c.Marks[d] = "struck"
			case cands[i]&bit != 0:
				c.Marks[d] = "on"
			}
		}
		cells[i] = c
	}
	return cells
}

// peers lists each cell's 20 peers: the other cells of its row, column and
// box.
var peers = func() (ps [81][]int) {
	for i := range 81 {
		r, c := i/9, i%9
		for j := range 81 {
			rr, cc := j/9, j%9
			if j != i && (rr == r || cc == c || rr/3 == r/3 && cc/3 == c/3) {
				ps[i] = append(ps[i], j)
			}
		}
	}
	return ps
}()

// PracticeView is the page /techniques/{slug}/practice: a board at which
// the technique is the next step, for the player to find it.
type PracticeView struct {
	Technique   logic.Technique
	Description string
	N           int               // the position's number (?n=), from 0
	Position    *PracticePosition // nil when no archived puzzle uses the technique
	HasNext     bool              // another position may follow (?n=N+1)
}

// URL is the technique's page.
func (v PracticeView) URL() string { return "/techniques/" + v.Technique.Slug }

// NextURL is the next position's page.
func (v PracticeView) NextURL() string {
	return v.URL() + "/practice?n=" + strconv.Itoa(v.N+1)
}

// PuzzleURL opens the position's puzzle in practice mode.
func (v PracticeView) PuzzleURL() string {
	return PuzzleURL(v.Position.PuzzleID) + "?practice=" + v.Technique.Slug
}

// Task says what to find and how to answer.
func (v PracticeView) Task() string {
	if len(v.Position.Step.Eliminations) > 0 {
		return "Find the " + v.Technique.Name + ": pick every candidate it removes (tap its cell, then the digit on the pad), then press Check."
	}
	return "Find the " + v.Technique.Name + ": pick the digit it places (tap its cell, then the digit on the pad), then press Check."
}

// PracticePosition is a board at which a technique is the next step (GET
// /api/techniques/{slug}/practice gives them).
type PracticePosition struct {
	PuzzleID   int64
	Givens     sudoku.Grid
	Grid       sudoku.Grid
	Candidates [81]uint16
	Step       logic.Step
}

// Cells draws the board; with the step (revealed) or without.
func (p PracticePosition) Cells(revealed bool) []StepCell {
	var st *logic.Step
	if revealed {
		st = &p.Step
	}
	return boardCells(p.Givens, p.Grid, p.Candidates, st)
}

// Drawing is the step's pattern drawn over the board.
func (p PracticePosition) Drawing() StepDrawing { return DrawStep(p.Step, p.Candidates) }

// Data is the position as practice.js reads it (data-position): the
// candidates and the step, in JSON.
func (p PracticePosition) Data() string {
	cands := make([]int, 81)
	for i, m := range p.Candidates {
		cands[i] = int(m)
	}
	b, err := json.Marshal(struct {
		Candidates []int      `json:"candidates"`
		Step       logic.Step `json:"step"`
	}{cands, p.Step})
	if err != nil {
		return "{}"
	}
	return string(b)
}
