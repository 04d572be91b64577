package logic

import (
	"fmt"
	"math/bits"
)

// hiddenOrder is the unit order of hidden sets: boxes, columns, rows.
var hiddenOrder = func() [27]int {
	var o [27]int
	for i := range 9 {
		o[i], o[9+i], o[18+i] = 18+i, 9+i, i
	}
	return o
}()

// The names of the sets by size.
var (
	hiddenNames       = [5]string{2: HiddenPair, 3: HiddenTriple, 4: HiddenQuad}
	directHiddenNames = [4]string{2: DirectHiddenPair, 3: DirectHiddenTriple}
	nakedNames        = [5]string{2: NakedPair, 3: NakedTriple, 4: NakedQuad}
)

// combos calls f with every n-subset of the bits of m (as a mask), lowest
// bits first, until f returns true.
func combos(m uint16, n int, f func(uint16) bool) bool {
	var one [16]uint16
	k := 0
	for r := m; r != 0; r &= r - 1 {
		one[k] = r & -r
		k++
	}
	if n == 0 {
		return f(0)
	}
	if n > k {
		return false
	}
	var idx [16]int
	for i := range n {
		idx[i] = i
	}
	for {
		var x uint16
		for i := range n {
			x |= one[idx[i]]
		}
		if f(x) {
			return true
		}
		i := n - 1
		for i >= 0 && idx[i] == k-n+i {
			i--
		}
		if i < 0 {
			return false
		}
		idx[i]++
		for j := i + 1; j < n; j++ {
			idx[j] = idx[j-1] + 1
		}
	}
}

func (b *board) emptyIn(u int) int {
	n := 0
	for _, c := range b.g.cells[u] {
		if b.val[c] == 0 {
			n++
		}
	}
	return n
}

// hiddenSet finds n digits confined to n cells of a unit; direct mode keeps
// only those leaving a hidden single for another digit in the unit (n 2 or
// 3) and only places it (the set's eliminations are not made, as in Sudoku
// Explainer: a later Hidden Pair may make them).
func (s *solver) hiddenSet(n int, direct bool) (Step, bool) {
	b := &s.b
	var st Step
	found := false
	for _, u := range b.g.order(&hiddenOrder) {
		if !s.changedUnit(u) {
			continue // only the unit's candidates matter
		}
		empty := b.emptyIn(u)
		if !(empty > 2*n || (direct && empty > n)) {
			continue
		}
		var pos [10]uint16
		var live uint16
		for d := 1; d <= 9; d++ {
			pos[d] = b.positions(u, d)
			if pos[d] != 0 && popcount(pos[d]) <= n {
				live |= 1 << d // a digit with more than n places is in no n-set
			}
		}
		if combos(live, n, func(ds uint16) bool {
			var union uint16
			for m := ds; m != 0; m &= m - 1 {
				union |= pos[bits.TrailingZeros16(m)]
			}
			if popcount(union) != n {
				return false
			}
			var cells []int
			var elim []Candidate
			for m := union; m != 0; m &= m - 1 {
				c := b.g.cells[u][bits.TrailingZeros16(m)]
				cells = append(cells, c)
				for _, d := range digitsOf(b.cand[c] &^ ds) {
					elim = append(elim, Candidate{c, d})
				}
			}
			if len(elim) == 0 {
				return false
			}
			st = Step{Technique: hiddenNames[n], Grade: gradeOf(hiddenNames[n]), Cells: cells, Eliminations: elim, Units: []int{u}, Digits: digitsOf(ds)}
			if !direct {
				return true
			}
			for d := 1; d <= 9; d++ {
				if ds&(1<<d) != 0 || popcount(pos[d]) < 2 {
					continue
				}
				if rest := pos[d] &^ union; popcount(rest) == 1 {
					st.Technique = directHiddenNames[n]
					st.Grade = gradeOf(st.Technique)
					st.Placements = []Candidate{{b.g.cells[u][bits.TrailingZeros16(rest)], d}}
					st.Eliminations = nil // only the single is placed, as in Sudoku Explainer
					return true
				}
			}
			return false
		}) {
			found = true
			break
		}
	}
	return st, found
}

