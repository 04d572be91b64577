package variant

import "math/bits"

// The propagators: each narrows the candidates of its rule's cells to
// digits that can still take part in a solution of that rule alone, and
// returns false when a cell is left without one. changed says whether any
// candidate went.

// narrow sets cand[c] to cand[c]&m, noting a change; false when it empties.
func (bd *board) narrow(c uint8, m uint16, changed *bool) bool {
	old := bd.cand[c]
	if n := old & m; n != old {
		bd.cand[c] = n
		bd.mark(c, old&^n)
		*changed = true
		return n != 0
	}
	return true
}

// lowMask and highMask: the digits at least lo, at most hi (1-9 scale).
func rangeMask(lo, hi int) uint16 {
	lo, hi = max(lo, 1), min(hi, 9)
	if lo > hi {
		return 0
	}
	return uint16(1<<hi-1) &^ uint16(1<<(lo-1)-1)
}

func lowest(m uint16) int  { return bits.TrailingZeros16(m) + 1 }
func highest(m uint16) int { return 16 - bits.LeadingZeros16(m) }

// propPairs keeps each pair rule's cells to the digits the partner
// supports, from the cells changed since it last ran (every relation is
// symmetric): a cell it narrows is done again, to the same fixpoint as
// going over every pair until nothing changes.
func (m *model) propPairs(bd *board, changed *bool) bool {
	if len(m.pairs) == 0 {
		return true
	}
	work := bd.paired
	bd.paired = cellSet{}
	for {
		c, ok := work.pop()
		if !ok {
			if work, bd.paired = bd.paired, (cellSet{}); work == (cellSet{}) {
				return true
			}
			continue
		}
		for _, o := range m.partners[c] {
			if !bd.narrow(o.cell, support[o.r][bd.cand[c]], changed) {
				return false
			}
		}
	}
}

// sumSet is a set of partial sums, offset so that they stay at or above 0:
// at most 256 (a pill's 99 and 17 cells of line), the low half enough for
// a little killer or an arrow with one circle.
type sumSet [4]uint64

// shift returns s with every sum moved by k (either way), in the first
// w words.
func (s *sumSet) shift(k, w int) sumSet {
	var out sumSet
	if k >= 0 {
		q, b := k/64, uint(k%64)
		for i := w - 1; i >= q; i-- {
			out[i] = s[i-q] << b
			if b > 0 && i-q-1 >= 0 {
				out[i] |= s[i-q-1] >> (64 - b)
			}
		}
		return out
	}
	q, b := -k/64, uint(-k%64)
	for i := 0; i+q < w; i++ {
		out[i] = s[i+q] >> b
		if b > 0 && i+q+1 < w {
			out[i] |= s[i+q+1] << (64 - b)
		}
	}
	return out
}

