// Package generate makes new puzzles of a chosen difficulty: a band, or a
// range of the logical solver's grade (a band is a range of grades too:
// sudoku.Bands). The puzzles themselves come from sudoku.Generator (random
// complete grids, givens removed in a random order while the solution
// stays unique, until minimal); this package measures each one as the
// archive does (sudoku.Rate, then logic.GradePuzzle) and steers towards
// the target:
//
//  1. Generate and test: a fresh random minimal puzzle is measured; in the
//     target, it is the answer.
//  2. Too hard: it is dropped and a fresh one drawn.
//  3. Too easy: hill climbing. A neighbour (one or two digits of the
//     solution added back, then reduced again to minimal, so it shares most
//     givens) replaces the current puzzle when it measures at least as hard
//     without passing the target; ClimbSteps neighbours, then a fresh start.
//
// Every puzzle measured, fresh or neighbour, is a candidate. The sequence of
// candidates is fixed by the seed, so the first one in the target, the
// answer, is too; a time budget (the context's deadline) or a candidate
// budget (MaxCandidates) only decides when to give up, with a *MissError.
package generate

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// Target is the difficulty asked for: a band (the grades of sudoku.Bands),
// or a range of grades.
type Target struct {
	Band sudoku.Band // "" for a grade range
	// MinGrade and MaxGrade bound the grade (Sudoku Explainer's scale,
	// inclusive) when Band is "".
	MinGrade, MaxGrade float64
}

// Grade bounds accepted in a target: the one scale of every grade a user
// gives (userinput.LowestGrade to userinput.HighestGrade).
const (
	LowestGrade  = userinput.LowestGrade
	HighestGrade = userinput.HighestGrade
)

// Validate reports what is wrong with t, in words a user can act on.
func (t Target) Validate() error {
	if t.Band != "" {
		if !t.Band.Valid() {
			return fmt.Errorf("unknown band %q: use one of %s", t.Band, bandNames())
		}
		if t.MinGrade != 0 || t.MaxGrade != 0 {
			return errors.New("give a band or a grade range, not both")
		}
		return nil
	}
	switch {
	case t.MinGrade == 0 && t.MaxGrade == 0:
		return fmt.Errorf("give a band (%s) or a grade range", bandNames())
	case userinput.CheckGrade(t.MinGrade) != "":
		return fmt.Errorf("grade range %s: the minimum is %s", t.rangeText(), userinput.CheckGrade(t.MinGrade))
	case userinput.CheckGrade(t.MaxGrade) != "":
		return fmt.Errorf("grade range %s: the maximum is %s", t.rangeText(), userinput.CheckGrade(t.MaxGrade))
	case t.MinGrade > t.MaxGrade:
		return fmt.Errorf("grade range %s: the minimum is above the maximum", t.rangeText())
	}
	return nil
}

func (t Target) rangeText() string {
	return strconv.FormatFloat(t.MinGrade, 'f', -1, 64) + "-" + strconv.FormatFloat(t.MaxGrade, 'f', -1, 64)
}

// String names the target for people: "extreme", "grade 7-8.5".
func (t Target) String() string {
	if t.Band != "" {
		return string(t.Band)
	}
	return "grade " + t.rangeText()
}

// ParseGrade reads a grade range "MIN-MAX" ("7-8.5"), or a single grade
// "7.2" meaning exactly that grade, given as the value called name (a
// flag, a form field): userinput.ParseGradeRange, the one reader of grades.
func ParseGrade(name, s string) (Target, error) {
	r, err := userinput.ParseGradeRange(name, s)
	if err != nil {
		return Target{}, err
	}
	return Target{MinGrade: r.Min, MaxGrade: r.Max}, nil
}

func bandNames() string {
	names := make([]string, len(sudoku.Bands))
	for i, b := range sudoku.Bands {
		names[i] = string(b.Band)
	}
	return strings.Join(names, ", ")
}

// Request is one puzzle to generate.
type Request struct {
	Target    Target
	Symmetric bool   // givens in 180° rotational symmetry
	Seed      uint64 // fixes the candidates, so the answer
	// MaxCandidates gives up after this many candidates (0: no limit but
	// the context's). Unlike a deadline it does not depend on the
	// machine: the daily puzzle uses it.
	MaxCandidates int
	// MaxNodes bounds each search (0: sudoku.DefaultMaxNodes).
	MaxNodes int64
}

// ClimbSteps is how many neighbours the hill climber tries from one fresh
// puzzle before it starts again from another.
const ClimbSteps = 40

// Stats says what one generation cost.
type Stats struct {
	Candidates int // puzzles measured (fresh and neighbours)
	Fresh      int // fresh random puzzles drawn (starts)
}

// MissError is the answer when the budget ran out before a puzzle in the
// target came up.
type MissError struct {
	Target     Target
	Candidates int
	Elapsed    time.Duration
}

