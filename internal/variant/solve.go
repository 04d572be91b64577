package variant

import (
	"math/bits"
	"sync"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// board is the search state: each cell's candidates (bit d-1 for digit d)
// and the digit placed in it (0 while it is not), placed meaning its
// digit has been taken from its peers.
type board struct {
	cand [81]uint16
	val  [81]uint8
	// gone[c] holds the digits c lost since propIntersections last ran,
	// fresh the cells changed since singles last ran: a house without
	// one is at that step's fixpoint, and so is a digit of a house none
	// of whose cells lost it.
	gone  [81]uint16
	fresh cellSet
	// paired holds the cells changed since propPairs last ran.
	paired cellSet
}

// mark notes that c lost the digits removed.
func (bd *board) mark(c uint8, removed uint16) {
	bd.gone[c] |= removed
	bd.fresh.add(c)
	bd.paired.add(c)
}

// newBoard starts from the model's candidates and the givens, which stay
// candidates until propagate places them like any single.
func (m *model) newBoard(g sudoku.Grid) board {
	var bd board
	bd.fresh = cellSet{^uint64(0), 1<<17 - 1}
	bd.paired = bd.fresh
	for c := range 81 {
		bd.gone[c] = all
		bd.cand[c] = m.start[c]
		if g[c] != 0 {
			bd.cand[c] &= 1 << (g[c] - 1)
		}
	}
	return bd
}

// place puts the single candidate of c in it and takes it from c's
// peers, pushing onto singles each peer left with one candidate.
func (m *model) place(bd *board, c uint8, singles *[]uint8) bool {
	bit := bd.cand[c]
	bd.val[c] = uint8(bits.TrailingZeros16(bit) + 1)
	for _, p := range m.peers[c] {
		if x := bd.cand[p]; x&bit != 0 {
			x &^= bit
			bd.cand[p] = x
			bd.mark(p, bit)
			if x == 0 {
				return false
			}
			if x&(x-1) == 0 {
				*singles = append(*singles, p)
			}
		}
	}
	return true
}

// propagate places naked singles, finds hidden singles in every house,
// runs every rule's propagator and then the intersections of houses with
// peers and pair rules (propIntersections), until nothing changes. False at a
// contradiction: a cell without a candidate, a digit without a place in a
// house, a rule that no digits left can satisfy.
func (m *model) propagate(bd *board) bool {
	for {
		changed := false
		if !m.singles(bd, &changed) {
			return false
		}
		if changed {
			continue // singles first, to their fixpoint
		}
		if !m.propPairs(bd, &changed) || !m.propSums(bd, &changed) || !m.propCages(bd, &changed) ||
			!m.propThermos(bd, &changed) || !m.propRenbans(bd, &changed) || !m.propSandwiches(bd, &changed) {
			return false
		}
		if changed {
			continue
		}
		// The dearest, last: only once every rule is at its fixpoint.
		if m.rules && !m.propIntersections(bd, &changed) {
			return false
		}
		if !changed {
			return true
		}
	}
}

// singles places every naked single (taking its digit from its peers,
// and so on while that makes new ones), then sets each hidden single of a
// house: a digit with one place left, not yet placed there. Only cells
// changed since it last ran (fresh), and houses holding one, can hold a
// new single.
func (m *model) singles(bd *board, changed *bool) bool {
	var buf [81]uint8
	stack := buf[:0]
	fresh := bd.fresh
	bd.fresh = cellSet{}
	for set := fresh; ; {
		c, ok := set.pop()
		if !ok {
			break
		}
		x := bd.cand[c]
		if x == 0 {
			return false
		}
		if bd.val[c] == 0 && x&(x-1) == 0 {
			stack = append(stack, c)
		}
	}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if bd.val[c] != 0 {
			continue
		}
		if !m.place(bd, c, &stack) {
			return false
		}
		*changed = true
	}
	fresh = fresh.or(bd.fresh)
	for hi, h := range m.houses {
		if m.houseSets[hi].and(fresh) == (cellSet{}) {
			continue
		}
		if !hiddenSingles(bd, h, changed) {
			return false
		}
	}
	return true
}

// hiddenSingles sets each digit of house h with one place left, and fails
// when a digit has none.
func hiddenSingles(bd *board, h [9]uint8, changed *bool) bool {
	var once, twice, placed uint16
	for _, c := range h {
		x := bd.cand[c]
		twice |= once & x
		once |= x
		if bd.val[c] != 0 {
			placed |= x
		}
	}
	if once != all {
		return false
	}
	for s := once &^ twice &^ placed; s != 0; s &= s - 1 {
		bit := s & -s
		for _, c := range h {
			if bd.cand[c]&bit != 0 {
				if bd.cand[c] != bit {
					bd.mark(c, bd.cand[c]&^bit)
					bd.cand[c], *changed = bit, true
				}
				break
			}
		}
	}
	return true
}

