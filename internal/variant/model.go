package variant

import (
	"fmt"
	"math/bits"
)

// all is the candidate mask of an empty cell: bit d-1 for digit d.
const all = 1<<9 - 1

// rel names a relation between two cells, for pairs.
type rel uint8

const (
	relWhite     rel = iota // consecutive
	relBlack                // one double the other
	relX                    // sum 10
	relV                    // sum 5
	relNotConsec            // not consecutive
	relNotKropki            // neither consecutive nor double
	relNotXV                // sum neither 10 nor 5
	relWhisper              // differ by 5 or more
	relEqual                // the same digit
	relCount
)

func (r rel) holds(x, y int) bool {
	d := x - y
	switch r {
	case relWhite:
		return d == 1 || d == -1
	case relBlack:
		return x == 2*y || y == 2*x
	case relX:
		return x+y == 10
	case relV:
		return x+y == 5
	case relNotConsec:
		return d != 1 && d != -1
	case relNotKropki:
		return d != 1 && d != -1 && x != 2*y && y != 2*x
	case relNotXV:
		return x+y != 10 && x+y != 5
	case relWhisper:
		return d >= 5 || d <= -5
	}
	return x == y
}

// support[r][m] is the digits a cell may hold when its partner under r
// may hold the digits of m.
var support = func() (t [relCount][1 << 9]uint16) {
	for r := range relCount {
		for m := range 1 << 9 {
			for x := 1; x <= 9; x++ {
				for y := 1; y <= 9; y++ {
					if m>>(y-1)&1 == 1 && r.holds(x, y) {
						t[r][m] |= 1 << (x - 1)
					}
				}
			}
		}
	}
	return t
}()

// combos[n][t] lists the sets of n different digits summing to t.
var combos = func() (c [10][46][]uint16) {
	for m := range 1 << 9 {
		n, s := bits.OnesCount(uint(m)), 0
		for d := 1; d <= 9; d++ {
			if m>>(d-1)&1 == 1 {
				s += d
			}
		}
		c[n][s] = append(c[n][s], uint16(m))
	}
	return c
}()

// middle is the digits 2-8, which a sandwich's other cells hold.
const middle = all &^ (1 | 1<<8)

// sandwichCombos[k][t] lists the sets of k different digits of 2-8 that
// sum to t: what may lie between a sandwich's 1 and 9.
var sandwichCombos = func() (t [8][36][]uint16) {
	for k := range 8 {
		for s := range 36 {
			for _, set := range combos[k][s] {
				if set&^middle == 0 {
					t[k][s] = append(t[k][s], set)
				}
			}
		}
	}
	return t
}()

type pair struct {
	a, b uint8
	r    rel
}

// partner is the other cell of a pair rule and the relation.
type partner struct {
	cell uint8
	r    rel
}

type term struct {
	cell uint8
	coef int
}

// sum is a linear rule: the sum of coef*digit over its terms is total
// (arrows, little killers; killer cages use combos).
type sum struct {
	terms []term
	total int
	// seen holds the terms' candidates the last time the propagator left
	// them: a fixpoint of this sum (keeping supported digits takes away no
	// other digit's support), so the same candidates need no second pass.
	seen []uint16
	// segs splits the terms into runs of at most maxSeg cells with one
	// coefficient that see each other (segments), which hold different
	// digits (segmentSums).
	segs []segment
}

type cage struct {
	cells  []uint8
	combos []uint16
}

type sandwich struct {
	cells [9]uint8
	total int
}

// model is a puzzle compiled for the solver. A search writes its sums'
// caches (sum.seen): one model serves one search at a time.
type model struct {
	start  [81]uint16  // candidates before the givens: odd and even cells
	peers  [81][]uint8 // cells that must differ from each
	houses [][9]uint8  // groups holding 1-9 once each
	pairs  []pair
	// partners[c] lists c's partners under pair rules, for propPairs.
	partners   [81][]partner
	sums       []sum
	cages      []cage
	thermos    [][]uint8
	renbans    [][]uint8
	sandwiches []sandwich
	// related[c] lists the cells a pair rule ties to c, rels[c][o] the
	// relations (bit r for rel r) between c and o: for propIntersections.
	related [81][]uint8
	rels    *[81][81]uint16
	// For propIntersections: each cell's peers, the cell with its peers,
	// the cell with the cells pair rules tie to it; rules says the puzzle has
	// rules (a model without, which only TestModelAgreesWithClassic
	// builds, keeps package sudoku's singles alone).
	peerSets [81]cellSet
	seen     [81]cellSet
	tie      [81]cellSet
	// houseSets[i] is the cells of houses[i].
	houseSets []cellSet
	rules     bool
}

