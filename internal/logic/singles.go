package logic

import "math/bits"

// unitOrder is the order Sudoku Explainer visits units in: boxes, rows, columns.
var unitOrder = func() [27]int {
	var o [27]int
	for i := range 9 {
		o[i], o[9+i], o[18+i] = 18+i, i, 9+i
	}
	return o
}()

// singles finds a full house (the last empty cell of a unit), else a
// hidden single (graded lower in a box than in a row or column).
func (s *solver) singles() (Step, bool) {
	b := &s.b
	g := b.g
	for _, u := range g.order(&unitOrder) {
		if s.fhAt[u] == s.uver[u]+1 {
			continue // no full house there last time, and nothing changed
		}
		last, n := -1, 0
		for _, c := range g.cells[u] {
			if b.val[c] == 0 {
				last, n = c, n+1
			}
		}
		if n == 1 && b.cand[last] != 0 {
			d := firstDigit(b.cand[last])
			return Step{Technique: FullHouse, Grade: gradeOf(FullHouse), Cells: []int{last}, Units: []int{u},
				Placements: []Candidate{{last, d}}, Digits: []int{d}}, true
		}
		s.fhAt[u] = s.uver[u] + 1
	}
	for _, u := range g.order(&unitOrder) {
		if s.hsAt[u] == s.uver[u]+1 {
			continue
		}
		for d := 1; d <= 9; d++ {
			m := b.positions(u, d)
			if popcount(m) == 1 {
				c := g.cells[u][bits.TrailingZeros16(m)]
				gr := topOf(HiddenSingle) // in a row or column
				if u >= 18 {
					gr = gradeOf(HiddenSingle) // in a box, a region or an extra house
				}
				return Step{Technique: HiddenSingle, Grade: gr, Cells: []int{c}, Units: []int{u},
					Placements: []Candidate{{c, d}}, Digits: []int{d}}, true
			}
		}
		s.hsAt[u] = s.uver[u] + 1
	}
	return Step{}, false
}

// nakedSingle finds a cell with one candidate left.
func (s *solver) nakedSingle() (Step, bool) {
	for c := range 81 {
		if m := s.b.cand[c]; m != 0 && m&(m-1) == 0 && s.chg.has(c) {
			d := firstDigit(m)
			return Step{Technique: NakedSingle, Grade: gradeOf(NakedSingle), Cells: []int{c},
				Placements: []Candidate{{c, d}}, Digits: []int{d}}, true
		}
	}
	return Step{}, false
}
