package logic

import (
	"math/bits"
	"slices"
)

// xyWing finds a pivot whose two candidates x, y (XYZ: three, x, y, z) are
// each shared with a bivalue wing it sees, the wings sharing z: z is removed
// from every cell seeing both wings (and the pivot, for XYZ).
func (s *solver) xyWing(xyz bool) (Step, bool) {
	b := &s.b
	want := 2
	name := XYWing
	if xyz {
		want, name = 3, XYZWing
	}
	grade := gradeOf(name)
	g := b.g
	sees := &g.sees
	for p := range 81 {
		pm := b.cand[p]
		if popcount(pm) != want || (!s.chg.has(p) && sees[p].and(s.chg).empty()) {
			continue // a new wing needs a changed pivot or wing
		}
		for i, w1 := range g.peers[p] {
			m1 := b.cand[w1]
			if popcount(m1) != 2 || (xyz && m1&pm != m1) || (!xyz && popcount(m1&pm) != 1) {
				continue
			}
			for _, w2 := range g.peers[p][i+1:] {
				m2 := b.cand[w2]
				if popcount(m2) != 2 || m2 == m1 {
					continue
				}
				z, ok := wingDigit(pm, m1, m2, xyz)
				if !ok {
					continue
				}
				d := firstDigit(z)
				see := sees[w1].and(sees[w2])
				if xyz {
					see = see.and(sees[p])
				}
				var elim []Candidate
				see.each(func(c int) {
					if c != p && b.has(c, d) {
						elim = append(elim, Candidate{c, d})
					}
				})
				if len(elim) > 0 {
					cells := []int{p, w1, w2}
					slices.Sort(cells)
					return Step{Technique: name, Grade: grade, Cells: cells, Eliminations: elim, Digits: []int{d}}, true
				}
			}
		}
	}
	return Step{}, false
}

// wingDigit checks the candidates of a pivot (pm) and two bivalue wings
// (m1, m2) for an XY-Wing (XYZ-Wing when xyz) and returns the digit z the
// wings share, which the pattern removes.
func wingDigit(pm, m1, m2 uint16, xyz bool) (z uint16, ok bool) {
	if xyz {
		return m1 & m2, m2&pm == m2 && m1|m2 == pm
	}
	z = m1 & m2 &^ pm
	return z, popcount(m1&pm) == 1 && popcount(m2&pm) == 1 && m1&pm != m2&pm && popcount(z) == 1
}

// alsWing finds Sukaku Explainer's WXYZ-Wing (n = 3) and VWXYZ-Wing (n = 4):
// n cells that all see each other holding n+1 digits, and a bivalue cell
// x/z outside them whose x is restricted (every set cell with x sees it):
// one of the set cells or the bivalue cell is z, so z goes from every cell
// seeing all of them that hold z. Graded by the largest set cell (see the
// technique table).
func (s *solver) alsWing(n int) (Step, bool) {
	b := &s.b
	sees := &b.g.sees
	var best wingBest
	// open: the cells that can be in the set (2 to n+1 candidates).
	var open cellSet
	for c := range 81 {
		if k := popcount(b.cand[c]); k >= 2 && k <= n+1 {
			open.add(c)
		}
	}
	// hot: a wing found now and not on the memo's board has a changed set
	// cell or a changed yz cell seeing a set cell, so its set meets hot.
	hot := s.chg
	s.chg.and(s.bivalue).each(func(c int) {
		hot[0] |= sees[c][0]
		hot[1] |= sees[c][1]
	})
	var set [5]int
	var try func(k int, from cellSet, digits uint16, isHot bool)
	try = func(k int, from cellSet, digits uint16, isHot bool) {
		for w := 0; w < 2; w++ {
			for m := from[w]; m != 0; m &= m - 1 {
				c := w*64 + bits.TrailingZeros64(m)
				ds := digits | b.cand[c]
				if popcount(ds) > n+1 {
					continue
				}
				set[k] = c
				h := isHot || hot.has(c)
				if k+1 == n {
					if h && popcount(ds) == n+1 {
						s.alsWingAt(set[:n], ds, &best, n)
					}
					continue
				}
				// later cells that see every cell so far
				next := from.and(sees[c])
				next.clearTo(c)
				if !h && next.and(hot).empty() {
					continue
				}
				try(k+1, next, ds, h)
			}
		}
	}
	try(0, open, 0, false)
	return best.st, best.found
}

// wingBest is the best wing alsWing has found: the lowest grade, then the
// most eliminations.
type wingBest struct {
	st    Step
	elim  int
	found bool
}