// compile builds the solver's model of a valid puzzle's rules.
func compile(p Puzzle) (*model, error) {
	m := &model{}
	for i := range m.start {
		m.start[i] = all
	}
	var peer [81][81]bool
	group := func(cells []Cell) {
		for _, a := range cells {
			for _, b := range cells {
				if a != b {
					peer[a][b] = true
				}
			}
		}
	}
	house := func(cells []Cell) {
		var h [9]uint8
		for k, c := range cells {
			h[k] = uint8(c)
		}
		m.houses = append(m.houses, h)
		group(cells)
	}
	has := map[Type]bool{}
	for _, r := range p.Rules {
		has[r.Type] = true
	}
	for _, h := range gridHouses(p) {
		house(h)
	}
	for _, r := range p.Rules {
		for _, g := range shapeGroups(r.Type) {
			house(g)
		}
		if r.Type == ExtraRegion {
			house(r.Cells)
		}
		m.addRule(r, group)
	}
	for c := range Cell(81) {
		for _, t := range []Type{AntiKnight, AntiKing} {
			if has[t] {
				for _, o := range moveCells(c, chessMoves[t]) {
					peer[c][o] = true
				}
			}
		}
		for o := range 81 {
			if peer[c][o] {
				m.peers[c] = append(m.peers[c], uint8(o))
				m.peerSets[c].add(uint8(o))
			}
		}
	}
	m.addNeighbours(p, has)
	m.relate()
	for _, pr := range m.pairs {
		m.partners[pr.a] = append(m.partners[pr.a], partner{pr.b, pr.r})
		m.partners[pr.b] = append(m.partners[pr.b], partner{pr.a, pr.r})
	}
	m.tieSets()
	m.segmentSums()
	m.rules = len(p.Rules) > 0
	return m, nil
}

// relate fills related and rels from the pairs (relEqual left out: a
// palindrome's ends hold the same digit, which propIntersections does not
// use).
func (m *model) relate() {
	for _, pr := range m.pairs {
		if pr.r == relEqual {
			continue
		}
		if m.rels == nil {
			m.rels = new([81][81]uint16)
		}
		for _, ab := range [2][2]uint8{{pr.a, pr.b}, {pr.b, pr.a}} {
			if m.rels[ab[0]][ab[1]] == 0 {
				m.related[ab[0]] = append(m.related[ab[0]], ab[1])
			}
			m.rels[ab[0]][ab[1]] |= 1 << pr.r
		}
	}
}

// chessMoves are the moves of the anti-chess rules.
var chessMoves = map[Type][][2]int{AntiKnight: knightMoves, AntiKing: kingMoves}

// addNeighbours adds the rules on every pair of cells sharing a side:
// non-consecutive, and the negative rules where no dot (or X, V) is.
func (m *model) addNeighbours(p Puzzle, has map[Type]bool) {
	dots := map[[2]Cell]map[Type]bool{}
	for _, r := range p.Rules {
		if _, ok := dotRel[r.Type]; ok {
			k := [2]Cell{min(r.Cells[0], r.Cells[1]), max(r.Cells[0], r.Cells[1])}
			if dots[k] == nil {
				dots[k] = map[Type]bool{}
			}
			dots[k][r.Type] = true
		}
	}
	for _, pr := range orthogonalPairs {
		d := dots[pr]
		a, b := uint8(pr[0]), uint8(pr[1])
		if has[NonConsecutive] {
			m.pairs = append(m.pairs, pair{a, b, relNotConsec})
		}
		if has[KropkiNegative] && !d[White] && !d[Black] {
			m.pairs = append(m.pairs, pair{a, b, relNotKropki})
		}
		if has[XVNegative] && !d[X] && !d[V] {
			m.pairs = append(m.pairs, pair{a, b, relNotXV})
		}
	}
}

