package logic

import (
	"math/bits"
	"slices"
)

// Bit-parallel versions of the chain searches (chains_unary.go, chains.go).
// Up to 64 searches run at once, search j being bit j of one word per
// candidate, over a compact table of the static links; a layer costs one OR
// per link. They walk the same layers as forcing and cycleSearch but only
// say whether (and how long) a chain exists; the node-by-node searches then
// run for the few starts whose chain can beat the best one, so the chosen
// step is the same.

// allUnits is the classic houses in number order.
var allUnits = func() (o [27]int) {
	for u := range o {
		o[u] = u
	}
	return o
}()

// cacheStrong fills s.strong: for each digit and cell, the cells that are
// the only other place of the digit in one of the cell's units.
func (s *solver) cacheStrong() {
	for d := 1; d <= 9; d++ {
		if s.strongOK&(1<<d) != 0 && s.strongAt[d] == s.dcells[d] {
			continue // d's candidates have not changed: nor have its links
		}
		s.strongOK |= 1 << d
		s.strongAt[d] = s.dcells[d]
		s.strong[d] = [81]cellSet{}
		for _, u := range s.b.g.order(&allUnits) {
			m := s.b.g.set[u].and(s.dcells[d])
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

// bitBFS is the state of forcingAll: the candidates as compact ids, the
// static links between them, and for each id which of up to 64 searches
// has it on or off (bit j: search j).
type bitBFS struct {
	id      [729]int16  // candidate (c*9+d-1) -> compact id, -1 if not a candidate
	cand    []int16     // compact id -> candidate
	all     []int16     // every compact id
	byDigit [10][]int16 // the compact ids of each digit
	onAt    []int32     // links of "on" ids: onLink[onAt[q]:onAt[q+1]] are off ids
	onLink  []int16
	offAt   []int32 // links of "off" ids: offLink[offAt[q]:offAt[q+1]] are on ids
	offLink []int16

	onV, offV, frOn, frOff, newOn, newOff []uint64
	sq                                    [64]int16 // start id of each search of a batch
	son                                   uint64    // searches starting from an on node

	lOn, lOff, touched []int16 // forcingAll: ids with frontier bits, ids hit in a layer

	gen  uint64 // the solver's board generation the links were built for
	y, x bool
}

// build fills the compact ids and the links (Y-links when y, strong unit
// links when x).
func (g *bitBFS) build(s *solver, y, x bool) {
	if g.gen == s.gen && g.y == y && g.x == x {
		return // built for this board already
	}
	g.gen, g.y, g.x = s.gen, y, x
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
	g.all = g.all[:0]
	for d := range g.byDigit {
		g.byDigit[d] = g.byDigit[d][:0]
	}
	for q, k := range g.cand {
		g.all = append(g.all, int16(q))
		g.byDigit[k%9+1] = append(g.byDigit[k%9+1], int16(q))
	}
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
		see := s.b.g.sees[c].and(s.dcells[d])
		for w := range 2 {
			for m := see[w]; m != 0; m &= m - 1 {
				g.onLink = append(g.onLink, g.id[(w*64+bits.TrailingZeros64(m))*9+d-1])
			}
		}
		g.offAt = append(g.offAt, int32(len(g.offLink)))
		if x {
			st := s.strong[d][c]
			for w := range 2 {
				for m := st[w]; m != 0; m &= m - 1 {
					g.offLink = append(g.offLink, g.id[(w*64+bits.TrailingZeros64(m))*9+d-1])
				}
			}
		}
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

// forcingAll runs the forcing search (forcing) from every start, on and
// off (on only if onOnly), 64 at a time as bits of one word, a layer (on to
// off, then off to on) at a time, and stops at the first layer where some
// chain closes: it returns those starts, the shortest chains, in search
// order. Searches stop at limit as forcing does.
func (s *solver) forcingAll(p *chainPool, starts []int32, onOnly, y, x bool, limit int) []forcingHit {
	return s.forcingRun(p, starts, onOnly, y, x, limit, false)
}

// forcingEvery is forcingAll keeping every start's shortest chain, not
// only the shortest of all (the nested forcing chains, chains_nested.go).
func (s *solver) forcingEvery(p *chainPool, starts []int32, y, x bool, limit int) []forcingHit {
	return s.forcingRun(p, starts, false, y, x, limit, true)
}

func (s *solver) forcingRun(p *chainPool, starts []int32, onOnly, y, x bool, limit int, every bool) []forcingHit {
	g := &p.bp
	g.build(s, y, x)
	p.hits = p.hits[:0]
	f := forcingBatch{s: s, p: p, g: g, starts: starts, limit: limit, bestLayer: 1 << 30, qs: g.all, every: every}
	// the searches: 2*i on, 2*i+1 off; an off start needs a link closing
	// into its cell (a strong link, or a bivalue cell with Y-links).
	// Without Y-links a search never leaves its digit: run the starts
	// digit by digit over that digit's ids only.
	for d := 1; d <= 9; d++ {
		if !y {
			f.qs = g.byDigit[d]
		}
		for i, on := range starts {
			c0, d0 := nodeCell(on), nodeDigit(on)
			if !y && d0 != d {
				continue
			}
			f.add(2 * i)
			if !onOnly && (y && popcount(s.b.cand[c0]) == 2 || x && !s.strong[d0][c0].empty()) {
				f.add(2*i + 1)
			}
		}
		f.run()
		if y {
			break
		}
	}
	slices.SortFunc(p.hits, func(a, b forcingHit) int { return a.ord - b.ord })
	return p.hits
}

// forcingBatch is forcingAll's state: the searches of the batch being
// filled (search j of the batch is bit j: batch[j] is 2*i for starts[i] on,
// 2*i+1 for it off) and the shortest layer at which a chain closed so far.
type forcingBatch struct {
	s         *solver
	p         *chainPool
	g         *bitBFS
	starts    []int32
	limit     int
	bestLayer int
	qs        []int16 // the ids the searches can reach
	batch     [64]int
	nb        int
	every     bool   // keep every search's first chain (forcingEvery)
	done      uint64 // every: the searches whose chain closed
}

// add puts search i in the batch, and runs the batch when it is full.
func (f *forcingBatch) add(i int) {
	f.batch[f.nb] = i
	f.nb++
	if f.nb == 64 {
		f.run()
	}
}

// run runs the searches of the batch layer by layer until a chain closes
// (recording the hits), the limit, or the budget; then empties the batch.
func (f *forcingBatch) run() {
	if f.nb == 0 {
		return
	}
	f.seed()
	for layer := 1; layer <= f.bestLayer && 2*(layer-1) <= f.limit; layer++ {
		if hit := f.layer(); hit != 0 && !f.every {
			f.record(hit, layer)
			break
		} else if hit &^= f.done; hit != 0 {
			f.done |= hit
			f.keep(hit, layer)
		}
		if len(f.g.lOn) == 0 || f.s.broke() || f.every && bits.OnesCount64(f.done) == f.nb {
			break
		}
	}
	f.nb, f.done = 0, 0
}

// seed clears the reachable ids and puts each search's start on its
// frontier. Frontiers are kept as lists of the ids with bits set, so a
// layer costs its links, not a pass over every id.
func (f *forcingBatch) seed() {
	g := f.g
	for _, q := range f.qs {
		g.onV[q], g.offV[q], g.frOn[q], g.frOff[q], g.newOn[q], g.newOff[q] = 0, 0, 0, 0, 0, 0
	}
	g.son = 0
	g.lOn, g.lOff = g.lOn[:0], g.lOff[:0]
	for j := range f.nb {
		i := f.batch[j]
		q := g.id[int(f.starts[i/2]>>1)]
		g.sq[j] = q
		if i%2 == 0 {
			g.son |= 1 << j
			if g.frOn[q] == 0 {
				g.lOn = append(g.lOn, q)
			}
			g.onV[q] |= 1 << j
			g.frOn[q] |= 1 << j
		} else {
			if g.frOff[q] == 0 {
				g.lOff = append(g.lOff, q)
			}
			g.offV[q] |= 1 << j
			g.frOff[q] |= 1 << j
		}
	}
}

// layer follows the links of the frontiers one layer, on to off then off
// to on, and returns the searches that reached their start's conjugate.
func (f *forcingBatch) layer() uint64 {
	g := f.g
	work := f.spread(g.lOn, g.frOn, g.onLink, g.onAt, g.newOff)
	var hit uint64
	for j := range f.nb {
		hit |= g.newOff[g.sq[j]] & (1 << j) & g.son
	}
	for _, t := range g.touched {
		nw := g.newOff[t] &^ g.offV[t]
		g.newOff[t] = 0
		if nw == 0 {
			continue
		}
		g.offV[t] |= nw
		if g.frOff[t] == 0 {
			g.lOff = append(g.lOff, t)
		}
		g.frOff[t] |= nw
	}
	work += f.spread(g.lOff, g.frOff, g.offLink, g.offAt, g.newOn)
	g.lOff = g.lOff[:0]
	for j := range f.nb {
		hit |= g.newOn[g.sq[j]] & (1 << j) &^ g.son
	}
	g.lOn = g.lOn[:0]
	for _, t := range g.touched {
		nw := g.newOn[t] &^ g.onV[t]
		g.newOn[t] = 0
		if nw == 0 {
			continue
		}
		g.onV[t] |= nw
		g.frOn[t] = nw
		g.lOn = append(g.lOn, t)
	}
	f.s.work += int64(work)
	return hit
}

// spread moves the frontier bits of the ids listed in from (clearing them)
// along their links (link[at[q]:at[q+1]]) into to, listing the ids it
// touches first in g.touched; it returns the work: one unit a search.
func (f *forcingBatch) spread(from []int16, fr []uint64, link []int16, at []int32, to []uint64) int {
	g := f.g
	work := 0
	g.touched = g.touched[:0]
	for _, q := range from {
		fb := fr[q]
		fr[q] = 0
		work += bits.OnesCount64(fb)
		for _, t := range link[at[q]:at[q+1]] {
			if to[t] == 0 {
				g.touched = append(g.touched, t)
			}
			to[t] |= fb
		}
	}
	return work
}

// record keeps the searches of hit, whose chains closed at layer: the
// shortest so far, replacing longer ones.
func (f *forcingBatch) record(hit uint64, layer int) {
	p := f.p
	if layer < f.bestLayer {
		f.bestLayer = layer
		p.hits = p.hits[:0]
	}
	for m := hit; m != 0; m &= m - 1 {
		i := f.batch[bits.TrailingZeros64(m)]
		start := f.starts[i/2]
		if i%2 == 1 {
			start = conjugate(start)
		}
		p.hits = append(p.hits, forcingHit{start, 2 * layer, 3*(i/2) + 1 + i%2})
	}
}

// keep adds the searches of hit, whose chains closed at layer (every).
func (f *forcingBatch) keep(hit uint64, layer int) {
	for m := hit; m != 0; m &= m - 1 {
		i := f.batch[bits.TrailingZeros64(m)]
		start := f.starts[i/2]
		if i%2 == 1 {
			start = conjugate(start)
		}
		f.p.hits = append(f.p.hits, forcingHit{start, 2 * layer, 3*(i/2) + 1 + i%2})
	}
}

// staticClosures returns, for every candidate k (c*9+d-1), the nodes its
// "on" node reaches by static links of both kinds: a superset of what a
// static chainer run from it takes up (a run also stops at a
// contradiction), so an empty intersection of closures means an empty
// intersection of runs.
func (s *solver) staticClosures(p *chainPool) []nodeSet {
	g := &p.bp
	g.build(s, true, true)
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

// cycleLengths does mayCycle for every start of p.starts, 64 at a time as
// bits of one word: p.cyc[i] is the shortest length a cycle from start i
// can have, 0 for none within limit.
func (s *solver) cycleLengths(p *chainPool, y, x bool, limit int) []int {
	g := &p.bp
	g.build(s, y, x)
	n := len(p.starts)
	p.cyc = append(p.cyc[:0], make([]int, n)...)
	// Batches of up to 64 starts; without Y-links a search never leaves
	// its digit, so a batch holds one digit and walks only its ids.
	p.order = p.order[:0]
	for d := 1; d <= 9; d++ {
		for i, on := range p.starts {
			if y || nodeDigit(on) == d {
				p.order = append(p.order, i)
			}
		}
		if y {
			break
		}
	}
	cb := cycleBatch{s: s, p: p, g: g, y: y, x: x}
	for b0 := 0; b0 < n; b0 += cb.nb {
		cb.seed(b0)
		cb.grow(limit)
	}
	return p.cyc
}

// cycleBatch is one batch of cycleLengths: the searches of p.order[b0:b0+nb]
// (search j is bit j), the ids they can reach, and the off ids that close
// each search's cycle.
type cycleBatch struct {
	s       *solver
	p       *chainPool
	g       *bitBFS
	y, x    bool
	b0, nb  int
	qs      []int16
	closing [64][4]int16
	nClose  [64]int
	want    uint64 // searches that can close and have not yet
}

// seed takes the batch from p.order[b0] (up to 64 searches, of one digit
// without Y-links) and puts each start on its frontier.
func (cb *cycleBatch) seed(b0 int) {
	p, g := cb.p, cb.g
	cb.b0, cb.nb = b0, min(64, len(p.starts)-b0)
	cb.qs = g.all
	if !cb.y {
		d := nodeDigit(p.starts[p.order[b0]])
		cb.qs = g.byDigit[d]
		for k := 1; k < cb.nb; k++ {
			if nodeDigit(p.starts[p.order[b0+k]]) != d {
				cb.nb = k
				break
			}
		}
	}
	for _, q := range cb.qs {
		g.onV[q], g.frOn[q] = 0, 0
	}
	cb.want = 0
	for j := range cb.nb {
		start := p.starts[p.order[b0+j]]
		c0, d0 := nodeCell(start), nodeDigit(start)
		q := g.id[c0*9+d0-1]
		g.onV[q] |= 1 << j
		g.frOn[q] |= 1 << j
		cb.nClose[j] = 0
		if cb.x {
			cb.s.strong[d0][c0].each(func(o int) { cb.addClosing(j, o, d0) })
		}
		if cb.y && popcount(cb.s.b.cand[c0]) == 2 {
			cb.addClosing(j, c0, firstDigit(cb.s.b.cand[c0]&^(1<<d0)))
		}
		if cb.nClose[j] > 0 {
			cb.want |= 1 << j
		}
	}
}

// addClosing notes candidate (c, d) off as closing search j's cycle.
func (cb *cycleBatch) addClosing(j, c, d int) {
	if cb.nClose[j] < 4 {
		cb.closing[j][cb.nClose[j]] = cb.g.id[c*9+d-1]
		cb.nClose[j]++
	}
}

// grow runs the batch's searches, a length at a time, until each has
// closed its cycle (its length goes to p.cyc) or limit is passed.
func (cb *cycleBatch) grow(limit int) {
	g := cb.g
	length := 0
	for cb.want != 0 {
		if length++; length > limit {
			break
		}
		for _, q := range cb.qs {
			g.newOff[q] = 0
		}
		work := 0
		for _, q := range cb.qs {
			if f := g.frOn[q] & cb.want; f != 0 {
				work += bits.OnesCount64(f)
				for _, t := range g.onLink[g.onAt[q]:g.onAt[q+1]] {
					g.newOff[t] |= f
				}
			}
		}
		cb.s.work += int64(work)
		length++
		if length >= 4 {
			cb.closed(length)
		}
		if !cb.offToOn() {
			break
		}
	}
}

// closed takes the searches whose closing off ids were reached at length.
func (cb *cycleBatch) closed(length int) {
	for m := cb.want; m != 0; m &= m - 1 {
		j := bits.TrailingZeros64(m)
		for _, q := range cb.closing[j][:cb.nClose[j]] {
			if cb.g.newOff[q]&(1<<j) != 0 {
				cb.p.cyc[cb.p.order[cb.b0+j]] = length
				cb.want &^= 1 << j
				break
			}
		}
	}
}

// offToOn follows the off ids reached along their links to the next on
// frontier; it reports whether a search still wanted goes on.
func (cb *cycleBatch) offToOn() bool {
	g := cb.g
	for _, q := range cb.qs {
		g.newOn[q] = 0
	}
	for _, q := range cb.qs {
		if f := g.newOff[q] & cb.want; f != 0 {
			for _, t := range g.offLink[g.offAt[q]:g.offAt[q+1]] {
				g.newOn[t] |= f
			}
		}
	}
	live := uint64(0)
	for _, q := range cb.qs {
		nw := g.newOn[q] &^ g.onV[q]
		g.onV[q] |= nw
		g.frOn[q] = nw
		live |= nw
	}
	return live&cb.want != 0
}
