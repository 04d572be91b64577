package logic

import "math/bits"

// unary is the static, single-parent search of Sudoku Explainer's "Forcing
// Chains & Cycles": X-cycles and Y-cycles, forcing X-chains and chains
// mixing both links, graded by the technique table plus the length bonus.
type unary struct {
	objs   []uobj
	onSet  nodeSet
	offSet nodeSet
	qOn    []int32
	qOff   []int32
	buf    []int32
	cycles []int32
	pbuf   []int32 // a cycle's path while it is rated
	// cycleSearch: the off nodes expanded so far, and how many of their
	// links go back to the start
	expanded nodeSet
	closing  nodeSet
	closeN   [nNodes]uint8

	// The links of each node under the current (y, x), built on demand
	// (linkGen says whether a node's entry is current).
	gen      uint32
	linkGen  [nNodes]uint32
	linkAt   [nNodes]int32
	linkN    [nNodes]uint8
	linkPool []int32
}

// newLinks starts a new link table: the board or the link kinds changed.
func (u *unary) newLinks() {
	u.gen++
	u.linkPool = u.linkPool[:0]
}

// cachedLinks returns s.links(p, y, x) through u's table.
func (s *solver) cachedLinks(u *unary, p int32, y, x bool) []int32 {
	if u.linkGen[p] != u.gen {
		at := len(u.linkPool)
		u.linkPool = s.links(p, y, x, u.linkPool)
		u.linkGen[p] = u.gen
		u.linkAt[p] = int32(at)
		u.linkN[p] = uint8(len(u.linkPool) - at)
	}
	return u.linkPool[u.linkAt[p] : u.linkAt[p]+int32(u.linkN[p])]
}

type uobj struct {
	id     int32
	parent int32 // index in objs, -1 for the start
}

// links lists the static consequences of node p.
func (s *solver) links(p int32, y, x bool, out []int32) []int32 {
	c, d := nodeCell(p), nodeDigit(p)
	bit := uint16(1) << d
	cand := &s.b.cand
	if nodeOn(p) {
		if y {
			for m := cand[c] &^ bit; m != 0; m &= m - 1 {
				out = append(out, nodeOf(c, bits.TrailingZeros16(m), false))
			}
		}
		m := s.b.g.sees[c].and(s.dcells[d])
		for w := 0; w < 2; w++ {
			for x := m[w]; x != 0; x &= x - 1 {
				out = append(out, nodeOf(w*64+bits.TrailingZeros64(x), d, false))
			}
		}
		return out
	}
	if y && popcount(cand[c]) == 2 {
		out = append(out, nodeOf(c, firstDigit(cand[c]&^bit), true))
	}
	if x {
		for _, k := range [3]int{2, 0, 1} {
			u := cellUnit[c][k]
			m := s.b.pos[u][d] &^ (1 << cellIndex[c][k])
			if m != 0 && m&(m-1) == 0 {
				out = append(out, nodeOf(unitCells[u][bits.TrailingZeros16(m)], d, true))
			}
		}
		if g := s.b.g; len(g.extras) > 0 {
			for _, h := range g.extra[c] { // the extra houses' strong links
				if m := s.b.pos[h.u][d] &^ (1 << h.j); m != 0 && m&(m-1) == 0 {
					out = append(out, nodeOf(g.cells[h.u][bits.TrailingZeros16(m)], d, true))
				}
			}
		}
	}
	return out
}

func (u *unary) reset(start int32) {
	u.objs = append(u.objs[:0], uobj{start, -1})
	u.onSet, u.offSet, u.expanded = nodeSet{}, nodeSet{}, nodeSet{}
	u.qOn, u.qOff = u.qOn[:0], u.qOff[:0]
	if nodeOn(start) {
		u.onSet.add(start)
		u.qOn = append(u.qOn, 0)
	} else {
		u.offSet.add(start)
		u.qOff = append(u.qOff, 0)
	}
}