// dotRel is the relation of each pair rule, and of whispers along a line.
var dotRel = map[Type]rel{White: relWhite, Black: relBlack, X: relX, V: relV}

// addRule adds one rule with cells to the model; group makes its cells
// differ from one another.
func (m *model) addRule(r Rule, group func([]Cell)) {
	cells := make([]uint8, 0, len(r.Cells))
	for _, c := range r.Cells {
		cells = append(cells, uint8(c))
	}
	line := func(rl rel) {
		for k := 1; k < len(cells); k++ {
			m.pairs = append(m.pairs, pair{cells[k-1], cells[k], rl})
		}
	}
	switch r.Type {
	case Killer:
		group(r.Cells)
		if r.Total != nil {
			m.cages = append(m.cages, cage{cells: cells, combos: combos[len(cells)][*r.Total]})
		}
	case LittleKiller:
		s := sum{total: *r.Total}
		for _, c := range diagonalCells(r.Cells, r.Dir) {
			s.terms = append(s.terms, term{uint8(c), 1})
		}
		m.sums = append(m.sums, s)
	case Sandwich:
		lc, _ := sandwichCells(r.Line)
		var sw sandwich
		for k, c := range lc {
			sw.cells[k] = uint8(c)
		}
		sw.total = *r.Total
		m.sandwiches = append(m.sandwiches, sw)
	case Thermo:
		m.thermos = append(m.thermos, cells)
	case Arrow:
		s := sum{}
		for k, c := range cells {
			coef := 1
			if k < r.Circle {
				coef = -1
				if r.Circle == 2 && k == 0 {
					coef = -10
				}
			}
			s.terms = append(s.terms, term{c, coef})
		}
		m.sums = append(m.sums, s)
	case White, Black, X, V:
		line(dotRel[r.Type])
	case Whispers:
		line(relWhisper)
	case Renban:
		group(r.Cells)
		m.renbans = append(m.renbans, cells)
	case Palindrome:
		for k := range len(cells) / 2 {
			m.pairs = append(m.pairs, pair{cells[k], cells[len(cells)-1-k], relEqual})
		}
	case Odd, Even:
		mask := uint16(0b101010101) // 1 3 5 7 9
		if r.Type == Even {
			mask = all &^ mask
		}
		for _, c := range cells {
			m.start[c] &= mask
		}
	}
}

// givensConflict returns a *RuleError for two givens that must differ but
// are the same digit, and for a given its cell's rules refuse (an even
// digit in an odd cell).
func (m *model) givensConflict(g [81]uint8) error {
	for c, d := range g {
		if d == 0 {
			continue
		}
		if m.start[c]>>(d-1)&1 == 0 {
			return &RuleError{Cell: c, Msg: fmt.Sprintf("%d breaks the cell's odd or even rule", d)}
		}
		for _, o := range m.peers[c] {
			if int(o) > c && g[o] == d {
				return &RuleError{Cell: int(o), Msg: fmt.Sprintf("%d repeats the %d at %s, where the rules forbid it", d, d, Cell(c))}
			}
		}
	}
	return nil
}

// gridHouses is the grid's 27 houses: for each k, row k, column k and box
// k (the jigsaw's region k when the puzzle has one).
func gridHouses(p Puzzle) [][]Cell {
	jigsaw := ""
	for _, r := range p.Rules {
		if r.Type == Jigsaw {
			jigsaw = r.Regions
		}
	}
	var hs [][]Cell
	for k := range 9 {
		var row, col, box []Cell
		for j := range 9 {
			row = append(row, Cell(k*9+j))
			col = append(col, Cell(j*9+k))
			box = append(box, Cell((k/3*3+j/3)*9+k%3*3+j%3))
		}
		if jigsaw != "" {
			box = cellsOf(jigsaw, byte('1'+k))
		}
		hs = append(hs, row, col, box)
	}
	return hs
}