func (s *solver) alsWingAt(set []int, digits uint16, best *wingBest, n int) {
	sees := &s.b.g.sees
	b := &s.b
	var inSet cellSet
	maxCard := 0
	for _, c := range set {
		inSet.add(c)
		maxCard = max(maxCard, popcount(b.cand[c]))
	}
	var around cellSet
	for _, c := range set {
		around[0] |= sees[c][0]
		around[1] |= sees[c][1]
	}
	name := [6]string{3: WXYZWing, 4: VWXYZWing, 5: UVWXYZWing}[n]
	// Sukaku Explainer: the top grade less 0.1 for each candidate the
	// largest set cell is away from three; the UVWXYZ-Wing's is fixed.
	diff := 3 - maxCard
	if diff < 0 {
		diff = -diff
	}
	grade := fromTenths(tenths(topOf(name)) - diff)
	if n == 5 {
		grade = gradeOf(name)
	}
	if best.found && grade > best.st.Grade {
		return // cannot beat the best set found
	}
	// yz: a bivalue cell outside the set, seeing one of its cells.
	around = around.and(s.bivalue)
	if inSet.and(s.chg).empty() {
		around = around.and(s.chg) // a new wing needs a changed cell
	}
	around[0] &^= inSet[0]
	around[1] &^= inSet[1]
	around.each(func(yz int) {
		m := b.cand[yz]
		if m&digits != m {
			return
		}
		lo := firstDigit(m)
		hi := firstDigit(m &^ (1 << lo))
		if s.restricted(set, yz, lo) && s.restricted(set, yz, hi) {
			s.alsWingDouble(set, inSet, yz, digits, name, grade, best)
			return
		}
		s.alsWingWith(set, inSet, yz, lo, hi, name, grade, best)
		s.alsWingWith(set, inSet, yz, hi, lo, name, grade, best)
	})
}

// restricted reports whether every set cell holding x sees yz.
func (s *solver) restricted(set []int, yz, x int) bool {
	sees := &s.b.g.sees
	for _, c := range set {
		if s.b.has(c, x) && !sees[yz].has(c) {
			return false
		}
	}
	return true
}

// alsWingDouble tries the doubly linked wing: both digits of yz are
// restricted, so the set and yz hold all their digits between them (Sukaku
// Explainer's "doubly linked" wings, at the same grade). Each of yz's
// digits goes from the cells seeing yz and every set cell holding it, each
// other digit of the set from the cells seeing every set cell holding it.
func (s *solver) alsWingDouble(set []int, inSet cellSet, yz int, digits uint16, name string, grade float64, best *wingBest) {
	sees := &s.b.g.sees
	b := &s.b
	var elim []Candidate
	for _, d := range digitsOf(digits) {
		see := s.dcells[d]
		if b.has(yz, d) {
			see = see.and(sees[yz])
		}
		for _, c := range set {
			if b.has(c, d) {
				see = see.and(sees[c])
			}
		}
		see[0] &^= inSet[0]
		see[1] &^= inSet[1]
		see.each(func(c int) {
			if c != yz {
				elim = append(elim, Candidate{c, d})
			}
		})
	}
	ne := len(elim)
	if ne == 0 || !(!best.found || grade < best.st.Grade || (grade == best.st.Grade && ne > best.elim)) {
		return
	}
	slices.SortFunc(elim, func(a, b Candidate) int {
		if a.Cell != b.Cell {
			return a.Cell - b.Cell
		}
		return a.Digit - b.Digit
	})
	cells := append(slices.Clone(set), yz)
	slices.Sort(cells)
	m := b.cand[yz]
	best.st = Step{Technique: name, Grade: grade, Cells: cells, Eliminations: elim, Digits: digitsOf(m)}
	best.st.roof, best.st.setDigits = []int{yz}, digitsOf(digits) // for its sentence (renderWing)
	best.elim = ne
	best.found = true
}

// alsWingWith tries the wing of set and the bivalue cell yz holding x and
// z, x restricted: every set cell holding x sees yz. Then z goes from the
// cells outside the set seeing yz and every set cell holding z; the wing
// replaces *best when it grades lower or, as good, removes more.
func (s *solver) alsWingWith(set []int, inSet cellSet, yz, x, z int, name string, grade float64, best *wingBest) {
	sees := &s.b.g.sees
	b := &s.b
	for _, c := range set {
		if b.has(c, x) && !sees[yz].has(c) {
			return // x not restricted
		}
	}
	see := sees[yz].and(s.dcells[z])
	for _, c := range set {
		if b.has(c, z) {
			see = see.and(sees[c])
		}
	}
	see[0] &^= inSet[0]
	see[1] &^= inSet[1]
	ne := see.count()
	if ne == 0 || !(!best.found || grade < best.st.Grade || (grade == best.st.Grade && ne > best.elim)) {
		return
	}
	var elim []Candidate
	see.each(func(c int) { elim = append(elim, Candidate{c, z}) })
	cells := append(slices.Clone(set), yz)
	slices.Sort(cells)
	best.st = Step{Technique: name, Grade: grade, Cells: cells, Eliminations: elim, Digits: []int{z}}
	best.elim = ne
	best.found = true
}
