// Uniqueness techniques: unique rectangles (types 1 to 4) and the
// bivalue universal grave (BUG+1, types 2 to 4).

package logic

import (
	"iter"
	"math/bits"
	"slices"
)

// uniqueRectangles finds unique rectangles of types 1, 2 and 4: four
// cells in two rows, two columns and two boxes that would otherwise hold
// only the same two digits, giving the puzzle two solutions.
func (s *solver) uniqueRectangles() (Step, bool) {
	for cells, pair := range s.rectangles() {
		if st, ok := s.urAt(cells, pair); ok {
			return st, true
		}
	}
	return Step{}, false
}

// rectangles yields every rectangle that could be deadly, with each pair of
// digits all four cells can hold: four cells in two rows, two columns and
// two boxes, on rows with a unit changed since the last search (nearRows).
func (s *solver) rectangles() iter.Seq2[[4]int, uint16] {
	return func(yield func([4]int, uint16) bool) {
		b := &s.b
		near := s.nearRows()
		for r1 := 0; r1 < 9; r1++ {
			for r2 := r1 + 1; r2 < 9; r2++ {
				nc := near[r1] | near[r2]
				if nc == 0 {
					continue // no rectangle on these rows has a changed unit
				}
				for c1 := 0; c1 < 9; c1++ {
					for c2 := c1 + 1; c2 < 9; c2++ {
						if (r1/3 == r2/3) == (c1/3 == c2/3) || nc&(1<<c1|1<<c2) == 0 {
							continue // the four cells must span exactly two boxes
						}
						cells := [4]int{r1*9 + c1, r1*9 + c2, r2*9 + c1, r2*9 + c2}
						common := allDigits
						for _, c := range cells {
							common &= b.cand[c]
						}
						if popcount(common) < 2 {
							continue
						}
						for _, pair := range pairsOf(common) {
							if !yield(cells, pair) {
								return
							}
						}
					}
				}
			}
		}
	}
}

// nearRows returns, for each row, the columns of its cells that lie in a
// changed unit (since). A rectangle reads only its cells and the units two
// of them share, so only one with a cell there can be new.
func (s *solver) nearRows() [9]uint16 {
	var near [9]uint16
	for u := range 27 {
		if s.chgUnit&(1<<u) == 0 {
			continue
		}
		for _, c := range unitCells[u] {
			near[c/9] |= 1 << (c % 9)
		}
	}
	return near
}

func pairsOf(m uint16) []uint16 {
	var out []uint16
	ds := digitsOf(m)
	for i := range ds {
		for j := i + 1; j < len(ds); j++ {
			out = append(out, 1<<ds[i]|1<<ds[j])
		}
	}
	return out
}

func (s *solver) urAt(cells [4]int, pair uint16) (Step, bool) {
	b := &s.b
	var roof []int // the cells holding more than the pair
	for _, c := range cells {
		if b.cand[c] != pair {
			roof = append(roof, c)
		}
	}
	mk := func(name string, elim []Candidate) (Step, bool) {
		cs := cells[:]
		cs = slices.Clone(cs)
		slices.Sort(cs)
		return Step{Technique: name, Grade: gradeOf(name), Cells: cs, Eliminations: elim, Digits: digitsOf(pair)}, true
	}
	switch len(roof) {
	case 1:
		var elim []Candidate
		for _, d := range digitsOf(pair) {
			elim = append(elim, Candidate{roof[0], d})
		}
		return mk(UniqueRectangle1, elim)
	case 2:
		r0, r1 := roof[0], roof[1]
		extra0, extra1 := b.cand[r0]&^pair, b.cand[r1]&^pair
		if extra0 == extra1 && popcount(extra0) == 1 {
			d := firstDigit(extra0)
			var elim []Candidate
			sees[r0].and(sees[r1]).each(func(c int) {
				if b.has(c, d) {
					elim = append(elim, Candidate{c, d})
				}
			})
			if len(elim) > 0 {
				st, ok := mk(UniqueRectangle2, elim)
				st.roof, st.setDigits = []int{r0, r1}, []int{d}
				return st, ok
			}
		}
		// Type 4: in a unit holding both roof cells, one digit of the pair
		// lies only in them, so the other digit goes from both.
		for k := 0; k < 3; k++ {
			u := cellUnit[r0][k]
			if cellUnit[r1][k] != u {
				continue
			}
			ds := digitsOf(pair)
			for i, d := range ds {
				if popcount(b.positions(u, d)) == 2 {
					o := ds[1-i]
					st, ok := mk(UniqueRectangle4, []Candidate{{r0, o}, {r1, o}})
					st.roof, st.setDigits, st.Units = []int{r0, r1}, []int{d}, []int{u}
					return st, ok
				}
			}
		}
	}
	return Step{}, false
}

// bug finds BUG+1: every unsolved cell has two candidates but one,
// which has three; the digit appearing three times in its units must go there.
func (s *solver) bug() (Step, bool) {
	if st, ok := s.bug1(); ok {
		return st, true
	}
	return s.bugOthers()
}