func (bd *board) solved() bool {
	for _, v := range bd.val {
		if v == 0 {
			return false
		}
	}
	return true
}

// choose returns the empty cell with the fewest candidates, the lowest
// numbered among equals, as package sudoku's search does.
func (bd *board) choose() (int, uint16) {
	best, bestN := -1, 10
	for c := range 81 {
		if bd.val[c] != 0 {
			continue
		}
		if n := bits.OnesCount16(bd.cand[c]); n < bestN {
			best, bestN = c, n
			if n == 2 {
				break
			}
		}
	}
	return best, bd.cand[best]
}

// solver is one search over a model: package sudoku's search and counts
// (see its package documentation), on the variant board.
type solver struct {
	m        *model
	res      sudoku.Result
	maxNodes int64
	done     <-chan struct{}
	err      error
	stop     bool
	first    bool // stop at the first solution
}

type frame struct {
	bd    board
	cands uint16
	cell  int
}

type stack [82]frame

var stacks = sync.Pool{New: func() any { return new(stack) }}

// doneEvery is how many nodes pass between looks at Options.Done.
const doneEvery = 1024

func (s *solver) found(bd *board) {
	s.res.Solutions++
	if s.res.Solutions == 1 {
		copy(s.res.Solution[:], bd.val[:])
		s.stop = s.first
	} else {
		s.stop = true
	}
}

// run searches from the givens g.
func (s *solver) run(g sudoku.Grid) {
	s.res.Nodes = 1
	st := stacks.Get().(*stack)
	defer stacks.Put(st)
	st[0].bd = s.m.newBoard(g)
	if !s.m.propagate(&st[0].bd) {
		return
	}
	if st[0].bd.solved() {
		s.found(&st[0].bd)
		return
	}
	s.search(st)
}

// search is package sudoku's depth-first search without recursion.
func (s *solver) search(st *stack) {
	top := &st[0]
	top.cell, top.cands = top.bd.choose()
	s.res.Guesses++
	depth := 0
	for {
		f := &st[depth]
		if f.cands == 0 {
			if depth == 0 {
				return
			}
			depth--
			s.res.Backtracks++
			continue
		}
		bit := f.cands & -f.cands
		f.cands &^= bit
		s.res.Nodes++
		if s.res.Nodes > s.maxNodes {
			s.err, s.stop = sudoku.ErrBudget, true
			return
		}
		if s.res.Nodes%doneEvery == 0 && s.done != nil {
			select {
			case <-s.done:
				s.err, s.stop = sudoku.ErrCanceled, true
				return
			default:
			}
		}
		next := &st[depth+1]
		next.bd = f.bd
		next.bd.mark(uint8(f.cell), next.bd.cand[f.cell]&^bit)
		next.bd.cand[f.cell] = bit
		if s.m.propagate(&next.bd) {
			if !next.bd.solved() {
				next.cell, next.cands = next.bd.choose()
				s.res.Guesses++
				depth++
				continue
			}
			s.found(&next.bd)
			if s.stop {
				return
			}
		}
		s.res.Backtracks++
	}
}

// DefaultMaxNodes bounds a variant search that sets no budget. A variant
// node costs 10-20 microseconds (every rule's propagator runs at each),
// some 30 times a classic one, so package sudoku's 2,000,000 would hold a
// core for most of a minute; 200,000 keeps the worst input to a few
// seconds, and the hardest puzzle made here needs 6,220 (testdata/hard.txt, engine v2).
// A classic puzzle keeps sudoku.DefaultMaxNodes.
const DefaultMaxNodes = 200_000

// Solve searches p for up to two solutions and counts what the search did,
// with the counts of package sudoku (sudoku.Result). A classic puzzle (no
// rules) goes through sudoku.Solve unchanged. It fails with a *RuleError
// for a puzzle Validate refuses, sudoku.ErrBudget past Options.MaxNodes
// (DefaultMaxNodes when 0) and sudoku.ErrCanceled once Options.Done is
// closed. No solution is not an error: Solutions is 0.
func Solve(p Puzzle, opt sudoku.Options) (sudoku.Result, error) {
	if p.Classic() {
		return sudoku.Solve(p.Givens, opt)
	}
	if err := p.Validate(); err != nil {
		return sudoku.Result{}, err
	}
	m, _ := compile(p)
	return m.solve(p.Givens, opt, false)
}

// solve runs one search of a compiled, valid puzzle.
func (m *model) solve(g sudoku.Grid, opt sudoku.Options, first bool) (sudoku.Result, error) {
	s := solver{m: m, maxNodes: opt.MaxNodes, done: opt.Done, first: first}
	if s.maxNodes <= 0 {
		s.maxNodes = DefaultMaxNodes
	}
	s.run(g)
	return s.res, s.err
}
