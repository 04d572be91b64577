package variant

import "math/bits"

// maxSeg bounds a segment of a sum: cells that see each other (a little
// killer's or an arrow's cells in one box, row or column) hold different
// digits, which the sum propagator uses by trying every assignment of a
// segment: 9*8*7 at most.
const maxSeg = 3 // enumerate's loops

// segment is terms[start:end] of a sum, every term with coefficient coef,
// the cells peers of one another.
type segment struct {
	start, end int
	coef       int
}

// segmentSums splits every sum's terms into segments, once the peers are
// known: a term joins the segment before it when it has the same
// coefficient, sees every cell of it and the segment is not full.
func (m *model) segmentSums() {
	for si := range m.sums {
		s := &m.sums[si]
		s.segs = nil
		for i, t := range s.terms {
			if k := len(s.segs) - 1; k >= 0 {
				g := &s.segs[k]
				if g.coef == t.coef && g.end-g.start < maxSeg && m.seesAll(t.cell, s.terms[g.start:g.end]) {
					g.end++
					continue
				}
			}
			s.segs = append(s.segs, segment{start: i, end: i + 1, coef: t.coef})
		}
	}
}

func (m *model) seesAll(c uint8, ts []term) bool {
	for _, t := range ts {
		if !m.peerSets[c].has(t.cell) {
			return false
		}
	}
	return true
}

// segSums holds what a segment's assignments (different digits, each a
// candidate) sum to: union the digit sums of all of them, with[k][d] those
// with digit d+1 in the segment's k-th cell. Digit sums of three cells stay
// under 64.
type segSums struct {
	union uint64
	with  [maxSeg][9]uint64
}

// enumerate fills ss for the cells of a segment (one to maxSeg cells),
// loop by loop rather than by recursion: it runs at every change of a
// sum's cells.
func (ss *segSums) enumerate(bd *board, ts []term) {
	*ss = segSums{}
	a := bd.cand[ts[0].cell]
	if len(ts) == 1 {
		for x := a; x != 0; x &= x - 1 {
			d := bits.TrailingZeros16(x)
			ss.union |= 2 << d
			ss.with[0][d] = 2 << d
		}
		return
	}
	b := bd.cand[ts[1].cell]
	var c uint16
	if len(ts) == 3 {
		c = bd.cand[ts[2].cell]
	}
	for x := a; x != 0; x &= x - 1 {
		da := bits.TrailingZeros16(x)
		for y := b &^ (x & -x); y != 0; y &= y - 1 {
			db := bits.TrailingZeros16(y)
			used := x&-x | y&-y
			if len(ts) == 2 {
				v := uint64(1) << (da + db + 2)
				ss.union |= v
				ss.with[0][da] |= v
				ss.with[1][db] |= v
				continue
			}
			for z := c &^ used; z != 0; z &= z - 1 {
				dc := bits.TrailingZeros16(z)
				v := uint64(1) << (da + db + dc + 3)
				ss.union |= v
				ss.with[0][da] |= v
				ss.with[1][db] |= v
				ss.with[2][dc] |= v
			}
		}
	}
}

// propSums keeps each term's digits that some digits of the other terms
// complete to the total, the cells of a segment holding different digits
// (repeats between segments allowed: the houses see to those): the
// partial sums reachable from the front, segment by segment, meet those the
// back still needs.
func (m *model) propSums(bd *board, changed *bool) bool {
	var fwd, bwd [maxTerms + 1]sumSet
	var segs [maxTerms]segSums
	for si := range m.sums {
		s := &m.sums[si]
		if s.unchanged(bd) {
			continue
		}
		offset, top := 0, 0
		for _, t := range s.terms {
			if t.coef < 0 {
				offset -= t.coef * 9
			} else {
				top += t.coef * 9
			}
		}
		w := (offset+top)/64 + 1
		n := len(s.segs)
		fwd[0] = sumSet{}
		fwd[0][offset/64] = 1 << (offset % 64)
		for i, g := range s.segs {
			segs[i].enumerate(bd, s.terms[g.start:g.end])
			if segs[i].union == 0 {
				return false
			}
			fwd[i+1] = sumSet{}
			for u := segs[i].union; u != 0; u &= u - 1 {
				fwd[i+1].or(fwd[i].shift(g.coef*bits.TrailingZeros64(u), w), w)
			}
		}
		goal := s.total + offset
		if goal < 0 || goal >= 64*w {
			return false
		}
		bwd[n] = sumSet{}
		bwd[n][goal/64] = 1 << (goal % 64)
		for i := n - 1; i >= 0; i-- {
			g := s.segs[i]
			bwd[i] = sumSet{}
			for u := segs[i].union; u != 0; u &= u - 1 {
				bwd[i].or(bwd[i+1].shift(-g.coef*bits.TrailingZeros64(u), w), w)
			}
		}
		if !fwd[n].meets(&bwd[n], w) {
			return false
		}
		for i, g := range s.segs {
			// ok: the segment's digit sums that the front and the back complete.
			ok := uint64(0)
			for u := segs[i].union; u != 0; u &= u - 1 {
				v := bits.TrailingZeros64(u)
				need := bwd[i+1].shift(-g.coef*v, w)
				if fwd[i].meets(&need, w) {
					ok |= 1 << v
				}
			}
			for k := range g.end - g.start {
				keep := uint16(0)
				for d := range 9 {
					if segs[i].with[k][d]&ok != 0 {
						keep |= 1 << d
					}
				}
				if !bd.narrow(s.terms[g.start+k].cell, keep, changed) {
					return false
				}
			}
		}
		s.remember(bd)
	}
	return true
}
