package sudoku

import (
	"errors"
	"math/bits"
	"slices"
	"sync"
)

// ErrNoSolution is returned by Rate for a puzzle with no solution.
var ErrNoSolution = errors.New("puzzle has no solution")

// ErrBudget is returned when a search exceeds its node budget.
var ErrBudget = errors.New("puzzle too hard: search budget exceeded")

// ErrCanceled is returned when Options.Done is closed during a search.
var ErrCanceled = errors.New("search canceled")

// Options bound and shape a search.
type Options struct {
	MaxNodes int64           // node budget; 0 means DefaultMaxNodes
	Done     <-chan struct{} // closed to abandon the search (ctx.Done() fits)
	Runs     int             // Rate: timed runs, at least 3 (0 means 3)
}

// DefaultMaxNodes bounds a search that sets no budget. The real puzzles
// of the test collections need at most about 4,100 nodes (17-clue) to prove
// their uniqueness; the worst hostile grid found by a random search (no
// solution, 820,000 nodes) fits too. A node costs about half a microsecond,
// so no input holds a core for much more than a second before ErrBudget.
const DefaultMaxNodes = 2_000_000

// doneEvery is how many nodes pass between two looks at Options.Done: often
// enough to stop within a millisecond, rare enough to cost nothing.
const doneEvery = 4096

// Result is what one search found and what it cost. See the package
// documentation for the exact meaning of each count.
type Result struct {
	Solution   Grid  // the first solution found (valid when Solutions >= 1)
	Solutions  int   // 0, 1 or 2 (two or more)
	Backtracks int64 // guessed digits withdrawn
	Guesses    int64 // branch points
	Nodes      int64 // 1 + guessed digits placed
}

// Solve searches g for up to two solutions and counts what the search did.
// It fails with a *CellError or *ConflictError for givens that cannot stand,
// ErrBudget past Options.MaxNodes and ErrCanceled once Options.Done is
// closed. A puzzle without solution is not an error here: Solutions is 0.
func Solve(g Grid, opt Options) (Result, error) {
	return solve(g, opt, nil, false)
}

// solve is the one search behind Solve, Rate and Trace. tr is nil unless
// tracing; reverse tries the digits of a branch point from 9 down to 1 (a
// test hook showing the counts do not depend on digit order).
func solve(g Grid, opt Options, tr *tracer, reverse bool) (Result, error) {
	return solveFirst(g, opt, tr, reverse, false)
}

// solveFirst is solve, stopping at the first solution when first is set.
func solveFirst(g Grid, opt Options, tr *tracer, reverse, first bool) (Result, error) {
	if err := g.Validate(); err != nil {
		return Result{}, err
	}
	return run(g, opt, tr, reverse, first)
}

// run is solveFirst for a grid known to be valid (see Validate).
func run(g Grid, opt Options, tr *tracer, reverse, first bool) (Result, error) {
	s := newSolver(opt, tr, reverse, first)
	bd := newBoard(g)
	s.dirty = 1<<9 - 1
	if s.propagate(&bd) {
		s.root(&bd)
	}
	return s.res, s.err
}

// rootSingles returns the board of a valid grid g after the singles at the
// root, where every search of g begins, and false at a contradiction. Its
// digits (grid) are the singles' closure of g, the same placements in
// whatever order they are found; a transform moves them with the puzzle.
func rootSingles(g Grid) (board, bool) {
	var s solver
	bd := newBoard(g)
	s.dirty = 1<<9 - 1
	ok := s.propagate(&bd)
	return bd, ok
}

// runFrom is run for a board without singles left: the board of
// rootSingles, or newBoard of its grid moved by a transform (the same
// board as propagating the moved givens would reach). The search and its
// counts are those run makes on the givens.
func runFrom(bd board, opt Options, first bool) (Result, error) {
	s := newSolver(opt, nil, false, first)
	s.root(&bd)
	return s.res, s.err
}

func newSolver(opt Options, tr *tracer, reverse, first bool) solver {
	s := solver{maxNodes: opt.MaxNodes, done: opt.Done, tr: tr, reverse: reverse, first: first}
	if s.maxNodes <= 0 {
		s.maxNodes = DefaultMaxNodes
	}
	s.res.Nodes = 1
	return s
}

