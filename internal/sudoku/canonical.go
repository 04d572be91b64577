package sudoku

import (
	"slices"
	"sync"
)

// Canonical returns the canonical form of g, the same grid for every way of
// writing the puzzle (see the package documentation, "The same puzzle,
// written another way"), and a transform t with t.Apply(g) equal to it. It
// solves g to learn whether it has a unique solution, and fails as Solve
// does (*CellError, *ConflictError, ErrBudget, ErrCanceled).
func Canonical(g Grid, opt Options) (Grid, Transform, error) {
	r, err := Solve(g, opt)
	if err != nil {
		return Grid{}, Transform{}, err
	}
	if r.Solutions == 1 {
		c, t := CanonicalSolved(g, r.Solution)
		return c, t, nil
	}
	c, t := canonicalGivens(g)
	return c, t, nil
}

// CanonicalSolved is Canonical for a puzzle g whose unique solution is
// known: solution must be that solution (a full valid grid keeping g's
// givens); for anything else the result is unspecified.
func CanonicalSolved(g, solution Grid) (Grid, Transform) {
	cs := canonPool.Get().(*canonSolver)
	defer canonPool.Put(cs)
	cs.solution(solution)
	best := Grid{}
	var bt Transform
	for i, t := range cs.autos {
		h := t.Apply(g)
		if i == 0 || lessGrid(h, best) {
			best, bt = h, t
		}
	}
	return best, bt
}

// lessGrid orders grids cell by cell, a blank (0) before every digit.
func lessGrid(a, b Grid) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

// canonPool keeps the solvers' buffers between calls.
var canonPool = sync.Pool{New: func() any { return new(canonSolver) }}

// canonSolver finds the minlex form of a full grid and every transform that
// gives it (the grid's automorphisms composed with one such transform).
type canonSolver struct {
	s      [2]Grid  // the grid and its transpose
	sigma  [9]int8  // sigma[c]: the column of the first top row holding the second's digit of column c
	sigma3 [9]int8  // the same for the band's third row
	best   uint64   // least second row so far (see order)
	best3  uint64   // least third row under it
	have   bool     // best is set
	ties   []colTie // the column orders giving best and best3
	cur    colTie   // the top rows being searched
	autos  []Transform
}

// colTie is a choice of top two rows and a column order.
type colTie struct {
	t, r0, r1 uint8
	cols      [9]int8
}

// solution sets cs.autos to every transform t whose t.Apply(sol) is the
// least grid, cell by cell, among all transforms of sol (the minlex form;
// its first row is always 123456789, digits being relabelled in the order
// they first appear).
//
// The first row of a transform is one row of sol or of its transpose (18
// choices) and the second another row of the same band (2). With those
// fixed and the digits relabelled so the first row reads 123456789, the
// second row depends on the column order only, and the order of the first
// stack's columns forces the rest (see secondRows): 6 or 18 orders per pair
// of top rows, each read once, left as soon as its row is greater than the
// best so far. The third row, the band's last, breaks ties. The column
// orders that tie for the least top band fix the whole grid but for the
// order of the last two bands and the rows within them, which sorting makes
// least. Every transform that ties for the least grid is kept.
func (cs *canonSolver) solution(sol Grid) {
	cs.s[0] = sol
	for r := range 9 {
		for c := range 9 {
			cs.s[1][c*9+r] = sol[r*9+c]
		}
	}
	cs.have = false
	cs.ties = cs.ties[:0]
	cs.searchTopBands()
	cs.completeTies()
}

// searchTopBands finds the column orders of every pair of top rows that
// give the least top band, in cs.ties.
//
// Pairs of top rows where the second's three digits in a stack stand in
// one stack of the first can begin the second row 4 5 6 (as 0-based
// positions 3 4 5); the others begin it 3 4 6 at best, so they are searched
// only when no pair of the first kind exists.
func (cs *canonSolver) searchTopBands() {
	for pass := range 2 {
		if pass == 1 && cs.have && cs.best>>(4*6)&15 == 5 {
			break
		}
		for t := range 2 {
			for r0 := range 9 {
				cs.searchPairs(t, r0, pass == 0)
			}
		}
	}
}

