// Aligned pair exclusion.

package logic

import "slices"

// ape finds Sudoku Explainer's aligned pair exclusion: two cells
// with two or more candidates and at least two bivalue cells that see both.
// A pair of values for the two cells is impossible when the cells see each
// other and the values are equal, or when a common bivalue cell holds
// exactly those two values; a value of a cell that belongs to no possible
// pair is removed.
func (s *solver) ape() (Step, bool) {
	b := &s.b
	sees := &b.g.sees
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