func (u *unary) isParent(obj int32, id int32) bool {
	for o := u.objs[obj].parent; o >= 0; o = u.objs[o].parent {
		if u.objs[o].id == id {
			return true
		}
	}
	return false
}

// forcing runs doForcingChains from start; it returns the object proving
// the start's conjugate, or -1.
func (s *solver) forcing(u *unary, start int32, y bool, limit int) int32 {
	u.reset(start)
	target := int32(-1)
	layers := 0
	for len(u.qOn) > 0 || len(u.qOff) > 0 {
		u.qOff = s.layer(u, u.qOn, &u.offSet, u.qOff, start, y, &target)
		u.qOn = u.qOn[:0]
		u.qOn = s.layer(u, u.qOff, &u.onSet, u.qOn, start, y, &target)
		u.qOff = u.qOff[:0]
		if target >= 0 {
			break // later layers only give longer chains to the same target
		}
		if layers += 2; layers > limit {
			break // any chain found now would rate above the best one
		}
	}
	return target
}

// layer is one half-step of forcing: it follows the links of the objects
// queued in from, records each consequence in u.objs, and queues those not
// in seen yet (adding them to seen) onto to, which it returns. The first
// object that reaches the start's conjugate becomes *target.
func (s *solver) layer(u *unary, from []int32, seen *nodeSet, to []int32, start int32, y bool, target *int32) []int32 {
	goal := conjugate(start)
	for _, o := range from {
		s.work++
		u.buf = s.cachedLinks(u, u.objs[o].id, y, true)
		for _, q := range u.buf {
			if seen.has(q) && !(q == goal && *target < 0) {
				continue
			}
			u.objs = append(u.objs, uobj{q, o})
			idx := int32(len(u.objs) - 1)
			if q == goal && *target < 0 {
				*target = idx
			}
			if !seen.has(q) {
				seen.add(q)
				to = append(to, idx)
			}
		}
	}
	return to
}

// cycleSearch runs doCycles from start (an on node) and fills u.cycles.
// After each layer that closed cycles it calls stop, and ends if it says so.
func (s *solver) cycleSearch(u *unary, start int32, y, x bool, limit int, stop func() bool) {
	u.reset(start)
	u.cycles = u.cycles[:0]
	// closing: the off nodes with a link back to the start
	u.closing = nodeSet{}
	c0, d0 := nodeCell(start), nodeDigit(start)
	if x {
		s.strong[d0][c0].each(func(p int) { u.closing.add(nodeOf(p, d0, false)) })
	}
	if y && popcount(s.b.cand[c0]) == 2 {
		u.closing.add(nodeOf(c0, firstDigit(s.b.cand[c0]&^(1<<d0)), false))
	}
	length := 0
	for len(u.qOn) > 0 || len(u.qOff) > 0 {
		length++
		if length > limit {
			return // any cycle found now would rate above the best one
		}
		for i := 0; i < len(u.qOn); i++ {
			o := u.qOn[i]
			s.work++
			u.buf = s.cachedLinks(u, u.objs[o].id, y, x)
			for _, q := range u.buf {
				// A node already taken as another object only matters if
				// it links back to the start (see the off loop).
				if u.offSet.has(q) && (!u.closing.has(q) || u.isParent(o, q)) {
					continue
				}
				u.objs = append(u.objs, uobj{q, o})
				u.qOff = append(u.qOff, int32(len(u.objs)-1))
				u.offSet.add(q)
			}
		}
		u.qOn = u.qOn[:0]
		length++
		for i := 0; i < len(u.qOff); i++ {
			o := u.qOff[i]
			s.work++
			if s.broke() {
				return
			}
			id := u.objs[o].id
			if u.expanded.has(id) {
				// Another object of the same node: its "on" nodes are all
				// taken already, only its links back to the start count.
				if length >= 4 {
					for k := u.closeN[id]; k > 0; k-- {
						u.objs = append(u.objs, uobj{start, o})
						u.cycles = append(u.cycles, int32(len(u.objs)-1))
					}
				}
				continue
			}
			u.expanded.add(id)
			closeN := uint8(0)
			u.buf = s.cachedLinks(u, id, y, x)
			for _, q := range u.buf {
				if q == start {
					closeN++
					if length >= 4 {
						u.objs = append(u.objs, uobj{q, o})
						u.cycles = append(u.cycles, int32(len(u.objs)-1))
					}
				}
				if !u.onSet.has(q) {
					u.objs = append(u.objs, uobj{q, o})
					u.onSet.add(q)
					u.qOn = append(u.qOn, int32(len(u.objs)-1))
				}
			}
			u.closeN[id] = closeN
		}
		u.qOff = u.qOff[:0]
		if len(u.cycles) > 0 && stop() {
			return
		}
	}
}