// root goes on from the root board, propagated without contradiction.
func (s *solver) root(bd *board) {
	if bd.solved() {
		s.found(bd)
	} else {
		s.search(bd)
	}
}

// Measures is what Rate measured of a puzzle: the engine's figures, which
// the archive's record (package record) keeps with the grade and the
// archive's own fields. See the package documentation for each count.
type Measures struct {
	Givens     Grid
	Canonical  Grid // the same for every way of writing the puzzle; see Canonical
	Solution   Grid
	Clues      int
	Solutions  int // 1 or 2 (two or more)
	Backtracks int64
	Guesses    int64
	Nodes      int64
	SolveNS    int64 // the median of the timed runs
	// EngineVersion names the engine that measured (EngineVersion).
	EngineVersion string
}

// Rate measures the puzzle g: it finds its canonical form, searches the
// Presentations fixed ways of writing it and records the run with the median
// backtracks (see the package documentation), so every way of writing a
// puzzle gets the same Solutions, Backtracks, Guesses, Nodes and
// Canonical. It does not grade the puzzle (package logic does). It times
// Options.Runs searches (at least 3 and at least Presentations, the
// presentations' runs included), SolveNS being the median. It fails with a
// *CellError or *ConflictError, ErrNoSolution, ErrBudget or ErrCanceled.
func Rate(g Grid, opt Options) (Measures, error) {
	if err := g.Validate(); err != nil {
		return Measures{}, err
	}
	var times [15]int64
	m, err := measure(g, opt, max(opt.Runs, 3), times[:])
	if err != nil {
		return Measures{}, err
	}
	if m.solutions == 0 {
		return Measures{}, ErrNoSolution
	}
	ts := m.times
	slices.Sort(ts)
	res := m.res
	return Measures{
		Givens: g, Canonical: m.canon, Solution: res.Solution, Clues: g.Clues(),
		Solutions: res.Solutions, Backtracks: res.Backtracks, Guesses: res.Guesses, Nodes: res.Nodes,
		SolveNS: ts[len(ts)/2], EngineVersion: EngineVersion,
	}, nil
}

// The search state is a set of bitboards, one per digit, in the band layout
// of JCZSolve and tdoku: a band is three rows (27 cells), one uint32 each,
// bit k of band b being cell 27*b+k, so cells stay numbered row by row.

const bandMask = 1<<27 - 1

// board is the state of one search node. It is small enough (120 bytes) that
// copying it per guess is cheaper than undoing placements.
type board struct {
	f [9][3]uint32 // f[d][b]: cells of band b where digit d+1 is a candidate or placed
	u [3]uint32    // cells of each band still empty
}

// peers holds the 20 peers of each cell, by band.
var peers [81][3]uint32

func init() {
	for c := range 81 {
		for p := range 81 {
			if p != c && (p/9 == c/9 || p%9 == c%9 || (p/27 == c/27 && p%9/3 == c%9/3)) {
				peers[c][p/27] |= 1 << (p % 27)
			}
		}
	}
}

// newBoard returns the board with every cell open and then the givens of g
// placed (g must be valid: see Validate).
func newBoard(g Grid) board {
	// Digit d+1 is possible wherever no given stands and no given d+1 sees
	// the cell, and placed on its own givens.
	var seen, own [9][3]uint32 // peers of the givens d+1; the givens d+1
	var given [3]uint32
	for c, v := range g {
		if v == 0 {
			continue
		}
		d, b, bit := v-1, c/27, uint32(1)<<(c%27)
		p := &peers[c]
		seen[d][0] |= p[0]
		seen[d][1] |= p[1]
		seen[d][2] |= p[2]
		own[d][b] |= bit
		given[b] |= bit
	}
	var bd board
	for d := range bd.f {
		for b := range 3 {
			bd.f[d][b] = bandMask&^seen[d][b]&^given[b] | own[d][b]
		}
	}
	for b := range 3 {
		bd.u[b] = bandMask &^ given[b]
	}
	return bd
}

