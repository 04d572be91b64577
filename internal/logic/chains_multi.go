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
	modeNested2 // + forcing chains (level 2)
	modeNested3 // + multiple forcing chains (level 3)
	modeNested4 // + dynamic forcing chains (level 4)
)

// multiChains is Sudoku Explainer's Nishio, Multiple, Dynamic and Dynamic+
// forcing chains: from every candidate of a cell assume it on and off; a
// contradiction, a node implied by both, by every candidate of the cell or
// by every place of the digit in a unit is proven.
func (s *solver) multiChains(mode chainMode) (Step, bool) {
	m := s.newMultiSearch(mode)
	for c := range 81 {
		card := popcount(s.b.cand[c])
		if card < 2 || (mode == modeMultiple && card < 3) {
			continue
		}
		if s.broke() || !m.canBeat() {
			break
		}
		m.cell(c, card)
	}
	if s.broke() {
		return Step{}, false
	}
	return m.best.step, m.best.ok
}

// multiSearch is one run of multiChains: its mode and the best hint so far.
type multiSearch struct {
	s    *solver
	p    *chainPool
	mode chainMode
	name string  // the technique of the mode
	base float64 // its grade before the length bonus
	// contradiction: the mode proves candidates by contradictions (all but
	// Multiple, whose static chains only compare branches).
	contradiction bool
	// static: Cell and Region Forcing Chains, which run only where the
	// branches' closures share a node (closures, from staticClosures).
	static   bool
	closures []nodeSet
	best     chainHint
	// collect, when set, is given every chain found instead of keeping the
	// best (the nested searches, chains_nested.go).
	collect func(cx int, st Step)
	want    func(t int32) bool // collect: whether a chain proving t can add anything
	// wantSet, when set, holds every node want may accept (a superset:
	// want narrows as the search goes): static chains run only where the
	// branches' closures meet in it.
	wantSet *nodeSet
	pathBuf []Node // collect: the paths of the chain at hand (path)
}

// newMultiSearch readies the chainers for mode on the current board.
func (s *solver) newMultiSearch(mode chainMode) *multiSearch {
	p := s.pool()
	var name string
	y, dynamic, plus, level := true, true, false, 0
	switch mode {
	case modeNishio:
		name, y = Nishio, false
	case modeMultiple:
		name, dynamic = CellForcingChain, false
	case modeDynamic:
		name = DynamicForcingChain
	case modeDynamicPlus:
		name, plus, level = DynamicForcingChainPlus, true, 1
	case modeNested2, modeNested3, modeNested4:
		name, plus, level = nestedNames[mode-modeNested2], true, int(mode-modeNested2)+2
	}
	for _, ch := range append(append([]*chainer{p.offRun}, p.onRuns[:]...), p.regRuns[:]...) {
		ch.src = s.b.cand
		ch.srcPos = [27][10]uint16(s.b.pos[:27])
		ch.xsees, ch.xg = nil, nil
		if g := s.b.g; !g.classic {
			ch.xsees, ch.xg = &g.sees, g
			ch.xsrcPos = [maxHouses - 27][10]uint16(s.b.pos[27:])
		}
		ch.y, ch.dynamic, ch.plus, ch.level = y, dynamic, plus, level
	}
	m := &multiSearch{s: s, p: p, mode: mode, name: name, base: gradeOf(name),
		contradiction: mode != modeMultiple, static: mode == modeMultiple}
	if m.static {
		m.closures = s.staticClosures(p)
	}
	s.runs.reset()
	return m
}

// consider takes the hint build makes when a chain of complexity cx with
// tie-break key, proving node t, can beat the best one.
func (m *multiSearch) consider(t int32, cx, key int, build func() (Step, bool)) {
	if m.collect != nil {
		if !m.want(t) {
			return
		}
		m.pathBuf = m.pathBuf[:0]
		if st, ok := build(); ok {
			m.collect(cx, st)
		}
		return
	}
	g := chainGrade(m.base, cx)
	if !m.best.better(g, cx, key, 1<<30) {
		return
	}
	st, ok := build()
	if !ok {
		return
	}
	st.Grade, st.Length = g, cx
	if st.Technique == "" {
		st.Technique = m.name
	}
	m.best = chainHint{g, cx, key, true, st, 0}
}