// path lists the nodes from the start to obj.
func (u *unary) path(obj int32) []int32 { return u.pathInto(obj, nil) }

// pathInto is path reusing p's storage.
func (u *unary) pathInto(obj int32, p []int32) []int32 {
	p = p[:0]
	for o := obj; o >= 0; o = u.objs[o].parent {
		p = append(p, u.objs[o].id)
	}
	for i, j := 0, len(p)-1; i < j; i, j = i+1, j-1 {
		p[i], p[j] = p[j], p[i]
	}
	return p
}

func distinct(ids []int32) int {
	var seen nodeSet
	n := 0
	for _, id := range ids {
		if !seen.has(id) {
			seen.add(id)
			n++
		}
	}
	return n
}

// unaryConfigs are the link kinds (y, x) of the unary searches in Sudoku
// Explainer's order: X-links alone, Y-links alone, both.
var unaryConfigs = [3][2]bool{{false, true}, {true, false}, {true, true}}

// unaryChains finds the easiest cycle or forcing chain of the unary
// searches (unary).
func (s *solver) unaryChains() (Step, bool) {
	p := s.pool()
	us := &unarySearch{s: s, p: p, u: &p.u, memo: -1}
	s.cacheStrong()
	for _, cfg := range unaryConfigs {
		us.configure(cfg[0], cfg[1])
		if us.best.ok && us.best.grade < us.cycBase {
			break
		}
		if !us.search() {
			return Step{}, false
		}
	}
	if s.broke() {
		return Step{}, false
	}
	return us.best.step, us.best.ok
}

// unarySearch is one run of unaryChains: the best hint so far and the
// link kinds being searched.
type unarySearch struct {
	s    *solver
	p    *chainPool
	u    *unary
	best chainHint
	// limit's memo: the limit for memoBase while the best grade is memoGrade
	memo                int
	memoBase, memoGrade float64
	// the configuration: its links, its tie-break key, its techniques
	y, x            bool
	key             int
	cycName, fcName string
	cycBase, fcBase float64
}

// configure sets the link kinds y (Y-links) and x (X-links).
func (us *unarySearch) configure(y, x bool) {
	us.y, us.x = y, x
	us.key = 2
	if y {
		us.key = 3
		if x {
			us.key = 4
		}
	}
	us.cycName, us.fcName = XCycle, ForcingXChain
	if y && x {
		us.cycName, us.fcName = XYCycle, ForcingChain
	} else if y {
		us.cycName = YCycle
	}
	us.cycBase, us.fcBase = gradeOf(us.cycName), gradeOf(us.fcName)
}

// limit is the longest chain (in nodes, with a margin of two) that can
// still rate no higher than the best found so far.
func (us *unarySearch) limit(base float64) int {
	if !us.best.ok {
		return 1 << 30
	}
	if us.memo >= 0 && us.memoBase == base && us.memoGrade == us.best.grade {
		return us.memo
	}
	n := 2
	for chainGrade(base, n) <= us.best.grade {
		n++
	}
	us.memo, us.memoBase, us.memoGrade = n+2, base, us.best.grade
	return us.memo
}

// longestCycle is the longest cycle (in nodes) that can beat the best hint
// from a start at place ord of the search order.
func (us *unarySearch) longestCycle(ord int) int {
	if !us.best.ok {
		return 1 << 30
	}
	n := 3
	for us.best.better(chainGrade(us.cycBase, n+1), n+1, us.key, ord) {
		n++
	}
	return n
}