// place puts digit d+1 in cell c: no other digit there, d+1 nowhere else in
// the cell's row, column and box.
// It returns the digits whose boards changed (the cell's candidates and d).
func (bd *board) place(c, d int) uint16 {
	k := uint(c) % 27
	b, bit := uint(c)/27, uint32(1)<<k
	changed := bd.candidates(c)
	a := &bd.f
	a[0][b] &^= bit
	a[1][b] &^= bit
	a[2][b] &^= bit
	a[3][b] &^= bit
	a[4][b] &^= bit
	a[5][b] &^= bit
	a[6][b] &^= bit
	a[7][b] &^= bit
	a[8][b] &^= bit
	p := &peers[c]
	f := &bd.f[d]
	f[0] &^= p[0]
	f[1] &^= p[1]
	f[2] &^= p[2]
	f[b] |= bit
	bd.u[b] &^= bit
	return changed | 1<<d
}

func (bd *board) solved() bool { return bd.u[0]|bd.u[1]|bd.u[2] == 0 }

// candidates returns the candidates of cell c as a mask, bit d for digit d+1.
func (bd *board) candidates(c int) uint16 {
	k := uint(c) % 27
	b := uint(c) / 27
	a := &bd.f
	return uint16(a[0][b]>>k&1 | a[1][b]>>k&1<<1 | a[2][b]>>k&1<<2 | a[3][b]>>k&1<<3 | a[4][b]>>k&1<<4 |
		a[5][b]>>k&1<<5 | a[6][b]>>k&1<<6 | a[7][b]>>k&1<<7 | a[8][b]>>k&1<<8)
}

// grid reads the digits off the board (0 where a cell is still open). A
// cell that is not open keeps only its digit's bit, so each digit's board,
// less the open cells, lists the cells holding it.
func (bd *board) grid() Grid {
	var g Grid
	for d := range bd.f {
		for b := range 3 {
			for m := bd.f[d][b] &^ bd.u[b]; m != 0; m &= m - 1 {
				g[b*27+bits.TrailingZeros32(m)] = uint8(d + 1)
			}
		}
	}
	return g
}

// solver runs one search and keeps its counts.
type solver struct {
	res      Result
	maxNodes int64
	done     <-chan struct{}
	err      error // ErrBudget or ErrCanceled
	stop     bool  // a second solution or an error ends the search
	reverse  bool
	first    bool    // stop at the first solution (measure, to canonicalise)
	dirty    uint16  // digits whose boards changed since their last hidden-singles scan
	tr       *tracer // nil unless tracing
}

// place places digit d+1 in cell c as a step of the search.
func (s *solver) place(bd *board, c, d int, kind StepKind) {
	s.dirty |= bd.place(c, d)
	if s.tr != nil {
		s.tr.place(kind, c, d+1)
	}
}

func (s *solver) found(bd *board) {
	s.res.Solutions++
	if s.res.Solutions == 1 {
		s.res.Solution = bd.grid()
		s.stop = s.first
	} else {
		s.stop = true
	}
}