// nakedSet finds n cells of a unit holding only n digits between them.
func (s *solver) nakedSet(n int) (Step, bool) {
	b := &s.b
	var st Step
	for _, u := range b.g.order(&unitOrder) {
		if !s.changedUnit(u) {
			continue // only the unit's candidates matter
		}
		cs := &b.g.cells[u]
		var open uint16 // unit positions with 2..n candidates
		for j, c := range cs {
			if k := popcount(b.cand[c]); k >= 2 && k <= n {
				open |= 1 << j
			}
		}
		if combos(open, n, func(js uint16) bool {
			var digits uint16
			for m := js; m != 0; m &= m - 1 {
				digits |= b.cand[cs[bits.TrailingZeros16(m)]]
			}
			if popcount(digits) != n {
				return false
			}
			var cells []int
			var elim []Candidate
			for j, c := range cs {
				if js&(1<<j) != 0 {
					cells = append(cells, c)
					continue
				}
				for _, d := range digitsOf(b.cand[c] & digits) {
					elim = append(elim, Candidate{c, d})
				}
			}
			if len(elim) == 0 {
				return false
			}
			st = Step{Technique: nakedNames[n], Grade: gradeOf(nakedNames[n]), Cells: cells, Eliminations: elim, Units: []int{u}, Digits: digitsOf(digits)}
			return true
		}) {
			return st, true
		}
	}
	return Step{}, false
}

// generalNakedNames names the generalised naked sets by size, as Sukaku
// Explainer does.
var generalNakedNames = [5]string{2: GeneralizedNakedPair, 3: GeneralizedNakedTriplet, 4: GeneralizedNakedQuad}

// generalNakedSet finds a Generalized Naked set of n cells (Sukaku
// Explainer's NakedSetGen): in variant mode only.
func (s *solver) generalNakedSet(n int) (Step, bool) {
	b := &s.b
	g := b.g
	var st Step
	for _, kind := range g.seRegionOrder(true) {
		for _, u := range kind {
			if !s.changedUnit(u) {
				continue // the same sets, and their victims only lost candidates
			}
			cs := &g.cells[u]
			var open uint16 // positions with 2..n candidates
			empty := 0
			for j, c := range cs {
				k := popcount(b.cand[c])
				if k > 0 {
					empty++
				}
				if k >= 2 && k <= n {
					open |= 1 << j
				}
			}
			if empty < 2*n { // Sukaku Explainer's bound: else its hidden complement is as small
				continue
			}
			if combos(open, n, func(js uint16) bool {
				st, _ = s.generalNakedStep(u, js, n)
				return st.Technique != ""
			}) {
				return st, true
			}
		}
	}
	return Step{}, false
}

// generalNakedStep is the step of the cells at positions js of house u
// when they hold n digits between them and some cell outside loses one.
func (s *solver) generalNakedStep(u int, js uint16, n int) (Step, bool) {
	b := &s.b
	g := b.g
	var digits uint16
	var set cellSet
	var cells []int
	for m := js; m != 0; m &= m - 1 {
		c := g.cells[u][bits.TrailingZeros16(m)]
		digits |= b.cand[c]
		set.add(c)
		cells = append(cells, c)
	}
	if popcount(digits) != n {
		return Step{}, false
	}
	var elim []Candidate
	var sees [10]cellSet
	for _, d := range digitsOf(digits) {
		victims := s.dcells[d]
		set.and(s.dcells[d]).each(func(c int) { victims = victims.and(g.sees[c]) })
		sees[d] = victims
	}
	for c := range 81 { // by cell, then digit, as the classic sets list them
		for _, d := range digitsOf(digits) {
			if sees[d].has(c) {
				elim = append(elim, Candidate{c, d})
			}
		}
	}
	if len(elim) == 0 {
		return Step{}, false
	}
	name := generalNakedNames[n]
	return Step{Technique: name, Grade: gradeOf(name), Cells: cells, Eliminations: elim, Units: []int{u}, Digits: digitsOf(digits)}, true
}

// renderGeneralNakedSet writes a Generalized Naked set.
func renderGeneralNakedSet(s Step) string {
	return fmt.Sprintf("%s: %s hold only %s in %s, so each digit goes from the cells that see all of them holding it: %s.", s.Technique, cellList(s.Cells), digitList(s.Digits), unitName(s.Units[0]), s.outcome())
}
