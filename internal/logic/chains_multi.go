// Nishio, cell, region and dynamic forcing chains (multiChains): each
// assumption propagated by a chainer (chains.go), the branches compared.

package logic

import "math/bits"

type chainMode int

// The modes of multiChains, in the ladder's order.
const (
	modeNishio chainMode = iota
	modeMultiple
	modeDynamic
	modeDynamicPlus
)

// multiChains is Sudoku Explainer's Nishio (7.5), Multiple (8.0), Dynamic
// (8.5) and Dynamic+ (9.0) forcing chains: from every candidate of a cell
// assume it on and off; a contradiction, a node implied by both, by every
// candidate of the cell or by every place of the digit in a unit is proven.
func (s *solver) multiChains(mode chainMode) (Step, bool) {
	p := s.pool()
	var name string
	y, dynamic, plus := true, true, false
	switch mode {
	case modeNishio:
		name, y = Nishio, false
	case modeMultiple:
		name, dynamic = CellForcingChain, false
	case modeDynamic:
		name = DynamicForcingChain
	case modeDynamicPlus:
		name, plus = DynamicForcingChainPlus, true
	}
	base := gradeOf(name)
	contradiction := mode != modeMultiple
	for _, ch := range append(append([]*chainer{p.offRun}, p.onRuns[:]...), p.regRuns[:]...) {
		ch.src = s.b.cand
		ch.srcPos = s.b.pos
		ch.y, ch.dynamic, ch.plus = y, dynamic, plus
	}
	var best chainHint
	consider := func(cx, key int, build func() (Step, bool)) {
		g := chainGrade(base, cx)
		if !best.better(g, cx, key, 1<<30) {
			return
		}
		st, ok := build()
		if !ok {
			return
		}
		st.Grade, st.Length = g, cx
		if st.Technique == "" {
			st.Technique = name
		}
		best = chainHint{g, cx, key, true, st, 0}
	}
	canBeat := func() bool { return !best.ok || base <= best.grade }
	// Static chains (Cell and Region Forcing Chains) only run where the
	// branches' closures share a node (staticClosures).
	static := mode == modeMultiple
	var cl []nodeSet
	if static {
		cl = s.staticClosures(p)
	}
	meet := func(k int, set *nodeSet) bool {
		for w := range set {
			set[w] &= cl[k][w]
		}
		return *set != nodeSet{}
	}
	for c := range 81 {
		card := popcount(s.b.cand[c])
		if card < 2 || (mode == modeMultiple && card < 3) {
			continue
		}
		if s.broke() || !canBeat() {
			break
		}
		cellNeed := true
		if static {
			all := cl[c*9+firstDigit(s.b.cand[c])-1]
			for m := s.b.cand[c]; m != 0 && cellNeed; m &= m - 1 {
				cellNeed = meet(c*9+bits.TrailingZeros16(m)-1, &all)
			}
		}
		for _, v := range digitsOf(s.b.cand[c]) {
			A := p.onRuns[v]
			src := nodeOf(c, v, true)
			if mode == modeNishio {
				// X-links only: the runs read digit v's candidates only,
				// so their outcome is kept while those stay.
				r := s.nishioRuns(p, c, v)
				s.work += int64(r.work)
				if r.on {
					consider(int(r.onCx), 7, func() (Step, bool) {
						st, ok := s.targetStep(conjugate(src))
						st.Cells = []int{c}
						st.Chain = []Node{toNode(src), toNode(conjugate(src))}
						return st, ok
					})
				}
				if r.off {
					off := nodeOf(c, v, false)
					consider(int(r.offCx), 7, func() (Step, bool) {
						st, ok := s.targetStep(src)
						st.Cells = []int{c}
						st.Chain = []Node{toNode(off), toNode(src)}
						return st, ok
					})
				}
				continue
			}
			var regNeed [3]bool
			need := !static || cellNeed
			for i, k := range [3]int{2, 0, 1} {
				u := cellUnit[c][k]
				pos := s.b.positions(u, v)
				if !static || popcount(pos) < 2 || unitCells[u][bits.TrailingZeros16(pos)] != c {
					regNeed[i] = !static
					continue
				}
				all := cl[c*9+v-1]
				ok := true
				for m := pos; m != 0 && ok; m &= m - 1 {
					ok = meet(unitCells[u][bits.TrailingZeros16(m)]*9+v-1, &all)
				}
				regNeed[i] = ok
				need = need || ok
			}
			if !need {
				continue
			}
			if A.run(src) && contradiction {
				cx := A.anc(A.confOn) + A.anc(A.confOff)
				consider(cx, 7, func() (Step, bool) {
					st, ok := s.targetStep(conjugate(src))
					st.Cells = []int{c}
					st.Chain = []Node{toNode(src), toNode(conjugate(src))}
					return st, ok
				})
			}
			if contradiction {
				B := p.offRun
				off := nodeOf(c, v, false)
				if B.run(off) {
					cx := B.anc(B.confOn) + B.anc(B.confOff)
					consider(cx, 7, func() (Step, bool) {
						st, ok := s.targetStep(src)
						st.Cells = []int{c}
						st.Chain = []Node{toNode(off), toNode(src)}
						return st, ok
					})
				}
				if (mode == modeDynamic || mode == modeDynamicPlus) && card >= 3 {
					for w := range A.set {
						for m := A.set[w] & B.set[w]; m != 0; m &= m - 1 {
							id := int32(w*64 + bits.TrailingZeros64(m))
							cx := A.anc(id) + B.anc(id)
							consider(cx, 1, func() (Step, bool) {
								st, ok := s.targetStep(id)
								st.Cells = uniqueCells(c, nodeCell(id))
								st.Chain = []Node{toNode(src), toNode(id)}
								return st, ok
							})
						}
					}
				}
			}
			if mode == modeNishio {
				continue
			}
			for i, k := range [3]int{2, 0, 1} {
				u := cellUnit[c][k]
				pos := s.b.positions(u, v)
				if popcount(pos) < 2 || unitCells[u][bits.TrailingZeros16(pos)] != c || !regNeed[i] {
					continue
				}
				runs := []*chainer{}
				for m, j := pos, 0; m != 0; m &= m - 1 {
					o := unitCells[u][bits.TrailingZeros16(m)]
					if o == c {
						runs = append(runs, A)
						continue
					}
					R := p.regRuns[j]
					j++
					R.run(nodeOf(o, v, true))
					runs = append(runs, R)
				}
				s.intersect(runs, func(id int32, cx int) {
					consider(cx, 6, func() (Step, bool) {
						st, ok := s.targetStep(id)
						if mode == modeMultiple {
							st.Technique = RegionForcingChain
						}
						st.Cells = uniqueCells(c, nodeCell(id))
						st.Units = []int{u}
						st.Branches = len(runs)
						st.Chain = []Node{toNode(src), toNode(id)}
						return st, ok
					})
				}, canBeat)
			}
		}
		if mode == modeNishio || !cellNeed {
			continue
		}
		var runs []*chainer
		for _, v := range digitsOf(s.b.cand[c]) {
			runs = append(runs, p.onRuns[v])
		}
		first := nodeOf(c, firstDigit(s.b.cand[c]), true)
		s.intersect(runs, func(id int32, cx int) {
			consider(cx, 5, func() (Step, bool) {
				st, ok := s.targetStep(id)
				st.Cells = uniqueCells(c, nodeCell(id))
				st.Branches = len(runs)
				st.Chain = []Node{toNode(first), toNode(id)}
				return st, ok
			})
		}, canBeat)
	}
	if s.broke() {
		return Step{}, false
	}
	return best.step, best.ok
}