// propagate places naked singles (a cell with one candidate left) and hidden
// singles (a digit with one place left in a row, column or box) until none is
// left. It returns false at a contradiction: an empty cell without a
// candidate, or a digit without a place in a unit it is not yet placed in.
//
// Size: it stays one function of 111 lines, over issue 24's 80, because it
// is the solver's hot loop: every node of every search runs it to a fixpoint, and
// placements are written out by hand because a call costs more than their
// lines. A split into nakedSingles and hiddenSingles (two calls per round)
// was tried and measured with BenchmarkSolve, before and after alternated 7
// times on the loaded 2-core machine: mean cpu-µs/puzzle moved from -10%
// (forum_hardest_1106) to +13% (17_clue), with single runs spreading ±15%,
// so it could not be shown to cost nothing.
func (s *solver) propagate(bd *board) bool {
	for {
		placed := false

		// Naked singles, band by band: count candidates per cell (one, two or
		// more) across the nine digit boards at once.
		for b := range 3 {
			u := bd.u[b]
			if u == 0 {
				continue
			}
			// ones, twos: cells with at least one, two candidates; p0-p3:
			// the bits of the candidate digits' indexes, which spell the
			// digit of a cell with a single candidate.
			f := &bd.f
			x0, x1, x2, x3, x4, x5, x6, x7, x8 := f[0][b], f[1][b], f[2][b], f[3][b], f[4][b], f[5][b], f[6][b], f[7][b], f[8][b]
			// A tree, not a chain, so the additions run side by side.
			o01, t01 := x0|x1, x0&x1
			o23, t23 := x2|x3, x2&x3
			o45, t45 := x4|x5, x4&x5
			o67, t67 := x6|x7, x6&x7
			o03, t03 := o01|o23, t01|t23|o01&o23
			o47, t47 := o45|o67, t45|t67|o45&o67
			o07, t07 := o03|o47, t03|t47|o03&o47
			ones, twos := o07|x8, t07|o07&x8
			p0 := x1 | x3 | x5 | x7
			p1 := x2 | x3 | x6 | x7
			p2 := x4 | x5 | x6 | x7
			p3 := x8
			if u&^ones != 0 {
				return false
			}
			for single := u &^ twos; single != 0; single &= single - 1 {
				k := uint(bits.TrailingZeros32(single))
				d := int(p0>>k&1 | p1>>k&1<<1 | p2>>k&1<<2 | p3>>k&1<<3)
				if bd.f[d][b]>>k&1 == 0 {
					return false // its last candidate went to a neighbour just now
				}
				// Place it (by hand: a call costs more than these lines). No
				// other digit board has the cell, so only d's board changes.
				p, f := &peers[b*27+int(k)], &bd.f[d]
				f[0] &^= p[0]
				f[1] &^= p[1]
				f[2] &^= p[2]
				f[b] |= 1 << k
				u &^= 1 << k
				bd.u[b] = u
				s.dirty |= 1 << d
				if s.tr != nil {
					s.tr.place(Forced, b*27+int(k), d+1)
				}
				placed = true
			}
		}
		if placed {
			continue // the cheaper rule first, to its own fixpoint
		}

		// Hidden singles, digit by digit. A placed digit keeps its own bit,
		// so a unit where it is placed has one place, and an empty unit is a
		// contradiction.
		// Only digits whose boards changed since their last scan can have
		// new ones: the rest passed every check already.
		for todo := s.dirty; todo != 0; todo &= todo - 1 {
			d := bits.TrailingZeros16(todo)
			s.dirty &^= 1 << d
			f := &bd.f[d]
			x0, x1, x2 := f[0], f[1], f[2]
			a0, a1, a2 := x0&0x1FF, x0>>9&0x1FF, x0>>18
			b0, b1, b2 := x1&0x1FF, x1>>9&0x1FF, x1>>18
			c0, c1, c2 := x2&0x1FF, x2>>9&0x1FF, x2>>18
			// Columns with one place, with two or more: band by band, then
			// across the bands.
			oa, ta := a0|a1|a2, a0&a1|(a0|a1)&a2
			ob, tb := b0|b1|b2, b0&b1|(b0|b1)&b2
			oc, tc := c0|c1|c2, c0&c1|(c0|c1)&c2
			ones := oa | ob | oc
			twos := ta | tb | tc | oa&ob | (oa|ob)&oc
			const m0, m1, m2 = 0x7 * (1 | 1<<9 | 1<<18), 0x7 << 3 * (1 | 1<<9 | 1<<18), 0x7 << 6 * (1 | 1<<9 | 1<<18)
			// A unit without a place: w-1 wraps to all ones only for w == 0.
			if ones != 0x1FF || ((a0-1)|(a1-1)|(a2-1)|(b0-1)|(b1-1)|(b2-1)|(c0-1)|(c1-1)|(c2-1)|
				(x0&m0-1)|(x0&m1-1)|(x0&m2-1)|(x1&m0-1)|(x1&m1-1)|(x1&m2-1)|(x2&m0-1)|(x2&m1-1)|(x2&m2-1))>>31 != 0 {
				return false
			}
			cols := ones &^ twos
			cols |= cols<<9 | cols<<18
			hidden := [3]uint32{
				(x0&cols | single(a0) | single(a1)<<9 | single(a2)<<18 | single(x0&m0) | single(x0&m1) | single(x0&m2)) & bd.u[0],
				(x1&cols | single(b0) | single(b1)<<9 | single(b2)<<18 | single(x1&m0) | single(x1&m1) | single(x1&m2)) & bd.u[1],
				(x2&cols | single(c0) | single(c1)<<9 | single(c2)<<18 | single(x2&m0) | single(x2&m1) | single(x2&m2)) & bd.u[2],
			}
			if hidden == [3]uint32{} {
				continue
			}
			for b, hs := range hidden {
				for ; hs != 0; hs &= hs - 1 {
					k := bits.TrailingZeros32(hs)
					bit := uint32(1) << k
					if f[b]&bit == 0 || bd.u[b]&bit == 0 {
						continue // changed by a placement just now: the next round sees it
					}
					s.place(bd, b*27+k, d, Forced)
					placed = true
				}
			}
		}
		if !placed {
			return true
		}
	}
}

