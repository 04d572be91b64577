package logic

import (
	"errors"
	"fmt"
	"math/bits"
	"sync/atomic"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Errors of Solve and NextSolved.
var (
	// ErrNoSolution: the givens admit no solution.
	ErrNoSolution = errors.New("logic: puzzle has no solution")
	// ErrMultipleSolutions: the givens admit several solutions, so no grade.
	ErrMultipleSolutions = errors.New("logic: puzzle has several solutions")
	// ErrSolved: NextSolved was asked for a step on a full grid.
	ErrSolved = errors.New("logic: grid is already solved")
	// ErrStuck: NextSolved found no step within its techniques and budget.
	ErrStuck = errors.New("logic: no logical step found within the budget")
	// ErrProgress: the progress grid does not extend the givens.
	ErrProgress = errors.New("logic: progress does not keep the givens")
)

// Defaults of Options.
const (
	DefaultMaxSteps = 1000
	// DefaultBudget is the work budget of one Solve or NextSolved: one unit is one
	// candidate taken up by the chaining engine (about 25 ns). It keeps the
	// worst puzzles of the forum's hardest list under a second.
	DefaultBudget = 20_000_000
	// DeepBudget is the budget of the archive's graders and of `sudoku
	// solve`: enough for the nested forcing chains of the hardest known
	// puzzles (Sukaku Explainer 10-11.9; docs/engine.md gives the time).
	DeepBudget = 800_000_000
)

// Options bound a solve. Zero values take the defaults.
type Options struct {
	MaxSteps int   // steps of a path; 0 means DefaultMaxSteps
	Budget   int64 // work units; 0 means DefaultBudget
	// Stop, when not nil, ends the solve as the budget does once it is
	// closed (looked at every pollEvery units): Result.Stopped says so.
	Stop <-chan struct{}
}

// pollEvery is how often (in work units, a few milliseconds) a solve looks
// at Options.Stop.
const pollEvery = 200_000

// Result is a graded solving path.
type Result struct {
	Grade     float64 // highest step grade on the path (a lower bound when Floor)
	Technique string  // the technique of that step
	Floor     bool    // the solver stopped (budget or beyond its techniques) before the end
	Steps     []Step
	Solved    bool
	Stopped   bool // Options.Stop ended the solve: the grade is not one
	work      int64
}

// beyondGrade is the floor of a puzzle that no rung of the ladder can move.
const beyondGrade = 10.5

type solver struct {
	b       board
	work    int64
	budget  int64 // the next work at which to look: the budget, or a Stop poll
	limit   int64 // the budget
	stop    <-chan struct{}
	stopped bool
	ch      *chainPool
	dcells  [10]cellSet // cells of each digit, refreshed by the chain searches
	bivalue cellSet     // cells with two candidates (refresh)
	gen     uint64      // board generation, new at each refresh (caches key on it)
	fresh   bool        // the tables were built once; later refreshes update them
	nishio  *nishioMemo // Nishio runs kept per digit (nishioRuns)
	sub     *solver     // the board of a nested chain's assumption (chains_nested.go)
	runs    runMemo     // the nested levels' kept runs (chains_nested.go)
	// nestKeys: the nested chains counted in a complexity (chainer.anc)
	nestKeys []nestKey
	// uver counts each unit's changes (refresh); fhAt and hsAt are 1 + the
	// count at which the unit last had no full house, no hidden single.
	uver, fhAt, hsAt [maxHouses]uint32
	last             [81]uint16      // the candidates the tables were last refreshed for
	strong           [10][81]cellSet // strong-link partners of each digit and cell (cacheStrong)
	// strongAt: the cells of each digit s.strong was made for (strongOK).
	strongAt [10]cellSet
	strongOK uint16
	strongs  [10]strongDigit // each digit's strong links (strong.go)

	// memos: for each simple rung, the candidates of the last board it
	// found nothing on (ok), so that the next run searches only what the
	// candidates lost since can have made possible (see since).
	memos [nMemo]memo
	// What changed since the memo of the rung being run: the cells whose
	// candidates changed, the units holding one and the digits lost.
	chg      cellSet
	chgUnit  uint64
	chgDigit uint16
}

// nMemo is the number of rungs that keep memos: those before the chains,
// which only read the candidates and find nothing new unless a cell their
// pattern rests on lost a candidate.
const nMemo = 31

type memo struct {
	ok   bool
	cand [81]uint16
}

// since fills s.chg, s.chgUnit and s.chgDigit with what changed since m
// (everything when m holds no board).
func (s *solver) since(m *memo) {
	if !m.ok {
		s.chg = cellSet{^uint64(0), ^uint64(0)}
		s.chgUnit = allHouses
		s.chgDigit = allDigits
		return
	}
	s.chg, s.chgUnit, s.chgDigit = cellSet{}, 0, 0
	g := s.b.g
	for c := range 81 {
		if l := m.cand[c] &^ s.b.cand[c]; l != 0 {
			s.chg.add(c)
			s.chgDigit |= l
			s.chgUnit |= 1<<g.unit[c][0] | 1<<g.unit[c][1] | 1<<g.unit[c][2]
			for _, h := range g.extra[c] {
				s.chgUnit |= 1 << h.u
			}
		}
	}
}

// changedUnit reports whether a cell of unit u changed (since).
func (s *solver) changedUnit(u int) bool { return s.chgUnit&(1<<u) != 0 }

// changedDigit reports whether digit d lost a candidate (since).
func (s *solver) changedDigit(d int) bool { return s.chgDigit&(1<<d) != 0 }

// nextGen numbers board generations across solvers, so a pooled cache
// never mistakes another solve's board for its own.
var nextGen atomic.Uint64

// refresh recomputes the tables of the board's candidates a step reads.
func (s *solver) refresh() {
	s.gen = nextGen.Add(1)
	if !s.fresh {
		s.fresh = true
		s.b.refresh()
		s.dcells = [10]cellSet{}
		s.bivalue = cellSet{}
		for c := range 81 {
			if popcount(s.b.cand[c]) == 2 {
				s.bivalue.add(c)
			}
			for m := s.b.cand[c]; m != 0; m &= m - 1 {
				s.dcells[bits.TrailingZeros16(m)].add(c)
			}
		}
		s.last = s.b.cand
		return
	}
	// Candidates only go: update the tables for the cells that lost some.
	g := s.b.g
	for c := range 81 {
		lost := s.last[c] &^ s.b.cand[c]
		if lost == 0 {
			continue
		}
		for k := 0; k < 3; k++ {
			s.uver[g.unit[c][k]]++
		}
		for _, h := range g.extra[c] {
			s.uver[h.u]++
		}
		if popcount(s.b.cand[c]) == 2 {
			s.bivalue.add(c)
		} else {
			s.bivalue[c>>6] &^= 1 << (c & 63)
		}
		for m := lost; m != 0; m &= m - 1 {
			d := bits.TrailingZeros16(m)
			s.dcells[d][c>>6] &^= 1 << (c & 63)
			for k := 0; k < 3; k++ {
				s.b.pos[g.unit[c][k]][d] &^= 1 << g.index[c][k]
			}
			for _, h := range g.extra[c] {
				s.b.pos[h.u][d] &^= 1 << h.j
			}
		}
	}
	s.last = s.b.cand
}

// spend counts work and reports whether the budget is gone.
func (s *solver) spend(n int) bool {
	s.work += int64(n)
	return s.work > s.budget && s.over()
}

func (s *solver) broke() bool { return s.work > s.budget && s.over() }

// over is called when the work passes s.budget: it reports whether the
// budget is gone or Stop closed, else sets the next point to look.
func (s *solver) over() bool {
	if s.stopped || s.work > s.limit {
		return true
	}
	select {
	case <-s.stop:
		s.stopped = true
		return true
	default:
	}
	s.budget = min(s.limit, s.work+pollEvery)
	return false
}

func newSolver(b board, opt Options) *solver {
	if b.g == nil {
		b.g = classicGeo // a board made field by field (pencil marks) is classic
	}
	s := &solver{b: b, limit: opt.Budget, stop: opt.Stop}
	s.since(&memo{}) // rungs called outside next search everything
	if s.limit <= 0 {
		s.limit = DefaultBudget
	}
	s.budget = s.limit
	if s.stop != nil {
		s.budget = min(s.limit, pollEvery)
	}
	return s
}

// next finds the easiest step; ok is false when none is found, and then
// floor is the grade the next rung would have given at least.
func (s *solver) next() (st Step, ok bool, floor float64) {
	s.refresh()
	skipped := beyondGrade // the lowest rung left out for the geometry
	for i, r := range ladder {
		if s.broke() {
			return Step{}, false, min(r.base, skipped)
		}
		if !r.on.runsOn(s.b.g) {
			if !r.on.replaced() {
				skipped = min(skipped, r.base)
			}
			continue
		}
		if i < nMemo {
			s.since(&s.memos[i])
		}
		st, ok := r.find(s)
		if i < nMemo {
			s.memos[i].ok = !ok
			if !ok {
				s.memos[i].cand = s.b.cand
			}
		}
		if ok {
			st.Text = st.render()
			return st, true, 0
		}
	}
	if s.broke() {
		return Step{}, false, min(ladder[len(ladder)-1].base, skipped)
	}
	return Step{}, false, skipped
}

// apply plays a step on the board.
func (b *board) apply(st Step) {
	for _, e := range st.Eliminations {
		b.cand[e.Cell] &^= 1 << e.Digit
	}
	for _, p := range st.Placements {
		b.place(p.Cell, p.Digit)
	}
}

// check validates the givens and proves the solution unique.
func check(g sudoku.Grid) error {
	res, err := sudoku.Solve(g, sudoku.Options{})
	if err != nil {
		return fmt.Errorf("logic: %w", err)
	}
	switch res.Solutions {
	case 0:
		return ErrNoSolution
	case 1:
		return nil
	}
	return ErrMultipleSolutions
}

// Solve grades g: the whole path of easiest steps from the givens. It fails
// for givens that break the rules (a wrapped *sudoku.ConflictError or
// *sudoku.CellError), ErrNoSolution and ErrMultipleSolutions.
func Solve(g sudoku.Grid, opt Options) (Result, error) {
	if err := check(g); err != nil {
		return Result{}, err
	}
	return solveFrom(newBoard(g), opt), nil
}

func solveFrom(b board, opt Options) Result { return solveEach(b, opt, nil) }

// solveEach is solveFrom calling each (when not nil) with the board before
// each step and the step; each returning false ends the path there.
func solveEach(b board, opt Options, each func(b *board, st Step) bool) Result {
	maxSteps := opt.MaxSteps
	if maxSteps <= 0 {
		maxSteps = DefaultMaxSteps
	}
	s := newSolver(b, opt)
	defer s.release()
	var r Result
	for s.b.empty > 0 {
		if len(r.Steps) >= maxSteps {
			r.Floor = true
			break
		}
		st, ok, floor := s.next()
		if !ok {
			r.Floor = true
			if floor > r.Grade {
				r.Grade, r.Technique = floor, "beyond the solver's techniques or budget"
			}
			break
		}
		if st.Grade > r.Grade {
			r.Grade, r.Technique = st.Grade, st.Technique
		}
		if each != nil && !each(&s.b, st) {
			r.Steps = append(r.Steps, st)
			break
		}
		s.b.apply(st)
		r.Steps = append(r.Steps, st)
	}
	r.Solved = s.b.empty == 0
	r.Stopped = s.stopped
	r.work = s.work
	return r
}

// NextSolved returns the next step from a player's progress (the givens
// plus the player's digits; candidates are recomputed from the filled
// cells), for givens the caller has already proven to have one solution (the
// hint endpoint does, within its request's search budget) and progress it
// has checked against that solution. It fails with ErrProgress when progress
// drops or changes a given, a wrapped *sudoku.ConflictError when it breaks
// the rules, ErrSolved on a full grid and ErrStuck when no step is found
// within the budget.
func NextSolved(givens, progress sudoku.Grid, opt Options) (Step, error) {
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
	s := newSolver(b, opt)
	defer s.release()
	st, ok, _ := s.next()
	if !ok {
		return Step{}, ErrStuck
	}
	return st, nil
}
