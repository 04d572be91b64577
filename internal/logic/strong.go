package logic

import (
	"fmt"
	"math/bits"
	"slices"
)

// Two strong links of one digit (Sukaku Explainer's "Scraper, Kite,
// Turbot", its StrongLinks(2)): units holding the digit in exactly two
// cells, one end of each seeing an end of the other (in a column, else a
// row, else a box: the shared unit). One of the two far ends holds the
// digit, so it goes from every cell seeing both, outside the two links'
// units and the shared one. When the far ends see each other too the four
// cells close a loop, and the digit also goes from every cell seeing both
// near ends. Explainer's grade: 4.0 when both links are rows or both
// columns (Skyscraper), else 4.1 (2-String Kite for a row and a column,
// Turbot Fish when a link is a box). Of all the patterns on the board the
// step is the easiest, then the one removing most, then the one with
// fewer links in rows or columns, as Explainer orders them. Grouped links (empty rectangles, Explainer's 4.3) are not found.

// strongLink is a unit holding a digit in exactly two cells, a and b.
type strongLink struct{ unit, a, b int }

// turbotStep is a two-link pattern found, with what orders it.
type turbotStep struct {
	st    Step
	grade float64
	n     int // eliminations
	lines int // links in a row or column, not a box: Explainer's last tie-break
}

// before reports whether t comes before u in Explainer's order: easiest,
// then most eliminations, then fewest line links.
func (t turbotStep) before(u *turbotStep) bool {
	if u == nil || t.grade != u.grade {
		return u == nil || t.grade < u.grade
	}
	if t.n != u.n {
		return t.n > u.n
	}
	return t.lines < u.lines
}

// strongLinksOf lists the strong links of d; a box whose two cells share a
// line is left out (that line's link is the same).
func (s *solver) strongLinksOf(d int) []strongLink {
	var links []strongLink
	for u := range 27 {
		pos := s.b.positions(u, d)
		if popcount(pos) != 2 {
			continue
		}
		a := unitCells[u][bits.TrailingZeros16(pos)]
		c := unitCells[u][bits.TrailingZeros16(pos&(pos-1))]
		if u >= 18 && (a/9 == c/9 || a%9 == c%9) {
			continue
		}
		links = append(links, strongLink{u, a, c})
	}
	return links
}

// sharedUnit is the unit two cells share, Explainer's way: the column,
// else the row, else the box; -1 when they share none.
func sharedUnit(a, b int) int {
	switch {
	case a%9 == b%9:
		return cellUnit[a][1]
	case a/9 == b/9:
		return cellUnit[a][0]
	case cellUnit[a][2] == cellUnit[b][2]:
		return cellUnit[a][2]
	}
	return -1
}

// turbot finds the easiest two-strong-link pattern (see above).
func (s *solver) turbot() (Step, bool) {
	var best *turbotStep
	for d := 1; d <= 9; d++ {
		if !s.changedDigit(d) {
			continue // only d's candidates matter
		}
		links := s.strongLinksOf(d)
		for i, l1 := range links {
			for _, l2 := range links[i+1:] {
				if l1.a == l2.a || l1.a == l2.b || l1.b == l2.a || l1.b == l2.b {
					continue
				}
				for o := range 4 {
					if t, ok := s.turbotAt(d, l1, l2, o); ok && t.before(best) {
						best = &t
					}
				}
			}
		}
	}
	if best == nil {
		return Step{}, false
	}
	return best.st, true
}

// turbotAt tries links l1 and l2 of digit d joined at the ends orientation
// o picks (bit 0: l1's, bit 1: l2's).
func (s *solver) turbotAt(d int, l1, l2 strongLink, o int) (turbotStep, bool) {
	start, b1 := l1.a, l1.b
	if o&1 != 0 {
		start, b1 = b1, start
	}
	end, b2 := l2.a, l2.b
	if o&2 != 0 {
		end, b2 = b2, end
	}
	shared := sharedUnit(b1, b2)
	if shared < 0 {
		return turbotStep{}, false
	}
	ring := sharedUnit(start, end) >= 0
	if ring && o != 0 {
		return turbotStep{}, false // a loop is the same from every end: taken once
	}
	outside := cellSet{^uint64(0), ^uint64(0)}
	for _, u := range []int{l1.unit, l2.unit} {
		outside = cellSet{outside[0] &^ unitSet[u][0], outside[1] &^ unitSet[u][1]}
	}
	victims := sees[start].and(sees[end])
	if ring {
		near := sees[b1].and(sees[b2])
		victims = cellSet{victims[0] | near[0], victims[1] | near[1]}
	} else {
		outside = cellSet{outside[0] &^ unitSet[shared][0], outside[1] &^ unitSet[shared][1]}
	}
	victims = victims.and(outside).and(s.dcells[d])
	pattern := []int{start, b1, b2, end}
	var elim []Candidate
	victims.each(func(c int) {
		if !slices.Contains(pattern, c) {
			elim = append(elim, Candidate{c, d})
		}
	})
	if len(elim) == 0 {
		return turbotStep{}, false
	}
	name := turbotName(l1.unit/9, l2.unit/9)
	cells := slices.Clone(pattern)
	slices.Sort(cells)
	st := Step{Technique: name, Grade: gradeOf(name), Cells: cells, Eliminations: elim,
		Units: []int{l1.unit, l2.unit, shared}, Digits: []int{d},
		Chain: []Node{{Candidate{start, d}, false}, {Candidate{b1, d}, true}, {Candidate{b2, d}, false}, {Candidate{end, d}, true}}}
	lines := 0
	for _, u := range []int{l1.unit, l2.unit} {
		if u < 18 {
			lines++
		}
	}
	return turbotStep{st, st.Grade, len(elim), lines}, true
}

// turbotName names a two-link pattern by the kinds of its links' units
// (0 row, 1 column, 2 box).
func turbotName(k1, k2 int) string {
	switch {
	case k1 == k2 && k1 < 2:
		return Skyscraper
	case k1 < 2 && k2 < 2:
		return TwoStringKite
	}
	return TurbotFish
}

// renderTurbot: the chain is a far end, its link's other end, the other
// link's near end and its far end; the units the two links' and the shared
// one.
func renderTurbot(s Step) string {
	d := s.Digits[0]
	var c [4]int
	for i, n := range s.Chain {
		c[i] = n.Cell
	}
	return fmt.Sprintf("%s: %s holds %d only in %s and %s, %s only in %s and %s; %s and %s share %s, so %s or %s holds %d, so %s.",
		s.Technique, unitName(s.Units[0]), d, cellName(c[0]), cellName(c[1]), unitName(s.Units[1]), cellName(c[2]), cellName(c[3]),
		cellName(c[1]), cellName(c[2]), unitName(s.Units[2]), cellName(c[0]), cellName(c[3]), d, s.outcome())
}
