package logic

import "math/bits"

// Bitset versions of the unary searches (chains_unary.go). They walk the
// same layers as forcing and cycleSearch, but a layer is a set of cells per
// digit, so a search costs a few word operations per node instead of a
// list of links and a parent object per link. They only say whether (and
// how long) a chain exists; the node-by-node search then runs for the few
// starts whose chain can beat the best one, so the chosen step is the same.

// digitSets is a set of candidates: the cells of each digit.
type digitSets [10]cellSet

func (a *digitSets) empty() bool {
	var o uint64
	for d := 1; d <= 9; d++ {
		o |= a[d][0] | a[d][1]
	}
	return o == 0
}

func (a *digitSets) count() int {
	n := 0
	for d := 1; d <= 9; d++ {
		n += a[d].count()
	}
	return n
}

// cacheStrong fills s.strong: for each digit and cell, the cells that are
// the only other place of the digit in one of the cell's units.
func (s *solver) cacheStrong() {
	for d := 1; d <= 9; d++ {
		s.strong[d] = [81]cellSet{}
		for u := 0; u < 27; u++ {
			m := unitSet[u].and(s.dcells[d])
			if m.count() != 2 {
				continue
			}
			var two [2]int
			n := 0
			m.each(func(c int) { two[n] = c; n++ })
			s.strong[d][two[0]].add(two[1])
			s.strong[d][two[1]].add(two[0])
		}
	}
}

// offLinks adds to out the off nodes an on frontier implies (links of an on node).
func (s *solver) offLinks(front *digitSets, y bool, out *digitSets) {
	for d := 1; d <= 9; d++ {
		var reach cellSet
		for w := 0; w < 2; w++ {
			for m := front[d][w]; m != 0; m &= m - 1 {
				c := w*64 + bits.TrailingZeros64(m)
				reach[0] |= sees[c][0]
				reach[1] |= sees[c][1]
				if y {
					for e := s.b.cand[c] &^ (1 << d); e != 0; e &= e - 1 {
						out[bits.TrailingZeros16(e)].add(c)
					}
				}
			}
		}
		reach = reach.and(s.dcells[d])
		out[d][0] |= reach[0]
		out[d][1] |= reach[1]
	}
}

// onLinks adds to out the on nodes an off frontier implies.
func (s *solver) onLinks(front *digitSets, y, x bool, out *digitSets) {
	for d := 1; d <= 9; d++ {
		for w := 0; w < 2; w++ {
			for m := front[d][w]; m != 0; m &= m - 1 {
				c := w*64 + bits.TrailingZeros64(m)
				if x {
					st := &s.strong[d][c]
					out[d][0] |= st[0]
					out[d][1] |= st[1]
				}
				if y {
					if k := s.b.cand[c]; popcount(k) == 2 {
						out[firstDigit(k&^(1<<d))].add(c)
					}
				}
			}
		}
	}
}

func (a *digitSets) andNot(b *digitSets) {
	for d := 1; d <= 9; d++ {
		a[d][0] &^= b[d][0]
		a[d][1] &^= b[d][1]
	}
}

func (a *digitSets) or(b *digitSets) {
	for d := 1; d <= 9; d++ {
		a[d][0] |= b[d][0]
		a[d][1] |= b[d][1]
	}
}

// mayCycle reports whether cycleSearch(start, y, x, limit) can find a
// cycle: an off node that links back to the start is reached at length 4
// or more. It over-approximates (it ignores the rule that a chain does not
// go back through its own nodes), so a false answer is exact.
func (s *solver) mayCycle(start int32, y, x bool, limit int) bool {
	c0, d0 := nodeCell(start), nodeDigit(start)
	// close: the off nodes whose links reach the start.
	var close digitSets
	if x {
		close[d0] = s.strong[d0][c0]
	}
	if y && popcount(s.b.cand[c0]) == 2 {
		close[firstDigit(s.b.cand[c0]&^(1<<d0))].add(c0)
	}
	if close.empty() {
		return false
	}
	var onV, frOn digitSets
	onV[d0].add(c0)
	frOn[d0].add(c0)
	length := 0
	for !frOn.empty() {
		if length++; length > limit {
			return false
		}
		s.work += int64(frOn.count())
		var off digitSets
		s.offLinks(&frOn, y, &off)
		length++
		if length >= 4 {
			for d := 1; d <= 9; d++ {
				if !off[d].and(close[d]).empty() {
					return true
				}
			}
		}
		var on digitSets
		s.onLinks(&off, y, x, &on)
		on.andNot(&onV)
		onV.or(&on)
		frOn = on
	}
	return false
}
