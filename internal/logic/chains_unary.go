package logic

import "math/bits"

// unary is the static, single-parent search of Sudoku Explainer's "Forcing
// Chains & Cycles": X-cycles and Y-cycles (6.5), forcing X-chains (6.6) and
// chains mixing both links (7.0), plus the length bonus.
type unary struct {
	objs   []uobj
	onSet  nodeSet
	offSet nodeSet
	qOn    []int32
	qOff   []int32
	buf    []int32
	cycles []int32
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
		m := sees[c].and(s.dcells[d])
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
			m := unitSet[cellUnit[c][k]].and(s.dcells[d])
			m[c>>6] &^= 1 << (c & 63)
			if m.count() == 1 {
				o := bits.TrailingZeros64(m[0])
				if m[0] == 0 {
					o = 64 + bits.TrailingZeros64(m[1])
				}
				out = append(out, nodeOf(o, d, true))
			}
		}
	}
	return out
}

// cacheDigits refreshes s.dcells, the cells of each digit, for links.
func (s *solver) cacheDigits() {
	s.dcells = [10]cellSet{}
	for c := range 81 {
		for m := s.b.cand[c]; m != 0; m &= m - 1 {
			s.dcells[bits.TrailingZeros16(m)].add(c)
		}
	}
}

func (u *unary) reset(start int32) {
	u.objs = append(u.objs[:0], uobj{start, -1})
	u.onSet, u.offSet = nodeSet{}, nodeSet{}
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
		for i := 0; i < len(u.qOn); i++ {
			o := u.qOn[i]
			s.work++
			u.buf = s.links(u.objs[o].id, y, true, u.buf[:0])
			for _, q := range u.buf {
				if u.offSet.has(q) && !(q == conjugate(start) && target < 0) {
					continue
				}
				u.objs = append(u.objs, uobj{q, o})
				idx := int32(len(u.objs) - 1)
				if q == conjugate(start) && target < 0 {
					target = idx
				}
				if !u.offSet.has(q) {
					u.offSet.add(q)
					u.qOff = append(u.qOff, idx)
				}
			}
		}
		u.qOn = u.qOn[:0]
		for i := 0; i < len(u.qOff); i++ {
			o := u.qOff[i]
			s.work++
			u.buf = s.links(u.objs[o].id, y, true, u.buf[:0])
			for _, q := range u.buf {
				if u.onSet.has(q) && !(q == conjugate(start) && target < 0) {
					continue
				}
				u.objs = append(u.objs, uobj{q, o})
				idx := int32(len(u.objs) - 1)
				if q == conjugate(start) && target < 0 {
					target = idx
				}
				if !u.onSet.has(q) {
					u.onSet.add(q)
					u.qOn = append(u.qOn, idx)
				}
			}
		}
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

// cycleSearch runs doCycles from start (an on node) and fills u.cycles.
func (s *solver) cycleSearch(u *unary, start int32, y, x bool, limit int) {
	u.reset(start)
	u.cycles = u.cycles[:0]
	length := 0
	for len(u.qOn) > 0 || len(u.qOff) > 0 {
		length++
		if length > limit {
			return // any cycle found now would rate above the best one
		}
		for i := 0; i < len(u.qOn); i++ {
			o := u.qOn[i]
			s.work++
			u.buf = s.links(u.objs[o].id, y, x, u.buf[:0])
			for _, q := range u.buf {
				if u.isParent(o, q) {
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
			u.buf = s.links(u.objs[o].id, y, x, u.buf[:0])
			for _, q := range u.buf {
				if length >= 4 && q == start {
					u.objs = append(u.objs, uobj{q, o})
					u.cycles = append(u.cycles, int32(len(u.objs)-1))
				}
				if !u.onSet.has(q) {
					u.objs = append(u.objs, uobj{q, o})
					u.onSet.add(q)
					u.qOn = append(u.qOn, int32(len(u.objs)-1))
				}
			}
		}
		u.qOff = u.qOff[:0]
	}
}

// path lists the nodes from the start to obj.
func (u *unary) path(obj int32) []int32 {
	var p []int32
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

func (s *solver) unaryChains() (Step, bool) {
	p := s.pool()
	u := &p.u
	s.cacheDigits()
	var best chainHint
	// limit is the longest chain (in nodes, with a margin of two) that can
	// still rate no higher than the best found so far.
	limit := func(base float64) int {
		if !best.ok {
			return 1 << 30
		}
		n := 2
		for chainGrade(base, n) <= best.grade {
			n++
		}
		return n + 2
	}
	configs := [3][2]bool{{false, true}, {true, false}, {true, true}} // (y, x)
	for _, cfg := range configs {
		y, x := cfg[0], cfg[1]
		key := 2
		if y {
			key = 3
			if x {
				key = 4
			}
		}
		cycBase, cycName := 6.5, XCycle
		fcBase, fcName := 6.6, ForcingXChain
		if y && x {
			cycBase, cycName, fcBase, fcName = 7.0, XYCycle, 7.0, ForcingChain
		} else if y {
			cycName = YCycle
		}
		if best.ok && best.grade < cycBase {
			break
		}
		for c := range 81 {
			card := popcount(s.b.cand[c])
			if card < 2 || (!x && card > 2) {
				continue
			}
			if s.broke() {
				return Step{}, false
			}
			for _, v := range digitsOf(s.b.cand[c]) {
				on := nodeOf(c, v, true)
				s.cycleSearch(u, on, y, x, limit(cycBase))
				for _, cyc := range u.cycles {
					path := u.path(cyc)
					cx := distinct(path)
					g := chainGrade(cycBase, cx)
					if !best.better(g, cx, key) {
						continue
					}
					if st, ok := s.cycleStep(path); ok {
						st.Technique, st.Grade, st.Length = cycName, g, cx
						best = chainHint{g, cx, key, true, st}
					}
				}
				if !x {
					continue
				}
				for _, start := range [2]int32{on, conjugate(on)} {
					t := s.forcing(u, start, y, limit(fcBase))
					if t < 0 {
						continue
					}
					path := u.path(t)
					cx := distinct(path)
					g := chainGrade(fcBase, cx)
					if !best.better(g, cx, key) {
						continue
					}
					st, ok := s.targetStep(u.objs[t].id)
					if !ok {
						continue
					}
					st.Technique, st.Grade, st.Length = fcName, g, cx
					st.Chain = make([]Node, len(path))
					for i, id := range path {
						st.Chain[i] = toNode(id)
					}
					st.Cells = pathCells(path)
					best = chainHint{g, cx, key, true, st}
				}
			}
		}
	}
	return best.step, best.ok
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
		vis := sees[c].and(s.dcells[d])
		if nodeOn(id) {
			forw[d][0] |= vis[0]
			forw[d][1] |= vis[1]
		} else {
			back[d][0] |= vis[0]
			back[d][1] |= vis[1]
		}
	}
	var elim []Candidate
	for c := range 81 {
		for d := 1; d <= 9; d++ {
			if !cells.has(c) && forw[d].has(c) && back[d].has(c) {
				elim = append(elim, Candidate{c, d})
			}
		}
	}
	if len(elim) == 0 {
		return Step{}, false
	}
	st := Step{Eliminations: elim, Cells: pathCells(path)}
	st.Chain = make([]Node, len(path))
	for i, id := range path {
		st.Chain[i] = toNode(id)
	}
	return st, true
}
