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

// mayCycle returns the length (nodes) of the shortest cycle
// cycleSearch(start, y, x, limit) could find, or 0: the length at which an
// off node that links back to the start is first reached (4 or more). It
// over-approximates (it ignores the rule that a chain does not go back
// through its own nodes), so the real cycles are no shorter.
func (s *solver) mayCycle(start int32, y, x bool, limit int) int {
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
		return 0
	}
	var onV, frOn digitSets
	onV[d0].add(c0)
	frOn[d0].add(c0)
	length := 0
	for !frOn.empty() {
		if length++; length > limit {
			return 0
		}
		s.work += int64(frOn.count())
		var off digitSets
		s.offLinks(&frOn, y, &off)
		length++
		if length >= 4 {
			for d := 1; d <= 9; d++ {
				if !off[d].and(close[d]).empty() {
					return length
				}
			}
		}
		var on digitSets
		s.onLinks(&off, y, x, &on)
		on.andNot(&onV)
		onV.or(&on)
		frOn = on
	}
	return 0
}

// bitBFS is the state of forcingAll: the candidates as compact ids, the
// static links between them, and for each id which of up to 64 searches
// has it on or off (bit j: search j).
type bitBFS struct {
	id      [729]int16 // candidate (c*9+d-1) -> compact id, -1 if not a candidate
	cand    []int16    // compact id -> candidate
	onAt    []int32    // links of "on" ids: onLink[onAt[q]:onAt[q+1]] are off ids
	onLink  []int16
	offAt   []int32 // links of "off" ids: offLink[offAt[q]:offAt[q+1]] are on ids
	offLink []int16

	onV, offV, frOn, frOff, newOn, newOff []uint64
	sq                                    [64]int16 // start id of each search of a batch
	son                                   uint64    // searches starting from an on node
}

// build fills the compact ids and the links (Y-links too when y).
func (g *bitBFS) build(s *solver, y bool) {
	g.cand = g.cand[:0]
	for k := range g.id {
		g.id[k] = -1
	}
	for c := range 81 {
		for m := s.b.cand[c]; m != 0; m &= m - 1 {
			k := c*9 + bits.TrailingZeros16(m) - 1
			g.id[k] = int16(len(g.cand))
			g.cand = append(g.cand, int16(k))
		}
	}
	n := len(g.cand)
	g.onAt, g.onLink = g.onAt[:0], g.onLink[:0]
	g.offAt, g.offLink = g.offAt[:0], g.offLink[:0]
	for _, k := range g.cand {
		c, d := int(k)/9, int(k)%9+1
		g.onAt = append(g.onAt, int32(len(g.onLink)))
		if y {
			for m := s.b.cand[c] &^ (1 << d); m != 0; m &= m - 1 {
				g.onLink = append(g.onLink, g.id[c*9+bits.TrailingZeros16(m)-1])
			}
		}
		sees[c].and(s.dcells[d]).each(func(p int) { g.onLink = append(g.onLink, g.id[p*9+d-1]) })
		g.offAt = append(g.offAt, int32(len(g.offLink)))
		s.strong[d][c].each(func(p int) { g.offLink = append(g.offLink, g.id[p*9+d-1]) })
		if y && popcount(s.b.cand[c]) == 2 {
			e := firstDigit(s.b.cand[c] &^ (1 << d))
			g.offLink = append(g.offLink, g.id[c*9+e-1])
		}
	}
	g.onAt = append(g.onAt, int32(len(g.onLink)))
	g.offAt = append(g.offAt, int32(len(g.offLink)))
	grow := func(v []uint64) []uint64 {
		if cap(v) < n {
			return make([]uint64, n)
		}
		return v[:n]
	}
	g.onV, g.offV, g.frOn, g.frOff = grow(g.onV), grow(g.offV), grow(g.frOn), grow(g.frOff)
	g.newOn, g.newOff = grow(g.newOn), grow(g.newOff)
}

// forcingHit is a start whose forcing chain has n nodes; ord is its place
// in the search order.
type forcingHit struct {
	start int32
	n     int
	ord   int
}

