package logic

import (
	"fmt"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Practice positions (GET /api/techniques/{slug}/practice) and the next
// step from a player's own board (the hint from pencil marks).

// Position is a board at which a technique is the next step the solver
// takes: the digits placed, the candidates left (bit d for digit d, 0 for a
// placed cell) and that step.
type Position struct {
	Grid       sudoku.Grid
	Candidates [81]uint16
	Step       Step
}

// CandidateStrings writes the position's candidates as 81 strings of
// digits ("147"), "" for a placed cell.
func (p Position) CandidateStrings() []string {
	out := make([]string, 81)
	for c, m := range p.Candidates {
		s := ""
		for _, d := range digitsOf(m) {
			s += strconv.Itoa(d)
		}
		out[c] = s
	}
	return out
}

// Positions returns up to max boards of the logical path of the archived
// puzzle p (the path Explain gives, written as p is written, as far as
// DefaultBudget reaches: the nested chains of the hardest puzzles may lie
// beyond it) at which the technique name is the next step, earliest first.
// It fails with ErrMultipleSolutions for a puzzle with several solutions.
func Positions(p record.Puzzle, name string, max int) ([]Position, error) {
	if !p.Unique {
		return nil, ErrMultipleSolutions
	}
	if max < 1 {
		return nil, nil
	}
	c, t := sudoku.CanonicalSolved(p.Givens, p.Solution)
	back := t.Inverse()
	digit := func(d int) int { return int(back.Digit(uint8(d))) }
	var out []Position
	solveEach(newBoard(c), Options{}, func(b *board, st Step) bool {
		if st.Technique != name {
			return true
		}
		var pos Position
		for i := range 81 {
			o := back.Cell(i)
			if v := b.val[i]; v != 0 {
				pos.Grid[o] = uint8(digit(int(v)))
			}
			for _, d := range digitsOf(b.cand[i]) {
				pos.Candidates[o] |= 1 << digit(d)
			}
		}
		pos.Step = st.Map(back.Cell, digit)
		out = append(out, pos)
		return len(out) < max
	})
	return out, nil
}

// NextFor returns the next step from a player's board of the puzzle givens,
// whose one solution is solution, as NextOn does, but found where Explain
// and the grade find theirs: on the puzzle's canonical form (the board and
// marks moved by the transform of sudoku.CanonicalSolved), the step moved
// back. Steps that tie (two chains of one grade, two cells a search meets
// in turn) fall out by the order of the cells, which differs between two
// ways of writing a puzzle; in one frame, the hint on an untouched board is
// the explanation's first step (with a budget that reaches it: Explain's
// is DeepBudget), and a hint on a board of the explanation's path is its
// next step. It fails as NextOn does.
func NextFor(givens, solution, progress sudoku.Grid, marks [81]uint16, opt Options) (Step, error) {
	for c, v := range givens {
		if v != 0 && progress[c] != v {
			return Step{}, ErrProgress
		}
	}
	_, t := sudoku.CanonicalSolved(givens, solution)
	var cm [81]uint16
	for c, m := range marks {
		for _, d := range digitsOf(m & allDigits) {
			cm[t.Cell(c)] |= 1 << t.Digit(uint8(d))
		}
	}
	st, err := NextOn(t.Apply(givens), t.Apply(progress), cm, opt)
	if err != nil {
		return st, err
	}
	back := t.Inverse()
	return st.Map(back.Cell, func(d int) int { return int(back.Digit(uint8(d))) }), nil
}

// NextOn returns the next step from a player's board: the digits of
// progress, and in each empty cell the candidates of marks (bit d for
// digit d: the player's pencil marks) that no placed digit rules out, or
// every candidate the placed digits leave where marks is 0. Like
// NextSolved it is for givens the caller has proven to have one solution
// and a board it has checked against it (no digit wrong, every cell's
// marks holding its solution digit); it fails as NextSolved does.
func NextOn(givens, progress sudoku.Grid, marks [81]uint16, opt Options) (Step, error) {
	for c, v := range givens {
		if v != 0 && progress[c] != v {
			return Step{}, ErrProgress
		}
	}
	if err := progress.Validate(); err != nil {
		return Step{}, fmt.Errorf("logic: %w", err)
	}
	b := newBoard(progress)
	if b.empty == 0 {
		return Step{}, ErrSolved
	}
	for c := range 81 {
		if b.val[c] == 0 && marks[c]&allDigits != 0 {
			b.cand[c] &= marks[c]
		}
	}
	s := newSolver(b, opt)
	defer s.release()
	st, ok, _ := s.next()
	if !ok {
		return Step{}, ErrStuck
	}
	return st, nil
}