// searchPairs searches the pairs of top rows of cs.s[t] whose first row is
// r0, those whose second row's first stack is pure (see searchTopBands)
// when pure is true, the others when it is false.
func (cs *canonSolver) searchPairs(t, r0 int, pure bool) {
	s := &cs.s[t]
	var where [10]int8 // column of each digit in row r0
	for c := range 9 {
		where[s[r0*9+c]] = int8(c)
	}
	for r1 := r0 / 3 * 3; r1 < r0/3*3+3; r1++ {
		if r1 == r0 {
			continue
		}
		if pure != (where[s[r1*9]]/3 == where[s[r1*9+1]]/3 && where[s[r1*9]]/3 == where[s[r1*9+2]]/3) {
			continue
		}
		r2 := r0/3*3 + 3 - r0%3 - r1%3 // the band's third row
		for c := range 9 {
			cs.sigma[c] = where[s[r1*9+c]]
			cs.sigma3[c] = where[s[r2*9+c]]
		}
		cs.cur = colTie{t: uint8(t), r0: uint8(r0), r1: uint8(r1)}
		cs.secondRows(pure)
	}
}

// tieKeys reads the rows of one tie: the digits relabelled by dm and the
// columns in the tie's order.
type tieKeys struct {
	s    *Grid
	cols *[9]int8
	dm   [10]uint8
}

// key is row r read as 4-bit digits, the first column highest.
func (tk *tieKeys) key(r int) uint64 {
	var k uint64
	for _, c := range tk.cols {
		k = k<<4 | uint64(tk.dm[tk.s[r*9+int(c)]])
	}
	return k
}

// completeTies completes each tie of cs.ties into a whole grid and keeps
// in cs.autos the transforms of the least one: the third row is the band's
// last, then the other two bands, each with its rows sorted, the band with
// the lesser first row first.
func (cs *canonSolver) completeTies() {
	var bestRows [9]uint64
	cs.autos = cs.autos[:0]
	for i := range cs.ties {
		ct := &cs.ties[i]
		tk := tieKeys{s: &cs.s[ct.t], cols: &ct.cols}
		for j, c := range ct.cols {
			tk.dm[tk.s[int(ct.r0)*9+int(c)]] = uint8(j + 1)
		}
		b0 := int(ct.r0) / 3
		r2 := b0*3 + 3 - int(ct.r0)%3 - int(ct.r1)%3 // the band's third row
		var rows [9]uint8
		var keys [9]uint64
		rows[0], rows[1], rows[2] = ct.r0, ct.r1, uint8(r2)
		for j := range 3 {
			keys[j] = tk.key(int(rows[j]))
		}
		if i > 0 && keys[2] > bestRows[2] { // rows 0 and 1 tie
			continue
		}
		tk.lowerBands(b0, &rows, &keys)
		c := 0
		if i > 0 {
			c = slices.Compare(keys[:], bestRows[:])
		}
		if c > 0 {
			continue
		}
		if c < 0 || i == 0 {
			bestRows = keys
			cs.autos = cs.autos[:0]
		}
		tr := Transform{Transposed: ct.t == 1, Rows: rows, Digits: tk.dm}
		for j, c := range ct.cols {
			tr.Cols[j] = uint8(c)
		}
		cs.autos = append(cs.autos, tr)
	}
}

// lowerBands fills rows[3:] and keys[3:] with the two bands other than the
// top band b0, each with its rows sorted by key, the band with the lesser
// first row first.
func (tk *tieKeys) lowerBands(b0 int, rows *[9]uint8, keys *[9]uint64) {
	type bandRows struct {
		rows [3]uint8
		keys [3]uint64
	}
	var others [2]bandRows
	n := 0
	for b := range 3 {
		if b == b0 {
			continue
		}
		br := &others[n]
		n++
		for j := range 3 {
			br.rows[j], br.keys[j] = uint8(b*3+j), tk.key(b*3+j)
		}
		// Sort the band's three rows by key.
		for x := 1; x < 3; x++ {
			for y := x; y > 0 && br.keys[y] < br.keys[y-1]; y-- {
				br.keys[y], br.keys[y-1] = br.keys[y-1], br.keys[y]
				br.rows[y], br.rows[y-1] = br.rows[y-1], br.rows[y]
			}
		}
	}
	if others[1].keys[0] < others[0].keys[0] {
		others[0], others[1] = others[1], others[0]
	}
	for j := range 3 {
		rows[3+j], keys[3+j] = others[0].rows[j], others[0].keys[j]
		rows[6+j], keys[6+j] = others[1].rows[j], others[1].keys[j]
	}
}

// perms3 lists the orders of three things.
var perms3 = [6][3]int8{{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}}

