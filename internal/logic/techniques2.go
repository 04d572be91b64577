package logic

import (
	"math/bits"
	"slices"
)

// ape finds Sudoku Explainer's aligned pair exclusion (6.2): two cells
// with two or more candidates and at least two bivalue cells that see both.
// A pair of values for the two cells is impossible when the cells see each
// other and the values are equal, or when a common bivalue cell holds
// exactly those two values; a value of a cell that belongs to no possible
// pair is removed.
func (s *solver) ape() (Step, bool) {
	b := &s.b
	var base []int
	for c := range 81 {
		if popcount(b.cand[c]) >= 2 && sees[c].and(s.bivalue).count() >= 2 {
			base = append(base, c)
		}
	}
	var ex []uint16
	for i, c1 := range base {
		hot1 := s.chg.has(c1)
		near1 := sees[c1].and(s.chg)
		for _, c2 := range base[i+1:] {
			if !hot1 && !s.chg.has(c2) && near1.and(sees[c2]).empty() {
				continue // nothing it rests on changed since the memo
			}
			both := sees[c1].and(sees[c2])
			common := both.and(s.bivalue)
			if common.count() < 2 {
				continue
			}
			ex = ex[:0]
			common.each(func(c int) { ex = append(ex, b.cand[c]) })
			peers := sees[c1].has(c2)
			// blocked(v): the values of the other cell that cannot go with
			// v (equal to it in a shared unit, or emptying an excluder).
			blocked := func(v uint16) uint16 {
				m := uint16(0)
				if peers {
					m = v
				}
				for _, e := range ex {
					if e&v != 0 {
						m |= e &^ v
					}
				}
				return m
			}
			var ok1, ok2 uint16 // values of some possible pair
			for m1 := b.cand[c1]; m1 != 0; m1 &= m1 - 1 {
				if a := m1 & -m1; b.cand[c2]&^blocked(a) != 0 {
					ok1 |= a
				}
			}
			for m2 := b.cand[c2]; m2 != 0; m2 &= m2 - 1 {
				if d := m2 & -m2; b.cand[c1]&^blocked(d) != 0 {
					ok2 |= d
				}
			}
			var elim []Candidate
			for _, d := range digitsOf(b.cand[c1] &^ ok1) {
				elim = append(elim, Candidate{c1, d})
			}
			for _, d := range digitsOf(b.cand[c2] &^ ok2) {
				elim = append(elim, Candidate{c2, d})
			}
			if len(elim) == 0 {
				continue
			}
			cells := []int{c1, c2}
			var excl []int
			common.each(func(c int) { excl = append(excl, c) })
			cells = append(cells, excl...)
			slices.Sort(cells)
			st := Step{Technique: AlignedPairExclusion, Grade: gradeOf(AlignedPairExclusion), Cells: cells, Eliminations: elim}
			st.roof, st.set = []int{c1, c2}, excl
			return st, true
		}
	}
	return Step{}, false
}

// urType3 finds unique rectangles of type 3 (Sudoku Explainer: 4.5 plus
// 0.1 for each value of the naked set past the first, so 4.6 to 4.8): the
// two cells of the rectangle holding extra digits share a unit; as one of
// them must hold an extra digit, they act as one cell holding the extras,
// which with k-1 other cells of the unit forms a naked set of k digits.
func (s *solver) urType3() (Step, bool) {
	var best Step
	found := false
	for cells, pair := range s.rectangles() {
		if st, ok := s.ur3At(cells, pair); ok && (!found || st.Grade < best.Grade) {
			best, found = st, true
		}
	}
	return best, found
}

func (s *solver) ur3At(cells [4]int, pair uint16) (Step, bool) {
	b := &s.b
	var roof []int
	for _, c := range cells {
		if b.cand[c] != pair {
			roof = append(roof, c)
		}
	}
	if len(roof) != 2 {
		return Step{}, false
	}
	extra := (b.cand[roof[0]] | b.cand[roof[1]]) &^ pair
	var best Step
	found := false
	for k := 0; k < 3; k++ {
		u := cellUnit[roof[0]][k]
		if cellUnit[roof[1]][k] != u {
			continue
		}
		// other cells of the unit that can join the set: no digit of the pair
		var open uint16
		for j, c := range unitCells[u] {
			if c != roof[0] && c != roof[1] && popcount(b.cand[c]) >= 2 && b.cand[c]&pair == 0 {
				open |= 1 << j
			}
		}
		for n := 1; n <= 3; n++ {
			grade := fromTenths(tenths(gradeOf(UniqueRectangle3)) + n - 1)
			if found && grade >= best.Grade {
				break
			}
			combos(open, n, func(js uint16) bool {
				set, digits, elim := s.virtualSet(u, js, n, extra, roof)
				if len(elim) == 0 {
					return false
				}
				cs := slices.Clone(cells[:])
				slices.Sort(cs)
				best = Step{Technique: UniqueRectangle3, Grade: grade, Cells: cs, Eliminations: elim,
					Digits: digitsOf(pair), Units: []int{u}}
				best.roof = slices.Clone(roof)
				best.set = set
				best.setDigits = digitsOf(digits)
				found = true
				return true
			})
		}
	}
	return best, found
}