// wanted reports whether a chain proving t is worth its complexity: always,
// but for a collecting search only when it can add anything (want).
func (m *multiSearch) wanted(t int32) bool { return m.collect == nil || m.want(t) }

// canBeat reports whether a chain of this mode can still beat the best hint.
func (m *multiSearch) canBeat() bool {
	return m.collect != nil || !m.best.ok || m.base <= m.best.grade
}

// meet intersects set with the closure of candidate k and reports whether
// anything is left that the search may want.
func (m *multiSearch) meet(k int, set *nodeSet) bool {
	any := uint64(0)
	for w := range set {
		set[w] &= m.closures[k][w]
		if m.wantSet != nil {
			any |= set[w] & m.wantSet[w]
		} else {
			any |= set[w]
		}
	}
	return any != 0
}

// cell runs the chains from the candidates of cell c (card of them).
func (m *multiSearch) cell(c, card int) {
	s := m.s
	cellNeed := m.cellNeeded(c)
	for _, v := range digitsOf(s.b.cand[c]) {
		if m.mode == modeNishio {
			m.nishio(c, v)
			continue
		}
		m.digit(c, v, card, cellNeed)
	}
	if m.mode == modeNishio || !cellNeed {
		return
	}
	m.cellChains(c)
}

// cellNeeded reports whether a cell forcing chain from c can exist: always,
// but for static chains only when the closures of c's candidates meet.
func (m *multiSearch) cellNeeded(c int) bool {
	if !m.static {
		return true
	}
	cand := m.s.b.cand[c]
	all := m.closures[c*9+firstDigit(cand)-1]
	need := true
	for r := cand; r != 0 && need; r &= r - 1 {
		need = m.meet(c*9+bits.TrailingZeros16(r)-1, &all)
	}
	return need
}

// nishio takes the Nishio contradictions from c=v and c≠v. X-links only:
// the runs read digit v's candidates only, so their outcome is kept while
// those stay (nishioRuns).
func (m *multiSearch) nishio(c, v int) {
	s := m.s
	src := nodeOf(c, v, true)
	r := s.nishioRuns(m.p, c, v)
	s.work += int64(r.work)
	if r.on {
		m.consider(conjugate(src), int(r.onCx), 7, m.contradictionStep(c, src, m.rerun(m.p.onRuns[v], src)))
	}
	if r.off {
		m.consider(nodeOf(c, v, true), int(r.offCx), 7, m.contradictionStep(c, nodeOf(c, v, false), m.rerun(m.p.offRun, nodeOf(c, v, false))))
	}
}

// contradictionStep builds the step of an assumption from that led to a
// contradiction: its conjugate is proven. ch() returns the chainer whose
// run from the assumption met the contradiction (its two paths are drawn).
func (m *multiSearch) contradictionStep(c int, from int32, ch func() *chainer) func() (Step, bool) {
	return func() (Step, bool) {
		st, ok := m.s.targetStep(conjugate(from))
		st.Cells = []int{c}
		st.Chain = []Node{toNode(from), toNode(conjugate(from))}
		if r := ch(); ok && r != nil {
			st.paths = [][]Node{m.path(r, r.confOn), m.path(r, r.confOff)}
			st.Nested = m.nestedOf([]*chainer{r, r}, r.confOn, r.confOff)
		}
		return st, ok
	}
}

// current returns ch as it is: its last run is the one to draw.
func current(ch *chainer) func() *chainer { return func() *chainer { return ch } }

// rerun returns ch after running it from start again (the Nishio runs are
// kept in a memo, so the chainer may hold another run by now), without
// counting the work: the search already counted it once.
func (m *multiSearch) rerun(ch *chainer, start int32) func() *chainer {
	return func() *chainer {
		w := m.s.work
		ok := ch.run(start)
		m.s.work = w
		if !ok {
			return nil
		}
		return ch
	}
}

