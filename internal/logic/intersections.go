package logic

import "math/bits"

// lockingOrder is Sudoku Explainer's order of (first, second) unit kinds:
// box/column, box/row, column/box, row/box (kinds 0 row, 1 column, 2 box).
var lockingOrder = [4][2]int{{2, 1}, {2, 0}, {1, 2}, {0, 2}}

// locking finds pointing (a box's digit confined to one row or column)
// and claiming (a line's digit confined to one box). In direct mode it
// only takes those that leave a hidden single in a unit of the first kind
// (direct pointing, direct claiming), and only places it: the eliminations
// it reasons with are not made (Step.implied), as in Sudoku Explainer.
func (s *solver) locking(direct bool) (Step, bool) {
	b := &s.b
	g := b.g
	crosses := func(u, v int) bool { return g.cross[u][v] }
	for _, kinds := range lockingOrder {
		for d := 1; d <= 9; d++ {
			if !s.changedDigit(d) {
				continue // only d's candidates matter
			}
			for i1 := range 9 {
				u1 := kinds[0]*9 + i1
				pos := b.positions(u1, d)
				if popcount(pos) < 2 {
					continue
				}
				// The only unit of the second kind that can hold all the
				// places is the one through the first of them.
				in := g.set[u1].and(s.dcells[d])
				{
					u2 := g.unit[g.cells[u1][bits.TrailingZeros16(pos)]][kinds[1]]
					if !crosses(u1, u2) || in.and(g.set[u2]) != in || g.set[u2].and(s.dcells[d]) == in {
						continue // not confined, or nothing to remove
					}
					var elim []Candidate
					var cells []int
					for _, c := range g.cells[u2] {
						if b.has(c, d) {
							if g.set[u1].has(c) {
								cells = append(cells, c)
							} else {
								elim = append(elim, Candidate{c, d})
							}
						}
					}
					if len(elim) == 0 {
						continue
					}
					st := Step{Cells: cells, Eliminations: elim, Digits: []int{d}, Units: []int{u1, u2}}
					if !direct {
						st.Technique = Pointing
						if kinds[0] != 2 {
							st.Technique = Claiming
						}
						st.Grade = gradeOf(st.Technique)
						return st, true
					}
					for i3 := range 9 {
						u3 := kinds[0]*9 + i3
						if u3 == u1 || !crosses(u3, u2) {
							continue
						}
						p3 := b.positions(u3, d)
						if popcount(p3) < 2 {
							continue
						}
						left, n := -1, 0
						for m := p3; m != 0; m &= m - 1 {
							c := g.cells[u3][bits.TrailingZeros16(m)]
							if !g.set[u2].has(c) {
								left, n = c, n+1
							}
						}
						if n == 1 {
							st.Technique = DirectPointing
							if kinds[0] != 2 {
								st.Technique = DirectClaiming
							}
							st.Grade = gradeOf(st.Technique)
							st.Units = append(st.Units, u3)
							st.Placements = []Candidate{{left, d}}
							st.implied, st.Eliminations = st.Eliminations, nil
							return st, true
						}
					}
				}
			}
		}
	}
	return Step{}, false
}

// pointing is the rung of Pointing and Claiming: the classic pairs of
// houses first (locking), then those with an extra house (lockingExtra).
func (s *solver) pointing() (Step, bool) {
	if st, ok := s.locking(false); ok || len(s.b.g.extras) == 0 {
		return st, ok
	}
	return s.lockingExtra()
}

// lockingExtra is the intersection generalised to the extra houses, as
// Sukaku Explainer's variant mode has it: a digit's places in one house
// all lie in another house, one of the two an extra house (a diagonal, a
// window, ...), so the digit goes from the rest of the other. It is named
// Pointing when the first house is not a row or column, Claiming when it
// is, and graded as they are; the classic pairs come first (locking).
func (s *solver) lockingExtra() (Step, bool) {
	b := &s.b
	g := b.g
	houses := g.houses()
	for d := 1; d <= 9; d++ {
		if !s.changedDigit(d) {
			continue
		}
		for _, u1 := range houses {
			pos := b.positions(u1, d)
			if popcount(pos) < 2 {
				continue
			}
			in := g.set[u1].and(s.dcells[d])
			first := g.cells[u1][bits.TrailingZeros16(pos)]
			var st Step
			found := false
			g.cellHouses(first, func(u2, _ int) {
				if found || u2 == u1 || (u1 < 27 && u2 < 27) || in.and(g.set[u2]) != in || g.set[u2].and(s.dcells[d]) == in {
					return
				}
				var elim []Candidate
				g.set[u2].and(s.dcells[d]).each(func(c int) {
					if !in.has(c) {
						elim = append(elim, Candidate{c, d})
					}
				})
				var cells []int
				in.each(func(c int) { cells = append(cells, c) })
				st = Step{Technique: Pointing, Cells: cells, Eliminations: elim, Digits: []int{d}, Units: []int{u1, u2}}
				if u1 < 18 {
					st.Technique = Claiming
				}
				st.Grade = gradeOf(st.Technique)
				found = true
			})
			if found {
				return st, true
			}
		}
	}
	return Step{}, false
}