func (s *solver) bug1() (Step, bool) {
	b := &s.b
	odd := -1
	for c := range 81 {
		switch popcount(b.cand[c]) {
		case 0, 2:
		case 3:
			if odd >= 0 {
				return Step{}, false
			}
			odd = c
		default:
			return Step{}, false
		}
	}
	if odd < 0 {
		return Step{}, false
	}
	for _, d := range digitsOf(b.cand[odd]) {
		all := true
		for k := 0; k < 3; k++ {
			if popcount(b.positions(cellUnit[odd][k], d)) != 3 {
				all = false
			}
		}
		if all {
			return Step{Technique: BUG1, Grade: gradeOf(BUG1), Cells: []int{odd}, Placements: []Candidate{{odd, d}}, Digits: []int{d}}, true
		}
	}
	return Step{}, false
}

// urType3 finds unique rectangles of type 3 (graded by the size of the
// naked set, see the technique table): the two cells of the rectangle holding extra digits share a unit; as one of
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
// a deadly pattern; so some extra candidate is true. Type 2: one common
// extra digit; type 4: two BUG cells of a unit with a conjugate digit;
// type 3: the BUG cells of a unit act as one cell holding the extras, in a
// naked set (graded by its size, see the technique table).
func (s *solver) bugOthers() (Step, bool) {
	bugCells, extras, ok := s.bugExtras()
	if !ok {
		return Step{}, false
	}
	// Type 2: one extra digit, the same in every BUG cell.
	all := uint16(0)
	single := true
	for _, e := range extras {
		all |= e
		single = single && popcount(e) == 1
	}
	if single && popcount(all) == 1 {
		if st, ok := s.bugType2(bugCells, firstDigit(all)); ok {
			return st, true
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
		if len(bugCells) == 2 && popcount(extras[0]) == 1 && popcount(extras[1]) == 1 {
			s.bugType4(u, bugCells, extras, &best, &found)
		}
		s.bugType3(u, bugCells, all, &best, &found)
	}
	return best, found
}

// bugExtras finds the BUG cells (three candidates or more; two to four of
// them) and the extra candidates of each: those left when it keeps two
// digits so that every digit appears exactly twice (or not at all) in
// every unit (bugShape).
func (s *solver) bugExtras() (bugCells []int, extras []uint16, ok bool) {
	b := &s.b
	for c := range 81 {
		if popcount(b.cand[c]) >= 3 {
			bugCells = append(bugCells, c)
		}
	}
	if len(bugCells) < 2 || len(bugCells) > 4 {
		return nil, nil, false
	}
	extras = make([]uint16, len(bugCells))
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
	return bugCells, extras, try(0)
}

// bugType2: every BUG cell's one extra is d, so d goes from the cells that
// see them all.
func (s *solver) bugType2(bugCells []int, d int) (Step, bool) {
	see := sees[bugCells[0]]
	for _, c := range bugCells[1:] {
		see = see.and(sees[c])
	}
	var elim []Candidate
	see.and(s.dcells[d]).each(func(c int) { elim = append(elim, Candidate{c, d}) })
	if len(elim) == 0 {
		return Step{}, false
	}
	return Step{Technique: BUG2, Grade: gradeOf(BUG2), Cells: slices.Clone(bugCells), Eliminations: elim, Digits: []int{d}}, true
}

// bugType4: two BUG cells of unit u, one extra each, and a digit x of both
// whose only places in u are these cells: each cell is its extra or x, so
// its other kept digit goes. It replaces *best when it grades lower.
func (s *solver) bugType4(u int, bugCells []int, extras []uint16, best *Step, found *bool) {
	b := &s.b
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
		if len(elim) > 0 && (!*found || best.Grade > gradeOf(BUG4)) {
			*best, *found = Step{Technique: BUG4, Grade: gradeOf(BUG4), Cells: slices.Clone(bugCells), Eliminations: elim, Digits: []int{x}, Units: []int{u}}, true
		}
	}
}

// bugType3: the BUG cells of unit u act as one cell holding the extras
// all, in a naked set with n other bivalue cells of u (n+1 digits, up to
// 6 as in Sukaku Explainer), graded by n. It replaces *best when it grades
// lower.
func (s *solver) bugType3(u int, bugCells []int, all uint16, best *Step, found *bool) {
	var open uint16
	for j, c := range unitCells[u] {
		if popcount(s.b.cand[c]) == 2 {
			open |= 1 << j
		}
	}
	for n := 1; n <= 5; n++ {
		g := fromTenths(tenths(gradeOf(BUG3)) + n - 1) // SE's Bug3Hint: 5.7 + 0.1 per digit of the set past the first
		if *found && g >= best.Grade {
			break
		}
		combos(open, n, func(js uint16) bool {
			set, digits, elim := s.virtualSet(u, js, n, all, bugCells)
			if len(elim) == 0 {
				return false
			}
			*best = Step{Technique: BUG3, Grade: g, Cells: slices.Clone(bugCells), Eliminations: elim, Units: []int{u}, Digits: digitsOf(all)}
			best.set = set
			best.setDigits = digitsOf(digits)
			*found = true
			return true
		})
	}
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