// secondRows finds the least top band for the current top rows (cs.sigma
// and cs.sigma3 set) and records the column orders that give it, or
// improve on cs.best.
//
// The second row's entry under the first column is always position 3 (its
// digit stands in another stack of the first row, which comes second), so
// the stack of the first row where the first column's digit stands comes
// second, and the third is the one left. When the two top rows are pure,
// all three digits of a stack of the second row stand in one stack of the
// first, and every order of the first stack's columns can give the least
// row (it begins 3 4 5). Otherwise each stack sends two of its digits to
// one stack and one to another, and only the orders that put the two first
// can give the least row (3 4 6 rather than 3 6 ...). Once the first
// stack's order is chosen, the rest is forced: the column of each digit
// read is placed at the first place still open in its stack (any other
// place would make the row greater), and a place still empty when it is
// read has one column left for it. So each pair of top rows has 3 x 6
// (pure) or 3 x 2 column orders to try, each read once, and abandoned as
// soon as its row is greater than the best so far; the third row, fixed by
// the first two, breaks ties.
func (cs *canonSolver) secondRows(pure bool) {
	sg := &cs.sigma
	for a := range int8(3) {
		b := a * 3
		s0, s1 := sg[b]/3, sg[b+1]/3
		switch {
		case pure:
			for _, p := range perms3 {
				cs.order(b+p[0], b+p[1], b+p[2], true)
			}
		case s0 == s1:
			cs.order(b, b+1, b+2, false)
			cs.order(b+1, b, b+2, false)
		case s0 == sg[b+2]/3:
			cs.order(b, b+2, b+1, false)
			cs.order(b+2, b, b+1, false)
		default:
			cs.order(b+1, b+2, b, false)
			cs.order(b+2, b+1, b, false)
		}
	}
}

// order reads the second row for the column order beginning with columns
// c0 c1 c2 (see secondRows), completing the order as it reads, and records
// it if the top band is not greater than the best so far. Rows are keys of
// 4 bits per entry, the first entry highest, each entry the position in the
// first row of the digit.
func (cs *canonSolver) order(c0, c1, c2 int8, pure bool) {
	sg := &cs.sigma
	x0, x1, x2 := sg[c0], sg[c1], sg[c2]
	if !pure && cs.have {
		// Entry 3 is the digit under x0: in the first stack (0-2), or in
		// the third (6 if x2, else 7). Most orders lose there: see that
		// before placing anything.
		e := uint64(7)
		switch sg[x0] {
		case c0:
			e = 0
		case c1:
			e = 1
		case c2:
			e = 2
		case x2:
			e = 6
		}
		if 0x3460|e > cs.best>>(4*5) {
			return
		}
	}
	// The first and second stacks are placed whole now: x0 and x1 open
	// the second, whose third column is x2 (pure) or the one left; x2
	// opens the third otherwise. Only the third stack's columns remain,
	// placed as they are read.
	pos := [9]int8{-1, -1, -1, -1, -1, -1, -1, -1, -1}
	col := [9]int8{c0, c1, c2, x0, x1, -1, -1, -1, -1}
	pos[c0], pos[c1], pos[c2], pos[x0], pos[x1] = 0, 1, 2, 3, 4
	key, open := uint64(0x345), int8(6)
	if pure {
		col[5], pos[x2] = x2, 5
	} else {
		b := x0/3*9 + 3 - x0 - x1 // the column left in x0's stack
		col[5], pos[b] = b, 5
		col[6], pos[x2] = x2, 6
		key, open = 0x346, 7
	}
	for j := 3; j < 9; j++ {
		x := sg[col[j]]
		p := pos[x]
		if p < 0 {
			p = open
			open++
			pos[x], col[p] = p, x
		}
		key = key<<4 | uint64(p)
		if cs.have && key > cs.best>>(4*uint(8-j)) {
			return
		}
	}
	var key3 uint64
	for _, c := range col {
		key3 = key3<<4 | uint64(pos[cs.sigma3[c]])
	}
	if !cs.have || key < cs.best || key3 < cs.best3 {
		cs.best, cs.best3, cs.have = key, key3, true
		cs.ties = cs.ties[:0]
	} else if key3 > cs.best3 {
		return
	}
	t := cs.cur
	t.cols = col
	cs.ties = append(cs.ties, t)
}

// colOrders lists the 1,296 column orders that keep stacks together.
var colOrders = func() [][9]uint8 {
	var out [][9]uint8
	for _, so := range perms3 {
		for _, a := range perms3 {
			for _, b := range perms3 {
				for _, c := range perms3 {
					var p [9]uint8
					for j, w := range [3][3]int8{a, b, c} {
						for i := range 3 {
							p[j*3+i] = uint8(so[j]*3 + w[i])
						}
					}
					out = append(out, p)
				}
			}
		}
	}
	return out
}()

// givState is a partial transform in canonicalGivens: the orientation, the
// column order, the rows chosen so far and the digits labelled so far.
type givState struct {
	t      uint8
	n      uint8 // digits labelled
	used   uint16
	cols   [9]uint8
	rows   [9]uint8
	digits [10]uint8
}