// digit runs the chains from c=v: its contradiction, c≠v's and the nodes
// both imply, and the region chains through c.
func (m *multiSearch) digit(c, v, card int, cellNeed bool) {
	regNeed, need := m.regionsNeeded(c, v, cellNeed)
	if !need {
		return
	}
	A := m.p.onRuns[v]
	src := nodeOf(c, v, true)
	aConf := m.run(A, src)
	if aConf && m.contradiction {
		cx := m.s.complexity(A, A.confOn, A, A.confOff)
		m.consider(conjugate(src), cx, 7, m.contradictionStep(c, src, current(A)))
	}
	if m.contradiction {
		m.offBranch(c, v, card, A)
	}
	m.regionChains(c, v, A, aConf, regNeed)
}

// regionsNeeded reports, for c's box, row and column, whether a region
// chain of digit v from c can exist there (for static chains: the
// closures of v's places meet), and whether c=v needs running at all.
func (m *multiSearch) regionsNeeded(c, v int, cellNeed bool) (regNeed [3]bool, need bool) {
	need = !m.static || cellNeed
	for i, k := range [3]int{2, 0, 1} {
		u := cellUnit[c][k]
		pos := m.s.b.positions(u, v)
		if !m.static || popcount(pos) < 2 || unitCells[u][bits.TrailingZeros16(pos)] != c {
			regNeed[i] = !m.static
			continue
		}
		all := m.closures[c*9+v-1]
		ok := true
		for r := pos; r != 0 && ok; r &= r - 1 {
			ok = m.meet(unitCells[u][bits.TrailingZeros16(r)]*9+v-1, &all)
		}
		regNeed[i] = ok
		need = need || ok
	}
	return regNeed, need
}

// offBranch runs c≠v: its contradiction, and (dynamic modes, a cell of
// three or more candidates) the nodes that both c=v (run A) and c≠v imply.
func (m *multiSearch) offBranch(c, v, card int, A *chainer) {
	B := m.p.offRun
	src, off := nodeOf(c, v, true), nodeOf(c, v, false)
	if B.run(off) {
		cx := m.s.complexity(B, B.confOn, B, B.confOff)
		m.consider(src, cx, 7, m.contradictionStep(c, off, current(B)))
	}
	if m.mode < modeDynamic || card < 3 {
		return
	}
	for w := range A.set {
		for r := A.set[w] & B.set[w]; r != 0; r &= r - 1 {
			id := int32(w*64 + bits.TrailingZeros64(r))
			if !m.wanted(id) {
				continue
			}
			cx := m.s.complexity(A, id, B, id)
			m.consider(id, cx, 1, func() (Step, bool) {
				st, ok := m.s.targetStep(id)
				st.Cells = uniqueCells(c, nodeCell(id))
				st.Chain = []Node{toNode(src), toNode(id)}
				st.paths = [][]Node{m.path(A, id), m.path(B, id)}
				st.Nested = m.nestedOf([]*chainer{A, B}, id, id)
				return st, ok
			})
		}
	}
}

// regionChains runs the region forcing chains of digit v in the units
// through c where c is v's first place (run A is c=v's, aConf whether it
// met a contradiction).
func (m *multiSearch) regionChains(c, v int, A *chainer, aConf bool, regNeed [3]bool) {
	s := m.s
	for i, k := range [3]int{2, 0, 1} {
		u := cellUnit[c][k]
		pos := s.b.positions(u, v)
		if popcount(pos) < 2 || unitCells[u][bits.TrailingZeros16(pos)] != c || !regNeed[i] {
			continue
		}
		runs, ok := m.regionRuns(u, v, pos, A, aConf)
		if !ok {
			continue
		}
		src := nodeOf(c, v, true)
		s.intersect(runs, m.wanted, func(id int32, cx int) {
			m.consider(id, cx, 6, func() (Step, bool) {
				st, ok := s.targetStep(id)
				if m.mode == modeMultiple {
					st.Technique = RegionForcingChain
				}
				st.Cells = uniqueCells(c, nodeCell(id))
				st.Units = []int{u}
				st.Branches = len(runs)
				st.Chain = []Node{toNode(src), toNode(id)}
				st.paths = m.branchPaths(runs, id)
				st.Nested = m.nestedOf(runs, id)
				return st, ok
			})
		}, m.canBeat)
	}
}