// search runs the forcing chains and the cycles of the configuration; it
// reports false when the budget ran out among the cycles.
func (us *unarySearch) search() bool {
	us.u.newLinks()
	us.collectStarts()
	// minCycle: no cycle shorter than this removes anything (see below).
	minCycle, ok := 0, true
	if us.x {
		// Forcing chains first: the shortest ones bound the cycle
		// searches. A cycle that removes candidate Z rests on links a
		// forcing chain from Z's "on" node can take around the cycle, so
		// no forcing chain within the limit means no cycle worth finding
		// either.
		if minCycle, ok = us.forcingChains(); !ok {
			return true
		}
	}
	lim := us.longestCycle(0)
	if !us.x {
		if minCycle, ok = us.yCycleBound(lim); !ok {
			return true
		}
	}
	if us.best.ok && !us.best.better(chainGrade(us.cycBase, minCycle), minCycle, us.key, 0) {
		return true // no cycle that removes anything can beat the best hint
	}
	return us.cycles(lim)
}

// collectStarts lists the starts, in the order of Sudoku Explainer's
// search: a hint found from an earlier start wins a tie (ord). Without
// X-links only bivalue cells start.
func (us *unarySearch) collectStarts() {
	s, p := us.s, us.p
	p.starts = p.starts[:0]
	for c := range 81 {
		card := popcount(s.b.cand[c])
		if card < 2 || (!us.x && card > 2) {
			continue
		}
		for m := s.b.cand[c]; m != 0; m &= m - 1 {
			p.starts = append(p.starts, nodeOf(c, bits.TrailingZeros16(m), true))
		}
	}
}

// forcingChains takes the shortest forcing chains (forcingAll finds their
// starts, forcing rebuilds them node by node); it returns the shortest
// cycle that can remove anything, and false when there is no chain.
func (us *unarySearch) forcingChains() (int, bool) {
	hits := us.s.forcingAll(us.p, us.p.starts, false, us.y, us.x, us.limit(us.fcBase))
	if len(hits) == 0 {
		return 0, false
	}
	minCycle := hits[0].n - 2
	for _, h := range hits {
		us.forcingHit(h)
	}
	return minCycle, true
}

// forcingHit rebuilds the chain of a start forcingAll found and takes it
// if it beats the best hint.
func (us *unarySearch) forcingHit(h forcingHit) {
	s, u := us.s, us.u
	if !us.best.better(chainGrade(us.fcBase, h.n), h.n, us.key, h.ord) {
		return
	}
	t := s.forcing(u, h.start, us.y, us.limit(us.fcBase))
	if t < 0 {
		return
	}
	path := u.path(t)
	cx := distinct(path)
	g := chainGrade(us.fcBase, cx)
	if !us.best.better(g, cx, us.key, h.ord) {
		return
	}
	st, ok := s.targetStep(u.objs[t].id)
	if !ok {
		return
	}
	st.Technique, st.Grade, st.Length = us.fcName, g, cx
	st.Chain = make([]Node, len(path))
	for i, id := range path {
		st.Chain[i] = toNode(id)
	}
	st.Cells = pathCells(path)
	s.nameChain(&st, path)
	us.best = chainHint{g, cx, us.key, true, st, h.ord}
}

// yCycleBound bounds the Y-cycles: a cycle that removes candidate Z gives,
// with the same links, a forcing chain from Z=… to Z≠… at most two nodes
// longer; the shortest such chain (within lim) bounds the cycles. It
// reports false when there is none.
func (us *unarySearch) yCycleBound(lim int) (int, bool) {
	s, p := us.s, us.p
	p.zstarts = p.zstarts[:0]
	for c := range 81 {
		if popcount(s.b.cand[c]) >= 2 {
			for m := s.b.cand[c]; m != 0; m &= m - 1 {
				p.zstarts = append(p.zstarts, nodeOf(c, bits.TrailingZeros16(m), true))
			}
		}
	}
	hits := s.forcingAll(p, p.zstarts, true, us.y, us.x, lim)
	if len(hits) == 0 {
		return 0, false
	}
	return hits[0].n - 2, true
}