// virtualSet checks for a naked set in unit u made of the cells js picks
// (a bitset of the unit's positions, n of them) and the virtual cell that
// the cells virtual form together with their candidates extra: n+1 digits
// over n+1 cells, as in unique rectangles and BUGs of type 3. It returns
// the set's real cells, its digits and the candidates of those digits in the
// unit's other cells, which go; no eliminations when js forms no such set.
func (s *solver) virtualSet(u int, js uint16, n int, extra uint16, virtual []int) (set []int, digits uint16, elim []Candidate) {
	b := &s.b
	digits = extra
	for m := js; m != 0; m &= m - 1 {
		digits |= b.cand[unitCells[u][bits.TrailingZeros16(m)]]
	}
	if popcount(digits) != n+1 {
		return nil, 0, nil
	}
	for j, c := range unitCells[u] {
		if js&(1<<j) != 0 {
			set = append(set, c)
			continue
		}
		if slices.Contains(virtual, c) {
			continue
		}
		for _, d := range digitsOf(b.cand[c] & digits) {
			elim = append(elim, Candidate{c, d})
		}
	}
	return set, digits, elim
}

// bugOthers finds the bivalue universal grave types 2 to 4: every unsolved
// cell but a few "BUG cells" has two candidates, and with the BUG cells'
// extra candidates gone every digit would fill every unit exactly twice,
// a deadly pattern; so some extra candidate is true. Grades (Sudoku
// Explainer): type 2 (one common extra digit) and type 4 (two BUG cells of
// a unit with a conjugate digit) 5.7; type 3 (the BUG cells of a unit act
// as one cell holding the extras, in a naked set of k digits) 5.6 plus 0.1
// for each digit past the first.
func (s *solver) bugOthers() (Step, bool) {
	b := &s.b
	var bugCells []int
	for c := range 81 {
		switch k := popcount(b.cand[c]); {
		case k >= 3:
			bugCells = append(bugCells, c)
		}
	}
	if len(bugCells) < 2 || len(bugCells) > 4 {
		return Step{}, false
	}
	// Choose the two digits each BUG cell keeps so that every digit
	// appears exactly twice (or not at all) in every unit.
	extras := make([]uint16, len(bugCells))
	var try func(i int) bool
	try = func(i int) bool {
		if i == len(bugCells) {
			return s.bugShape(bugCells, extras)
		}
		m := b.cand[bugCells[i]]
		for _, keep := range pairsOf(m) {
			extras[i] = m &^ keep
			if try(i + 1) {
				return true
			}
		}
		return false
	}
	if !try(0) {
		return Step{}, false
	}
	cells := slices.Clone(bugCells)
	// Type 2: one extra digit, the same in every BUG cell.
	all := uint16(0)
	single := true
	for _, e := range extras {
		all |= e
		single = single && popcount(e) == 1
	}
	if single && popcount(all) == 1 {
		d := firstDigit(all)
		see := sees[bugCells[0]]
		for _, c := range bugCells[1:] {
			see = see.and(sees[c])
		}
		var elim []Candidate
		see.and(s.dcells[d]).each(func(c int) { elim = append(elim, Candidate{c, d}) })
		if len(elim) > 0 {
			return Step{Technique: BUG2, Grade: gradeOf(BUG2), Cells: cells, Eliminations: elim, Digits: []int{d}}, true
		}
	}
	// The units holding every BUG cell.
	var best Step
	found := false
	for k := 0; k < 3; k++ {
		u := cellUnit[bugCells[0]][k]
		in := true
		for _, c := range bugCells[1:] {
			in = in && cellUnit[c][k] == u
		}
		if !in {
			continue
		}
		// Type 4: two BUG cells, one extra each, and a digit of both whose
		// only places in the unit are these cells: each cell is its extra
		// or that digit, so its other kept digit goes.
		if len(bugCells) == 2 && popcount(extras[0]) == 1 && popcount(extras[1]) == 1 {
			c1, c2 := bugCells[0], bugCells[1]
			k1, k2 := b.cand[c1]&^extras[0], b.cand[c2]&^extras[1]
			for m := k1 & k2; m != 0; m &= m - 1 {
				x := bits.TrailingZeros16(m)
				if popcount(b.positions(u, x)) != 2 {
					continue
				}
				var elim []Candidate
				if o := k1 &^ (1 << x); o != 0 {
					elim = append(elim, Candidate{c1, firstDigit(o)})
				}
				if o := k2 &^ (1 << x); o != 0 {
					elim = append(elim, Candidate{c2, firstDigit(o)})
				}
				if len(elim) > 0 && (!found || best.Grade > gradeOf(BUG4)) {
					best, found = Step{Technique: BUG4, Grade: gradeOf(BUG4), Cells: cells, Eliminations: elim, Digits: []int{x}, Units: []int{u}}, true
				}
			}
		}
		// Type 3: a naked set of the extras with other cells of the unit.
		var open uint16
		for j, c := range unitCells[u] {
			if popcount(b.cand[c]) == 2 {
				open |= 1 << j
			}
		}
		for n := 1; n <= 3; n++ {
			g := fromTenths(tenths(gradeOf(BUG3)) + n - 1)
			if found && g >= best.Grade {
				break
			}
			combos(open, n, func(js uint16) bool {
				set, digits, elim := s.virtualSet(u, js, n, all, bugCells)
				if len(elim) == 0 {
					return false
				}
				best = Step{Technique: BUG3, Grade: g, Cells: cells, Eliminations: elim, Units: []int{u}, Digits: digitsOf(all)}
				best.set = set
				best.setDigits = digitsOf(digits)
				found = true
				return true
			})
		}
	}
	return best, found
}