// canonicalGivens returns the least grid, cell by cell with a blank before
// every digit, among all transforms of g with the digits relabelled in the
// order they first appear (the minlex form of the givens), and a transform
// giving it. It is the canonical form of a puzzle without a unique solution.
//
// It builds the grid row by row. Every orientation and column order starts
// a candidate (2 x 1,296); at each row a candidate goes on with every row it
// may put there (one of an unused band, or of the band begun), and only the
// candidates whose new row is least survive. Candidates that would see the
// same rest of the grid (the rows left, relabelled so far, as sets) have the
// same future, so only one of them is kept: this keeps grids with few givens,
// where many transforms tie, as cheap as the rest.
func canonicalGivens(g Grid) (Grid, Transform) {
	var s [2]Grid
	s[0] = g
	for r := range 9 {
		for c := range 9 {
			s[1][c*9+r] = g[r*9+c]
		}
	}
	cur := make([]givState, 0, 2*len(colOrders))
	for t := range uint8(2) {
		for _, p := range colOrders {
			cur = append(cur, givState{t: t, cols: p})
		}
	}
	cur = dedupGivens(&s, cur, 0)
	var next []givState
	var out Grid
	for k := range 9 {
		best := ^uint64(0)
		next = next[:0]
		for i := range cur {
			st := &cur[i]
			sg := &s[st.t]
			var from, to int
			if k%3 == 0 {
				from, to = 0, 9
			} else {
				b := int(st.rows[k-1]) / 3
				from, to = b*3, b*3+3
			}
			for r := from; r < to; r++ {
				if k%3 == 0 && st.used&(7<<(r/3*3)) != 0 || st.used&(1<<r) != 0 {
					continue
				}
				dm, n := st.digits, st.n
				var key uint64
				for _, c := range st.cols {
					v := sg[r*9+int(c)]
					if v != 0 {
						if dm[v] == 0 {
							n++
							dm[v] = n
						}
						v = dm[v]
					}
					key = key<<4 | uint64(v)
				}
				if key > best {
					continue
				}
				if key < best {
					best = key
					next = next[:0]
				}
				ns := *st
				ns.digits, ns.n = dm, n
				ns.rows[k] = uint8(r)
				ns.used |= 1 << r
				next = append(next, ns)
			}
		}
		for j := range 9 {
			out[k*9+j] = uint8(best >> (4 * (8 - j)) & 15)
		}
		cur, next = next, cur
		if k < 8 {
			cur = dedupGivens(&s, cur, k+1)
		}
	}
	st := cur[0]
	tr := Transform{Transposed: st.t == 1, Rows: st.rows, Cols: st.cols, Digits: st.digits}
	n := st.n
	for d := 1; d <= 9; d++ { // digits absent from g: the labels left, in order
		if tr.Digits[d] == 0 {
			n++
			tr.Digits[d] = n
		}
	}
	return out, tr
}

// dedupGivens keeps one of each set of candidates that have k rows placed
// and see the same rest of the grid. Below a few dozen candidates it does
// nothing: that costs more than it saves.
func dedupGivens(s *[2]Grid, cur []givState, k int) []givState {
	if len(cur) <= 32 {
		return cur
	}
	seen := make(map[[9]uint64]struct{}, len(cur))
	out := cur[:0]
	for _, st := range cur {
		sg := &s[st.t]
		row := func(r int) uint64 {
			var key uint64
			for _, c := range st.cols {
				v := uint64(sg[r*9+int(c)])
				if v != 0 {
					if d := st.digits[v]; d != 0 {
						v = uint64(d)
					} else {
						v += 16 // not labelled yet: its own name
					}
				}
				key = key<<5 | v
			}
			return key
		}
		var key [9]uint64
		n := 0
		if k%3 != 0 { // the rest of the band begun
			b := int(st.rows[k-1]) / 3
			m := n
			for r := b * 3; r < b*3+3; r++ {
				if st.used&(1<<r) == 0 {
					key[n] = row(r)
					n++
				}
			}
			slices.Sort(key[m:n])
		}
		var bands [3][3]uint64
		nb := 0
		for b := range 3 {
			if st.used&(7<<(b*3)) != 0 {
				continue
			}
			for j := range 3 {
				bands[nb][j] = row(b*3 + j)
			}
			slices.Sort(bands[nb][:])
			nb++
		}
		slices.SortFunc(bands[:nb], func(x, y [3]uint64) int { return slices.Compare(x[:], y[:]) })
		for _, bd := range bands[:nb] {
			n += copy(key[n:], bd[:])
		}
		if _, ok := seen[key]; ok {
			continue
		}
		seen[key] = struct{}{}
		out = append(out, st)
	}
	return out
}