// cycles searches the cycles of every start whose shortest cycle
// (cycleLengths) is within lim; it reports false when the budget ran out.
func (us *unarySearch) cycles(lim int) bool {
	s := us.s
	cyc := s.cycleLengths(us.p, us.y, us.x, lim)
	for i, on := range us.p.starts {
		if s.broke() {
			return false
		}
		if cyc[i] == 0 {
			continue
		}
		us.cyclesFrom(i, on, cyc[i])
	}
	return true
}

// cyclesFrom searches the cycles of start i (node on), whose shortest
// cycle has shortest nodes.
func (us *unarySearch) cyclesFrom(i int, on int32, shortest int) {
	s, u := us.s, us.u
	ord := 3 * i
	u.cycles = u.cycles[:0]
	// A cycle found at length L has L nodes; the longest that can beat the
	// best hint bounds the search.
	maxLen := us.longestCycle(ord)
	// The cycles are taken in the order found, by length, and a cycle's
	// complexity is its length, so once one of them gives the best hint no
	// later cycle of this start can beat it (same start, more nodes): the
	// search stops there.
	done, took := 0, false
	eval := func() bool {
		for ; done < len(u.cycles); done++ {
			if us.takeCycle(u.cycles[done], ord) {
				took = true
			}
		}
		return took
	}
	if shortest <= maxLen {
		s.cycleSearch(u, on, us.y, us.x, maxLen, eval)
	}
	eval()
}

// takeCycle takes the cycle ending at object obj if it beats the best hint.
func (us *unarySearch) takeCycle(obj int32, ord int) bool {
	u := us.u
	u.pbuf = u.pathInto(obj, u.pbuf)
	path := u.pbuf
	cx := distinct(path)
	g := chainGrade(us.cycBase, cx)
	if !us.best.better(g, cx, us.key, ord) {
		return false
	}
	st, ok := us.s.cycleStep(path)
	if !ok {
		return false
	}
	st.Technique, st.Grade, st.Length = us.cycName, g, cx
	us.best = chainHint{g, cx, us.key, true, st, ord}
	return true
}

func pathCells(path []int32) []int {
	var set cellSet
	for _, id := range path {
		set.add(nodeCell(id))
	}
	var cs []int
	set.each(func(c int) { cs = append(cs, c) })
	return cs
}

// cycleStep removes the digits seen both from an on node and an off node of
// the same digit of the cycle, outside the cycle's cells.
func (s *solver) cycleStep(path []int32) (Step, bool) {
	var cells cellSet
	for _, id := range path[1:] {
		cells.add(nodeCell(id))
	}
	var forw, back [10]cellSet
	for _, id := range path[1:] {
		c, d := nodeCell(id), nodeDigit(id)
		vis := s.b.g.sees[c].and(s.dcells[d])
		if nodeOn(id) {
			forw[d][0] |= vis[0]
			forw[d][1] |= vis[1]
		} else {
			back[d][0] |= vis[0]
			back[d][1] |= vis[1]
		}
	}
	var hit [10]cellSet
	any := false
	for d := 1; d <= 9; d++ {
		h := forw[d].and(back[d])
		h[0] &^= cells[0]
		h[1] &^= cells[1]
		hit[d] = h
		any = any || !h.empty()
	}
	if !any {
		return Step{}, false
	}
	var elim []Candidate
	for c := range 81 {
		for d := 1; d <= 9; d++ {
			if hit[d].has(c) {
				elim = append(elim, Candidate{c, d})
			}
		}
	}
	st := Step{Eliminations: elim, Cells: pathCells(path)}
	st.Chain = make([]Node, len(path))
	for i, id := range path {
		st.Chain[i] = toNode(id)
	}
	return st, true
}