func (e *MissError) Error() string {
	return fmt.Sprintf("no %s puzzle found within the budget (%d candidates in %.1fs): such puzzles are rare; try again, with a longer budget, or ask for an easier target",
		e.Target, e.Candidates, e.Elapsed.Seconds())
}

// Generate returns a new minimal puzzle with a unique solution in r's
// target, rated (sudoku.Rate) and graded (logic.GradePuzzle) as the archive
// does. It fails with a *MissError when ctx's deadline passes or
// r.MaxCandidates run out first, and with ctx's error when ctx is
// canceled otherwise.
func Generate(ctx context.Context, r Request) (record.Puzzle, Stats, error) {
	if err := r.Target.Validate(); err != nil {
		return record.Puzzle{}, Stats{}, err
	}
	s := search{Request: r, start: time.Now(), ctx: ctx}
	s.gen = sudoku.NewGenerator(r.Seed, r.Symmetric)
	s.opt = sudoku.Options{MaxNodes: r.MaxNodes, Done: ctx.Done()}
	s.gen.Options = s.opt
	p, err := s.run()
	return p, s.stats, err
}

// search is one Generate call.
type search struct {
	Request
	ctx   context.Context
	start time.Time
	gen   *sudoku.Generator
	opt   sudoku.Options
	stats Stats
}

// position of a measured candidate relative to the target.
const (
	below = -1
	in    = 0
	above = 1
)

// candidate is a measured puzzle.
type candidate struct {
	p     record.Puzzle
	score float64 // backtracks, or grade: what the climber raises
	pos   int
	// minimal is false for a symmetric puzzle that is minimal only among
	// pairs: never an answer, but the climber may pass through it.
	minimal bool
}

func (s *search) run() (record.Puzzle, error) {
	for {
		if err := s.spent(); err != nil {
			return record.Puzzle{}, err
		}
		sol := s.gen.Solution()
		s.stats.Fresh++
		g, ok := s.gen.Reduce(sol)
		cur, err := s.measure(g, ok)
		if err != nil {
			return record.Puzzle{}, err
		}
		if cur != nil && cur.pos == in && cur.minimal {
			return s.finish(cur)
		}
		if cur == nil || cur.pos == above {
			continue
		}
		for range ClimbSteps {
			if err := s.spent(); err != nil {
				return record.Puzzle{}, err
			}
			g, ok := s.gen.Neighbour(cur.p.Givens, sol)
			next, err := s.measure(g, ok)
			switch {
			case err != nil:
				return record.Puzzle{}, err
			case next == nil || next.pos == above:
			case next.pos == in && next.minimal:
				return s.finish(next)
			case next.score >= cur.score:
				cur = next
			}
		}
	}
}

// spent returns a *MissError once the budget is used up.
func (s *search) spent() error {
	err := s.ctx.Err()
	switch {
	case errors.Is(err, context.DeadlineExceeded),
		s.MaxCandidates > 0 && s.stats.Candidates >= s.MaxCandidates:
		return &MissError{Target: s.Target, Candidates: s.stats.Candidates, Elapsed: time.Since(s.start)}
	case err != nil:
		return err
	}
	return nil
}

// measure rates g (and grades it for a grade target) and places it
// against the target; nil for a puzzle to pass over (one the engine cannot
// rate within its budget). minimal is what Reduce said of g.
func (s *search) measure(g sudoku.Grid, minimal bool) (*candidate, error) {
	s.stats.Candidates++
	p, err := record.Rate(g, s.opt)
	switch {
	case errors.Is(err, sudoku.ErrCanceled):
		return nil, s.spentOr(err)
	case err != nil:
		return nil, nil // past the node budget: not a puzzle to offer
	}
	c := &candidate{p: p, minimal: minimal}
	logic.GradePuzzle(&c.p)
	if c.p.Grade == nil {
		return nil, nil
	}
	g10 := c.p.GradeTenths()
	lo, hi := s.Target.tenths()
	c.score = float64(g10)
	c.pos = position(g10 < lo, g10 > hi)
	return c, nil
}

// tenths returns the grades of t in tenths, lowest and highest, inclusive:
// the band's (sudoku.Bands) or the range's.
func (t Target) tenths() (lo, hi int64) {
	if info, ok := t.Band.Info(); ok {
		return info.Min, info.Max
	}
	return tenths(t.MinGrade), tenths(t.MaxGrade)
}

// spentOr turns a search stopped by the context into the budget's error.
func (s *search) spentOr(err error) error {
	if e := s.spent(); e != nil {
		return e
	}
	return err
}

func position(lo, hi bool) int {
	switch {
	case lo:
		return below
	case hi:
		return above
	}
	return in
}

func tenths(g float64) int64 { return int64(g*10 + 0.5) }

// finish returns the answer, graded already (measure).
func (s *search) finish(c *candidate) (record.Puzzle, error) {
	return c.p, nil
}

// SeedFor returns the seed of the i-th puzzle of a run with seed base, so
// a run's puzzles are independent of one another (and of how many workers
// make them) and the same base gives the same run.
func SeedFor(base uint64, i int) uint64 {
	z := base + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
