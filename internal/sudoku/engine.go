package sudoku

// INTERIM: a simple, correct implementation of the engine's public API so the
// other packages can build and test against it. The engine work (issue 2)
// replaces the internals of this file; the exported names and their meaning
// stay.

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// EngineVersion identifies the search whose measures are recorded. Bump it
// whenever a change alters backtracks, guesses or nodes for any puzzle.
const EngineVersion = "1"

// Grid is a Sudoku grid: 81 cells row by row, 0 for a blank, 1-9 for a digit.
type Grid [81]uint8

// String returns the canonical form: 81 characters, '.' for blanks.
func (g Grid) String() string {
	var b [81]byte
	for i, v := range g {
		if v == 0 {
			b[i] = '.'
		} else {
			b[i] = '0' + v
		}
	}
	return string(b[:])
}

// MarshalText encodes the grid in canonical form.
func (g Grid) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText parses any puzzle text form.
func (g *Grid) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*g = p
	return nil
}

// Clues returns the number of givens.
func (g Grid) Clues() int {
	n := 0
	for _, v := range g {
		if v != 0 {
			n++
		}
	}
	return n
}

// ParseError says why a text is not a puzzle and where.
type ParseError struct {
	Pos  int  // 1-based character position of Char in the input; 0 for a count error
	Char rune // the offending character, for a character error
	Got  int  // the number of cells read, for a count error
}

func (e *ParseError) Error() string {
	if e.Pos > 0 {
		return fmt.Sprintf("%q at position %d is not a cell (cells are 1-9, with 0 or . for a blank)", e.Char, e.Pos)
	}
	return fmt.Sprintf("expected 81 cells, got %d", e.Got)
}

// Unit is a row, column or box.
type Unit int

// The three kinds of unit.
const (
	Row Unit = iota
	Column
	Box
)

func (u Unit) String() string { return [...]string{"row", "column", "box"}[u] }

// ConflictError reports two givens with the same digit in one unit.
type ConflictError struct {
	Unit  Unit
	Index int    // 0-8: which row, column or box (shown 1-based)
	Digit uint8  // the repeated digit
	Cells [2]int // the two cells (0-80) holding it
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s %d has two %ds", e.Unit, e.Index+1, e.Digit)
}

// ErrNoSolution is returned by Rate for a puzzle with no solution.
var ErrNoSolution = errors.New("puzzle has no solution")

// ErrBudget is returned when a search exceeds its node budget.
var ErrBudget = errors.New("puzzle too hard: search budget exceeded")

// ErrCanceled is returned when Options.Done is closed during a search.
var ErrCanceled = errors.New("search canceled")

// Parse reads puzzle text: 81 cells, '1'-'9' for givens, '0' or '.' for
// blanks, with white space and the grid characters | - + = ignored.
func Parse(s string) (Grid, error) {
	var g Grid
	n := 0
	for i, r := range []rune(s) {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '|' || r == '-' || r == '+' || r == '=':
			continue
		case r == '.' || (r >= '0' && r <= '9'):
			if n < 81 && r != '.' {
				g[n] = uint8(r - '0')
			}
			n++
		default:
			return Grid{}, &ParseError{Pos: i + 1, Char: r}
		}
	}
	if n != 81 {
		return Grid{}, &ParseError{Got: n}
	}
	return g, nil
}

// FromRows reads a 9x9 matrix of integers, 0 for blank.
func FromRows(rows [][]int) (Grid, error) {
	var g Grid
	if len(rows) != 9 {
		return g, fmt.Errorf("expected 9 rows, got %d", len(rows))
	}
	for r, row := range rows {
		if len(row) != 9 {
			return Grid{}, fmt.Errorf("row %d: expected 9 cells, got %d", r+1, len(row))
		}
		for c, v := range row {
			if v < 0 || v > 9 {
				return Grid{}, fmt.Errorf("row %d, column %d: %d is not a cell (0-9)", r+1, c+1, v)
			}
			g[r*9+c] = uint8(v)
		}
	}
	return g, nil
}

// Validate returns a *ConflictError if two givens clash, nil otherwise.
func (g Grid) Validate() error {
	for u := Row; u <= Box; u++ {
		for k := 0; k < 9; k++ {
			var seen [10]int
			for j := 0; j < 9; j++ {
				c := unitCell(u, k, j)
				d := g[c]
				if d == 0 {
					continue
				}
				if seen[d] != 0 {
					return &ConflictError{Unit: u, Index: k, Digit: d, Cells: [2]int{seen[d] - 1, c}}
				}
				seen[d] = c + 1
			}
		}
	}
	return nil
}

func unitCell(u Unit, k, j int) int {
	switch u {
	case Row:
		return k*9 + j
	case Column:
		return j*9 + k
	default:
		return (k/3*3+j/3)*9 + k%3*3 + j%3
	}
}