// forcingAll runs the forcing search (forcing) from every start of p.starts,
// on and off, 64 at a time as bits of one word, a layer (on to off, then off
// to on) at a time, and stops at the first layer where some chain closes: it
// returns those starts, the shortest chains, in search order. Searches stop
// at limit as forcing does.
func (s *solver) forcingAll(p *chainPool, y bool, limit int) []forcingHit {
	g := &p.bp
	g.build(s, y)
	p.hits = p.hits[:0]
	bestLayer := 1 << 30
	// the searches: 2*i on, 2*i+1 off; an off start needs a link closing
	// into its cell (a strong link, or a bivalue cell with Y-links).
	var batch [64]int
	nb := 0
	run := func() {
		if nb == 0 {
			return
		}
		for q := range g.cand {
			g.onV[q], g.offV[q], g.frOn[q], g.frOff[q] = 0, 0, 0, 0
		}
		g.son = 0
		for j := range nb {
			i := batch[j]
			start := p.starts[i/2]
			q := g.id[int(start>>1)]
			g.sq[j] = q
			if i%2 == 0 {
				g.son |= 1 << j
				g.onV[q] |= 1 << j
				g.frOn[q] |= 1 << j
			} else {
				g.offV[q] |= 1 << j
				g.frOff[q] |= 1 << j
			}
		}
		for layer := 1; layer <= bestLayer && 2*(layer-1) <= limit; layer++ {
			var hit uint64
			work := 0
			for q := range g.cand {
				g.newOff[q] = 0
			}
			for q, f := range g.frOn {
				if f == 0 {
					continue
				}
				work += bits.OnesCount64(f)
				for _, t := range g.onLink[g.onAt[q]:g.onAt[q+1]] {
					g.newOff[t] |= f
				}
			}
			for j := range nb {
				hit |= g.newOff[g.sq[j]] & (1 << j) & g.son
			}
			live := uint64(0)
			for q := range g.cand {
				nw := g.newOff[q] &^ g.offV[q]
				g.offV[q] |= nw
				g.frOff[q] |= nw
				g.newOn[q] = 0
			}
			for q, f := range g.frOff {
				if f == 0 {
					continue
				}
				work += bits.OnesCount64(f)
				for _, t := range g.offLink[g.offAt[q]:g.offAt[q+1]] {
					g.newOn[t] |= f
				}
			}
			for j := range nb {
				hit |= g.newOn[g.sq[j]] & (1 << j) &^ g.son
			}
			for q := range g.cand {
				nw := g.newOn[q] &^ g.onV[q]
				g.onV[q] |= nw
				g.frOn[q] = nw
				g.frOff[q] = 0
				live |= nw
			}
			s.work += int64(work)
			if hit != 0 {
				if layer < bestLayer {
					bestLayer = layer
					p.hits = p.hits[:0]
				}
				for m := hit; m != 0; m &= m - 1 {
					j := bits.TrailingZeros64(m)
					i := batch[j]
					start := p.starts[i/2]
					if i%2 == 1 {
						start = conjugate(start)
					}
					p.hits = append(p.hits, forcingHit{start, 2 * layer, 3*(i/2) + 1 + i%2})
				}
				break
			}
			if live == 0 || s.broke() {
				break
			}
		}
		nb = 0
	}
	for i, on := range p.starts {
		c0, d0 := nodeCell(on), nodeDigit(on)
		batch[nb] = 2 * i
		nb++
		if nb == 64 {
			run()
		}
		if y && popcount(s.b.cand[c0]) == 2 || !s.strong[d0][c0].empty() {
			batch[nb] = 2*i + 1
			nb++
			if nb == 64 {
				run()
			}
		}
	}
	run()
	return p.hits
}

// staticClosures returns, for every candidate k (c*9+d-1), the nodes its
// "on" node reaches by static links of both kinds: a superset of what a
// static chainer run from it takes up (a run also stops at a
// contradiction), so an empty intersection of closures means an empty
// intersection of runs.
func (s *solver) staticClosures(p *chainPool) []nodeSet {
	g := &p.bp
	g.build(s, true)
	if cap(p.closure) < 729 {
		p.closure = make([]nodeSet, 729)
	}
	cl := p.closure[:729]
	n := len(g.cand)
	for b0 := 0; b0 < n; b0 += 64 {
		nb := min(64, n-b0)
		for q := range n {
			g.onV[q], g.offV[q], g.frOn[q] = 0, 0, 0
		}
		for j := range nb {
			g.onV[b0+j] |= 1 << j
			g.frOn[b0+j] |= 1 << j
		}
		for {
			s.work += int64(n)
			for q := range n {
				g.newOff[q] = 0
				g.newOn[q] = 0
			}
			for q, f := range g.frOn {
				if f != 0 {
					for _, t := range g.onLink[g.onAt[q]:g.onAt[q+1]] {
						g.newOff[t] |= f
					}
				}
			}
			for q := range n {
				nw := g.newOff[q] &^ g.offV[q]
				g.offV[q] |= nw
				g.frOff[q] = nw
			}
			for q, f := range g.frOff {
				if f != 0 {
					for _, t := range g.offLink[g.offAt[q]:g.offAt[q+1]] {
						g.newOn[t] |= f
					}
				}
			}
			live := uint64(0)
			for q := range n {
				nw := g.newOn[q] &^ g.onV[q]
				g.onV[q] |= nw
				g.frOn[q] = nw
				live |= nw | g.frOff[q]
			}
			if live == 0 {
				break
			}
		}
		for j := range nb {
			cl[g.cand[b0+j]] = nodeSet{}
		}
		for q := range n {
			k := int32(g.cand[q])
			for m := g.onV[q]; m != 0; m &= m - 1 {
				cl[g.cand[b0+bits.TrailingZeros64(m)]].add(k<<1 | 1)
			}
			for m := g.offV[q]; m != 0; m &= m - 1 {
				cl[g.cand[b0+bits.TrailingZeros64(m)]].add(k << 1)
			}
		}
	}
	return cl
}