func (s *sumSet) meets(t *sumSet, w int) bool {
	for i := range w {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}

func (s *sumSet) or(t sumSet, w int) {
	for i := range w {
		s[i] |= t[i]
	}
}

// maxTerms bounds the terms of a sum (an arrow's pill and line).
const maxTerms = 2 + maxArrowLine

// unchanged reports whether the sum's cells hold the candidates it last
// left them with.
func (s *sum) unchanged(bd *board) bool {
	if len(s.seen) != len(s.terms) {
		return false
	}
	for k, t := range s.terms {
		if bd.cand[t.cell] != s.seen[k] {
			return false
		}
	}
	return true
}

func (s *sum) remember(bd *board) {
	if len(s.seen) != len(s.terms) {
		s.seen = make([]uint16, len(s.terms))
	}
	for k, t := range s.terms {
		s.seen[k] = bd.cand[t.cell]
	}
}

// propCages keeps the sets of digits a killer cage may hold that every
// cell can take part in, and places a digit every such set needs when one
// cell alone can hold it.
func (m *model) propCages(bd *board, changed *bool) bool {
	for _, cg := range m.cages {
		var union, fixed uint16
		for _, c := range cg.cells {
			x := bd.cand[c]
			union |= x
			if x&(x-1) == 0 {
				fixed |= x
			}
		}
		allowed, need := uint16(0), uint16(all)
		for _, set := range cg.combos {
			if set&^union != 0 || fixed&^set != 0 {
				continue
			}
			ok := true
			for _, c := range cg.cells {
				if bd.cand[c]&set == 0 {
					ok = false
					break
				}
			}
			if ok {
				allowed |= set
				need &= set
			}
		}
		if allowed == 0 {
			return false
		}
		for _, c := range cg.cells {
			if !bd.narrow(c, allowed, changed) {
				return false
			}
		}
		for n := need; n != 0; n &= n - 1 {
			bit := n & -n
			at, count := uint8(0), 0
			for _, c := range cg.cells {
				if bd.cand[c]&bit != 0 {
					at, count = c, count+1
				}
			}
			if count == 0 {
				return false
			}
			if count == 1 && !bd.narrow(at, bit, changed) {
				return false
			}
		}
	}
	return true
}

// propThermos: each cell above the least of the one before, below the
// greatest of the one after.
func (m *model) propThermos(bd *board, changed *bool) bool {
	for _, t := range m.thermos {
		for k := 1; k < len(t); k++ {
			if !bd.narrow(t[k], rangeMask(lowest(bd.cand[t[k-1]])+1, 9), changed) {
				return false
			}
		}
		for k := len(t) - 2; k >= 0; k-- {
			if !bd.narrow(t[k], rangeMask(1, highest(bd.cand[t[k+1]])-1), changed) {
				return false
			}
		}
	}
	return true
}

// propRenbans keeps the runs of consecutive digits every cell of the line
// can take part in and whose digits the line can hold.
func (m *model) propRenbans(bd *board, changed *bool) bool {
	for _, r := range m.renbans {
		n := len(r)
		var union uint16
		for _, c := range r {
			union |= bd.cand[c]
		}
		allowed := uint16(0)
		for lo := 1; lo+n-1 <= 9; lo++ {
			w := rangeMask(lo, lo+n-1)
			if w&^union != 0 {
				continue
			}
			ok := true
			for _, c := range r {
				if bd.cand[c]&w == 0 {
					ok = false
					break
				}
			}
			if ok {
				allowed |= w
			}
		}
		for _, c := range r {
			if !bd.narrow(c, allowed, changed) {
				return false
			}
		}
	}
	return true
}

// propSandwiches tries every place of the 1 and the 9, and every set of
// digits between them with the total, and keeps what some such choice
// allows in each cell: the set's digits between, the others outside.
func (m *model) propSandwiches(bd *board, changed *bool) bool {
	for _, sw := range m.sandwiches {
		var allowed [9]uint16
		for i := range 9 {
			if bd.cand[sw.cells[i]]&1 == 0 {
				continue
			}
			for j := range 9 {
				if j != i && bd.cand[sw.cells[j]]&(1<<8) != 0 {
					sw.tryEnds(bd, i, j, &allowed)
				}
			}
		}
		for k := range 9 {
			if !bd.narrow(sw.cells[k], allowed[k], changed) {
				return false
			}
		}
	}
	return true
}

// tryEnds adds to allowed what the 1 at i and the 9 at j leave each cell.
func (sw *sandwich) tryEnds(bd *board, i, j int, allowed *[9]uint16) {
	lo, hi := min(i, j), max(i, j)
	for _, set := range sandwichCombos[hi-lo-1][sw.total] {
		fits := true
		for k := 0; k < 9 && fits; k++ {
			if k == i || k == j {
				continue
			}
			want := uint16(middle) &^ set
			if k > lo && k < hi {
				want = set
			}
			fits = bd.cand[sw.cells[k]]&want != 0
		}
		if !fits {
			continue
		}
		allowed[i] |= 1
		allowed[j] |= 1 << 8
		for k := range 9 {
			if k == i || k == j {
				continue
			}
			want := uint16(middle) &^ set
			if k > lo && k < hi {
				want = set
			}
			allowed[k] |= bd.cand[sw.cells[k]] & want
		}
	}
}