// regionRuns runs digit v's places pos in unit u (c's is run A) and
// returns the runs. It stops early, reporting false, once the runs so far
// share no node the search may want outside v's places in u: a node all
// branches imply is never one of those places (each branch puts v on its
// own place and off the others) unless a branch met a contradiction, and
// then it does not stop.
func (m *multiSearch) regionRuns(u, v int, pos uint16, A *chainer, aConf bool) ([]*chainer, bool) {
	acc := A.set
	if m.wantSet != nil {
		for w := range acc {
			acc[w] &= m.wantSet[w]
		}
	}
	for _, o := range unitCells[u] {
		acc[nodeOf(o, v, false)>>6] &^= 3 << (nodeOf(o, v, false) & 63)
	}
	prune := !aConf
	runs := []*chainer{A}
	for r, j := pos&(pos-1), 0; r != 0; r &= r - 1 {
		R := m.p.regRuns[j]
		j++
		if m.run(R, nodeOf(unitCells[u][bits.TrailingZeros16(r)], v, true)) {
			prune = false
		}
		runs = append(runs, R)
		any := uint64(0)
		for w := range acc {
			acc[w] &= R.set[w]
			any |= acc[w]
		}
		if prune && any == 0 {
			return nil, false
		}
	}
	return runs, true
}

// cellChains takes the nodes that every candidate of c implies (the runs
// from c's candidates are still in the on-chainers).
func (m *multiSearch) cellChains(c int) {
	s := m.s
	var runs []*chainer
	for _, v := range digitsOf(s.b.cand[c]) {
		runs = append(runs, m.p.onRuns[v])
	}
	first := nodeOf(c, firstDigit(s.b.cand[c]), true)
	s.intersect(runs, m.wanted, func(id int32, cx int) {
		m.consider(id, cx, 5, func() (Step, bool) {
			st, ok := s.targetStep(id)
			st.Cells = uniqueCells(c, nodeCell(id))
			st.Branches = len(runs)
			st.Chain = []Node{toNode(first), toNode(id)}
			st.paths = m.branchPaths(runs, id)
			st.Nested = m.nestedOf(runs, id)
			return st, ok
		})
	}, m.canBeat)
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
		r.on, r.onCx = true, int32(s.complexity(A, A.confOn, A, A.confOff))
	}
	if B.run(nodeOf(c, v, false)) {
		r.off, r.offCx = true, int32(s.complexity(B, B.confOn, B, B.confOff))
	}
	r.work = int32(s.work - w0)
	s.work = w0
	r.ok = true
	return *r
}

// intersect calls f with every node all runs reached and its complexity.
func (s *solver) intersect(runs []*chainer, keep func(int32) bool, f func(id int32, cx int), go_ func() bool) {
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
			if !keep(id) {
				continue
			}
			cx := 0
			keys := s.nestKeys[:0]
			for _, r := range runs {
				cx += r.anc(id, &keys)
			}
			s.nestKeys = keys
			f(id, cx)
		}
	}
}

// complexity is a's ancestors of x and b's of y, each nested chain they
// rest on counted once (the solver's key buffer saves an allocation a
// chain).
func (s *solver) complexity(a *chainer, x int32, b *chainer, y int32) int {
	keys := s.nestKeys[:0]
	cx := a.anc(x, &keys) + b.anc(y, &keys)
	s.nestKeys = keys
	return cx
}

// branchPaths returns each run's implication chain to id (m.path).
func (m *multiSearch) branchPaths(runs []*chainer, id int32) [][]Node {
	ps := make([][]Node, len(runs))
	for i, r := range runs {
		ps[i] = m.path(r, id)
	}
	return ps
}

// path returns r's implication chain to id. A collecting search hands its
// chains' paths over at once and keeps none (chains_nested.go), so they
// are written into one buffer, reused from chain to chain (consider
// empties it): the nested levels build millions.
func (m *multiSearch) path(r *chainer, id int32) []Node {
	if m.collect == nil {
		return r.path(id)
	}
	at := len(m.pathBuf)
	m.pathBuf = r.appendPath(m.pathBuf, id)
	return m.pathBuf[at:len(m.pathBuf):len(m.pathBuf)]
}

// nestedOf is nestedOf for a step to keep: a collecting search's chains
// are nested in another's, whose explanation shows only its own.
func (m *multiSearch) nestedOf(runs []*chainer, ids ...int32) []NestedChain {
	if m.collect != nil {
		return nil
	}
	return nestedOf(runs, ids...)
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