// bugShape reports whether, with extras[i] taken out of bugCells[i], every
// digit has zero or two places in every unit.
func (s *solver) bugShape(bugCells []int, extras []uint16) bool {
	for u := 0; u < 27; u++ {
		for d := 1; d <= 9; d++ {
			n := popcount(s.b.positions(u, d))
			for i, c := range bugCells {
				if extras[i]&(1<<d) != 0 && unitSet[u].has(c) {
					n--
				}
			}
			if n != 0 && n != 2 {
				return false
			}
		}
	}
	return true
}

// nameChain renames a forcing chain that assumes a candidate and reaches its
// removal through two other cells holding the digit: Z=x → A≠x → … → B=x →
// Z≠x. Its middle, A≠x → … → B=x, is an alternating inference chain: A or B
// is x, so x goes from every cell seeing both (Z among them). By its links
// the middle is a Simple Colouring trap (one digit, conjugate pairs only),
// an X-Chain (one digit), a W-Wing (bivalue cells A and B holding x and y,
// joined by a conjugate pair of y), an XY-Chain (every strong link inside a
// bivalue cell) or otherwise stays a forcing chain. The grade stays the
// chain's, which is how Sudoku Explainer rates the same deduction.
func (s *solver) nameChain(st *Step, path []int32) {
	n := len(path)
	if n < 6 || !nodeOn(path[0]) || nodeOn(path[n-1]) {
		return
	}
	z, x := nodeCell(path[0]), nodeDigit(path[0])
	inner := path[1 : n-1]
	first, last := inner[0], inner[len(inner)-1]
	if nodeOn(first) || !nodeOn(last) || nodeDigit(first) != x || nodeDigit(last) != x ||
		nodeCell(first) == z || nodeCell(last) == z || nodeCell(first) == nodeCell(last) {
		return
	}
	a, b := nodeCell(first), nodeCell(last)
	oneDigit, conjugateOnly, yStrong := true, true, true
	for i := 0; i+1 < len(inner); i++ {
		p, q := inner[i], inner[i+1]
		sameCell := nodeCell(p) == nodeCell(q)
		if nodeDigit(p) != x || nodeDigit(q) != x {
			oneDigit = false
		}
		if !sameCell && !s.strong[nodeDigit(p)][nodeCell(p)].has(nodeCell(q)) {
			conjugateOnly = false
		}
		if !nodeOn(p) && !sameCell { // a strong link between cells
			yStrong = false
		}
	}
	var name string
	switch {
	case oneDigit && conjugateOnly:
		name = SimpleColouring
	case oneDigit:
		name = XChain
	case len(inner) == 6 && s.isWWing(inner):
		name = WWing
	case yStrong:
		name = XYChain
	default:
		return
	}
	var elim []Candidate
	sees[a].and(sees[b]).and(s.dcells[x]).each(func(c int) { elim = append(elim, Candidate{c, x}) })
	st.Technique = name
	st.Placements = nil
	st.Eliminations = elim
	st.Chain = make([]Node, len(inner))
	for i, id := range inner {
		st.Chain[i] = toNode(id)
	}
	st.Cells = pathCells(inner)
	st.Digits = []int{x}
}

// isWWing: A≠x → A=y → P≠y → Q=y → B≠y → B=x with A and B bivalue.
func (s *solver) isWWing(in []int32) bool {
	a, b := nodeCell(in[0]), nodeCell(in[5])
	y := nodeDigit(in[1])
	return nodeCell(in[1]) == a && nodeCell(in[4]) == b &&
		nodeDigit(in[2]) == y && nodeDigit(in[3]) == y && nodeDigit(in[4]) == y &&
		nodeCell(in[2]) != nodeCell(in[3]) && s.b.cand[a] == s.b.cand[b] && popcount(s.b.cand[a]) == 2
}
