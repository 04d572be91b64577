package logic

import (
	"iter"
	"slices"
)

// uniqueRectangles finds unique rectangles of types 1, 2 and 4 (4.5): four
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
		return Step{Technique: name, Grade: 4.5, Cells: cs, Eliminations: elim, Digits: digitsOf(pair)}, true
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
				return mk(UniqueRectangle2, elim)
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
					return mk(UniqueRectangle4, []Candidate{{r0, o}, {r1, o}})
				}
			}
		}
	}
	return Step{}, false
}

// bug finds BUG+1 (5.6): every unsolved cell has two candidates but one,
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
			return Step{Technique: BUG1, Grade: 5.6, Cells: []int{odd}, Placements: []Candidate{{odd, d}}, Digits: []int{d}}, true
		}
	}
	return Step{}, false
}
