package logic

import (
	"fmt"
	"math/bits"
)

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

// generalIntersection finds Generalized Intersections (Sukaku Explainer's
// VLocking): in variant mode only.
func (s *solver) generalIntersection() (Step, bool) {
	b := &s.b
	g := b.g
	for _, kind := range g.seRegionOrder(false) {
		for d := 1; d <= 9; d++ {
			if !s.changedDigit(d) {
				continue // only d's candidates matter
			}
			for _, u := range kind {
				pos := b.positions(u, d)
				if n := popcount(pos); n < 2 || n > 6 {
					continue
				}
				in := g.set[u].and(s.dcells[d])
				victims := s.dcells[d]
				in.each(func(c int) { victims = victims.and(g.sees[c]) })
				if victims.empty() {
					continue
				}
				var cells []int
				in.each(func(c int) { cells = append(cells, c) })
				var elim []Candidate
				victims.each(func(c int) { elim = append(elim, Candidate{c, d}) })
				return Step{Technique: GeneralizedIntersections, Grade: gradeOf(GeneralizedIntersections), Cells: cells, Eliminations: elim, Digits: []int{d}, Units: []int{u}}, true
			}
		}
	}
	return Step{}, false
}

// renderGeneralIntersection writes a Generalized Intersection: the
// digit's places in the house, and the cells that see them all.
func renderGeneralIntersection(s Step) string {
	d := s.Digits[0]
	return fmt.Sprintf("%s: in %s the %ds lie in %s, so %d is removed from the cells that see them all: %s.", s.Technique, unitName(s.Units[0]), d, cellList(s.Cells), d, cellList(elimCells(s)))
}