// nishioRun is the outcome of the two Nishio runs from a candidate: whether
// assuming it on (off) gives a contradiction, its complexity, and the work
// both runs spent.
type nishioRun struct {
	on, off     bool
	onCx, offCx int32
	work        int32
	ok          bool
}

// nishioMemo keeps the Nishio runs of each digit for the digit's
// candidates they were made on.
type nishioMemo struct {
	at   [10]cellSet
	runs [10][81]nishioRun
}

// nishioRuns returns the Nishio runs from (c, v), kept while v's
// candidates stay as they were.
func (s *solver) nishioRuns(p *chainPool, c, v int) nishioRun {
	if s.nishio == nil {
		s.nishio = &nishioMemo{}
	}
	m := s.nishio
	if m.at[v] != s.dcells[v] {
		m.at[v] = s.dcells[v]
		m.runs[v] = [81]nishioRun{}
	}
	r := &m.runs[v][c]
	if r.ok {
		return *r
	}
	w0 := s.work
	A, B := p.onRuns[v], p.offRun
	if A.run(nodeOf(c, v, true)) {
		r.on, r.onCx = true, int32(A.anc(A.confOn)+A.anc(A.confOff))
	}
	if B.run(nodeOf(c, v, false)) {
		r.off, r.offCx = true, int32(B.anc(B.confOn)+B.anc(B.confOff))
	}
	r.work = int32(s.work - w0)
	s.work = w0
	r.ok = true
	return *r
}

// intersect calls f with every node all runs reached and its complexity.
func (s *solver) intersect(runs []*chainer, f func(id int32, cx int), go_ func() bool) {
	if !go_() {
		return
	}
	for w := range runs[0].set {
		m := runs[0].set[w]
		for _, r := range runs[1:] {
			m &= r.set[w]
		}
		for ; m != 0; m &= m - 1 {
			id := int32(w*64 + bits.TrailingZeros64(m))
			cx := 0
			for _, r := range runs {
				cx += r.anc(id)
			}
			f(id, cx)
		}
	}
}

func uniqueCells(a, b int) []int {
	if a == b {
		return []int{a}
	}
	if a > b {
		a, b = b, a
	}
	return []int{a, b}
}
