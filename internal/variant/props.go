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

func (m *model) propPairs(bd *board, changed *bool) bool {
	for _, p := range m.pairs {
		if !bd.narrow(p.b, support[p.r][bd.cand[p.a]], changed) ||
			!bd.narrow(p.a, support[p.r][bd.cand[p.b]], changed) {
			return false
		}
	}
	return true
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int) int { return -floorDiv(-a, b) }

// propSums keeps each term's digit within what the other terms' bounds
// leave for it.
func (m *model) propSums(bd *board, changed *bool) bool {
	for _, s := range m.sums {
		lo, hi := 0, 0
		for _, t := range s.terms {
			c := bd.cand[t.cell]
			a, b := t.coef*lowest(c), t.coef*highest(c)
			lo, hi = lo+min(a, b), hi+max(a, b)
		}
		if lo > s.total || hi < s.total {
			return false
		}
		for _, t := range s.terms {
			c := bd.cand[t.cell]
			a, b := t.coef*lowest(c), t.coef*highest(c)
			// What this term may contribute: the total less the others'.
			tlo, thi := s.total-(hi-max(a, b)), s.total-(lo-min(a, b))
			var dlo, dhi int
			if t.coef > 0 {
				dlo, dhi = ceilDiv(tlo, t.coef), floorDiv(thi, t.coef)
			} else {
				dlo, dhi = ceilDiv(thi, t.coef), floorDiv(tlo, t.coef)
			}
			if !bd.narrow(t.cell, rangeMask(dlo, dhi), changed) {
				return false
			}
		}
	}
	return true
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

// propSandwiches tries every place of the 1 and the 9 and keeps what some
// placement with a reachable total allows in each cell.
func (m *model) propSandwiches(bd *board, changed *bool) bool {
	for _, sw := range m.sandwiches {
		var allowed [9]uint16
		for i := range 9 {
			if bd.cand[sw.cells[i]]&1 == 0 {
				continue
			}
			for j := range 9 {
				if j == i || bd.cand[sw.cells[j]]&(1<<8) == 0 {
					continue
				}
				lo, hi := min(i, j), max(i, j)
				e := sandwichTable[hi-lo-1][sw.total]
				if !e.ok {
					continue
				}
				outer := uint16(middle) &^ e.inter
				fits := true
				for k := range 9 {
					if k == i || k == j {
						continue
					}
					want := outer
					if k > lo && k < hi {
						want = e.union
					}
					if bd.cand[sw.cells[k]]&want == 0 {
						fits = false
						break
					}
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
					want := outer
					if k > lo && k < hi {
						want = e.union
					}
					allowed[k] |= bd.cand[sw.cells[k]] & want
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