// Options bound and shape a search.
type Options struct {
	MaxNodes int64           // node budget; 0 means DefaultMaxNodes
	Done     <-chan struct{} // closed to abandon the search (ctx.Done() fits)
	Runs     int             // Rate: timed runs, at least 3 (0 means 3)
}

// DefaultMaxNodes bounds a search that sets no budget.
const DefaultMaxNodes = 2_000_000

// Result is what one search found and what it cost.
type Result struct {
	Solution   Grid  // the first solution found (valid when Solutions >= 1)
	Solutions  int   // 0, 1 or 2 (two or more)
	Backtracks int64 // guesses undone
	Guesses    int64 // branch points
	Nodes      int64 // search nodes visited
}

// Solve searches g for up to two solutions.
func Solve(g Grid, opt Options) (Result, error) {
	var res Result
	if err := g.Validate(); err != nil {
		return res, err
	}
	s := naive{g: g, max: opt.MaxNodes, done: opt.Done, res: &res}
	if s.max == 0 {
		s.max = DefaultMaxNodes
	}
	err := s.search()
	if errors.Is(err, errStop) {
		err = nil
	}
	return res, err
}

var errStop = errors.New("stop")

type naive struct {
	g    Grid
	max  int64
	done <-chan struct{}
	res  *Result
}

func (s *naive) cands(c int) uint16 {
	var used uint16
	r, col := c/9, c%9
	b := r/3*3 + col/3
	for j := 0; j < 9; j++ {
		used |= 1 << s.g[unitCell(Row, r, j)]
		used |= 1 << s.g[unitCell(Column, col, j)]
		used |= 1 << s.g[unitCell(Box, b, j)]
	}
	return ^used & 0x3FE
}

func (s *naive) search() error {
	s.res.Nodes++
	if s.res.Nodes > s.max {
		return ErrBudget
	}
	if s.done != nil && s.res.Nodes&1023 == 0 {
		select {
		case <-s.done:
			return ErrCanceled
		default:
		}
	}
	best, bestN := -1, 10
	var bestM uint16
	for c := 0; c < 81; c++ {
		if s.g[c] != 0 {
			continue
		}
		m := s.cands(c)
		n := popcount(m)
		if n < bestN {
			best, bestN, bestM = c, n, m
		}
	}
	if best < 0 {
		s.res.Solutions++
		if s.res.Solutions == 1 {
			s.res.Solution = s.g
		}
		if s.res.Solutions == 2 {
			return errStop
		}
		return nil
	}
	if bestN > 1 {
		s.res.Guesses++
	}
	for d := uint8(1); d <= 9; d++ {
		if bestM&(1<<d) == 0 {
			continue
		}
		s.g[best] = d
		err := s.search()
		s.g[best] = 0
		if err != nil {
			return err
		}
		if bestN > 1 {
			s.res.Backtracks++
		}
	}
	return nil
}

func popcount(m uint16) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// Rate solves g, times the search Options.Runs times (at least 3) and returns
// the puzzle with its measures. It fails with a *ConflictError, ErrNoSolution,
// ErrBudget or ErrCanceled.
func Rate(g Grid, opt Options) (Puzzle, error) {
	runs := max(opt.Runs, 3)
	times := make([]int64, runs)
	var res Result
	for i := range runs {
		t := time.Now()
		r, err := Solve(g, opt)
		times[i] = time.Since(t).Nanoseconds()
		if err != nil {
			return Puzzle{}, err
		}
		res = r
	}
	if res.Solutions == 0 {
		return Puzzle{}, ErrNoSolution
	}
	slices.Sort(times)
	return Puzzle{
		Givens: g, Solution: res.Solution, Clues: g.Clues(),
		Solutions: res.Solutions, Unique: res.Solutions == 1,
		Backtracks: res.Backtracks, Guesses: res.Guesses, Nodes: res.Nodes,
		SolveNS: times[runs/2], EngineVersion: EngineVersion,
	}, nil
}

// StepKind says what a trace step did.
type StepKind uint8

// The kinds of trace step.
const (
	Forced StepKind = iota // a digit placed by propagation (the only candidate left)
	Guess                  // a digit tried at a branch point
	Undo                   // a digit removed when the search backs out
)

func (k StepKind) String() string { return [...]string{"forced", "guess", "undo"}[k] }

// MarshalText encodes the kind as "forced", "guess" or "undo".
func (k StepKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Step is one move of a traced search.
type Step struct {
	Kind  StepKind `json:"kind"`
	Cell  uint8    `json:"cell"`
	Digit uint8    `json:"digit"`
}

// DefaultMaxSteps caps a trace that sets no cap.
const DefaultMaxSteps = 100_000

// Trace runs the same search as Solve and records its steps, at most maxSteps
// (0 means DefaultMaxSteps); truncated is true when the search went on past it.
func Trace(g Grid, maxSteps int, opt Options) (steps []Step, truncated bool, res Result, err error) {
	return nil, false, Result{}, errors.New("trace: not yet built")
}