// single returns w if it has at most one bit set, 0 otherwise, without a
// branch.
func single(w uint32) uint32 {
	m := w & (w - 1)
	return w & ((m|-m)>>31 - 1)
}

// choose returns the empty cell with the fewest candidates, the lowest
// numbered one among equals, and its candidates. After propagate every empty
// cell has two or more.
func (bd *board) choose() (int, uint16) {
	for b := range 3 {
		u := bd.u[b]
		if u == 0 {
			continue
		}
		// Cells with at least one, two, three candidates.
		a := &bd.f
		t1, t2, t3 := a[0][b], uint32(0), uint32(0)
		for _, x := range [8]uint32{a[1][b], a[2][b], a[3][b], a[4][b], a[5][b], a[6][b], a[7][b], a[8][b]} {
			t3 |= t2 & x
			t2 |= t1 & x
			t1 |= x
		}
		if m := u & t2 &^ t3; m != 0 {
			c := b*27 + bits.TrailingZeros32(m)
			return c, bd.candidates(c)
		}
	}
	best, bestN, bestM := -1, 10, uint16(0)
	for b := range 3 {
		for u := bd.u[b]; u != 0; u &= u - 1 {
			c := b*27 + bits.TrailingZeros32(u)
			m := bd.candidates(c)
			if n := bits.OnesCount16(m); n < bestN {
				best, bestN, bestM = c, n, m
			}
		}
	}
	return best, bestM
}

// frame is one branch point on the search stack.
type frame struct {
	bd    board  // the propagated board before the guess
	cands uint16 // candidates of cell not tried yet
	cell  int
	mark  int // trace path length before the current guess
}

// stack is the search stack: one frame per branch point on the current path
// (at most 81), reused across searches so a search allocates nothing.
type stack [82]frame

var stacks = sync.Pool{New: func() any { return new(stack) }}

// search explores a propagated board that is neither solved nor a dead end,
// depth first without recursion: it branches on the chosen cell of the top
// frame and tries each candidate in turn.
func (s *solver) search(root *board) {
	st := stacks.Get().(*stack)
	defer stacks.Put(st)
	top := &st[0]
	top.bd = *root
	top.cell, top.cands = top.bd.choose()
	s.res.Guesses++
	depth := 0
	for {
		f := &st[depth]
		if f.cands == 0 {
			// Branch point exhausted: withdraw the guess that led to it.
			if depth == 0 {
				return
			}
			depth--
			s.withdraw(&st[depth])
			continue
		}
		var d int
		if s.reverse {
			d = 15 - bits.LeadingZeros16(f.cands)
		} else {
			d = bits.TrailingZeros16(f.cands)
		}
		f.cands &^= 1 << d
		s.res.Nodes++
		if s.res.Nodes > s.maxNodes {
			s.err, s.stop = ErrBudget, true
			return
		}
		if s.res.Nodes%doneEvery == 0 && s.done != nil {
			select {
			case <-s.done:
				s.err, s.stop = ErrCanceled, true
				return
			default:
			}
		}
		if s.tr != nil {
			f.mark = len(s.tr.path)
		}
		next := &st[depth+1]
		next.bd = f.bd
		s.dirty = 0 // f.bd passed every check
		s.place(&next.bd, f.cell, d, Guess)
		if s.propagate(&next.bd) {
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
		s.withdraw(f)
	}
}

// withdraw takes back the current guess of f and all placed since.
func (s *solver) withdraw(f *frame) {
	s.res.Backtracks++
	if s.tr != nil {
		s.tr.undo(f.mark)
	}
}
