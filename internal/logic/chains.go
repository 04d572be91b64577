// The chain family's common parts: nodes, the length bonus, the chainer
// that propagates one assumption (Sudoku Explainer's doChaining), the pool
// of chain search state and the hint kept while searching.

package logic

import (
	"math/bits"
	"slices"
	"sync"
)

// The chain family follows Sudoku Explainer's Chaining: a node is a
// candidate that is on (true) or off (false); an "on" node turns off the
// other candidates of its cell and the other places of its digit in its
// units; an "off" node turns on the last candidate of a bivalue cell (a
// Y-link) or the last place of the digit in a unit (an X-link). A chain's
// complexity is the number of distinct nodes it rests on, and its grade is
// the technique's base plus lengthBonus(complexity).

const nNodes = 1458 // 729 candidates, on and off

// extraSlot holds the node found in a contradiction, beside the set's nodes.
const extraSlot = nNodes

type nodeSet [23]uint64

func (s *nodeSet) add(i int32)      { s[i>>6] |= 1 << (i & 63) }
func (s *nodeSet) has(i int32) bool { return s[i>>6]&(1<<(i&63)) != 0 }

func nodeOf(c, d int, on bool) int32 {
	id := int32(c*9+d-1) << 1
	if on {
		id |= 1
	}
	return id
}
func nodeCell(id int32) int    { return int(id>>1) / 9 }
func nodeDigit(id int32) int   { return int(id>>1)%9 + 1 }
func nodeOn(id int32) bool     { return id&1 == 1 }
func toNode(id int32) Node     { return Node{Candidate{nodeCell(id), nodeDigit(id)}, nodeOn(id)} }
func conjugate(id int32) int32 { return id ^ 1 }

// lengthBonus is Sudoku Explainer's length bonus in tenths: with length =
// complexity-2, 0.1 for each threshold 4, 6, 8, 12, 16, 24, 32, ... passed.
func lengthBonus(complexity int) int {
	length := complexity - 2
	added, ceil, odd := 0, 4, false
	for length > ceil {
		added++
		if !odd {
			ceil = ceil * 3 / 2
		} else {
			ceil = ceil * 4 / 3
		}
		odd = !odd
	}
	return added
}

func chainGrade(base float64, complexity int) float64 {
	return float64(int(base*10+0.5)+lengthBonus(complexity)) / 10
}

// chainer propagates one assumption (Sudoku Explainer's doChaining), static
// or dynamic (off nodes are taken out of the working candidates, so later
// singles count them, with the removed candidates as hidden parents).
type chainer struct {
	s        *solver
	src, cur [81]uint16
	// srcPos, pos: the places of each digit in each unit (board.pos) of
	// src and cur
	srcPos, pos [27][10]uint16
	// xsees: the geometry's peers when it has more than the classic ones
	// (extra houses, anti-knight...), nil on the classic geometry; xg the
	// geometry then, and xsrcPos, xpos the places of each digit in its
	// extra houses (house u at u-27), like srcPos and pos.
	xsees         *[81]cellSet
	xg            *geometry
	xsrcPos, xpos [maxHouses - 27][10]uint16
	xouts         []xout
	set           nodeSet
	parStart      [nNodes + 1]int32
	parN          [nNodes + 1]uint16
	pool          []int32
	qOn           []int32
	qOff          []int32
	y             bool // Y-links (cell links) too, not only X-links
	dynamic       bool
	plus          bool // also take eliminations of the simple rules (Dynamic+)
	// level is Sudoku Explainer's chaining level: 1 Dynamic+, 2 and up the
	// nested forcing chains (chains_nested.go) when the simple rules find
	// nothing.
	level int
	// nestOf: 1 + the index in nest of the nested chain that proved a node
	// (0: none); nest: the nested chains of this run (their complexity).
	nestOf  [nNodes + 1]int32
	nest    []nestRec
	extraID int32
	confOn  int32
	confOff int32
	vis     [nNodes + 1]uint32
	visGen  uint32
	stack   []int32
	par     []int32
}

func (ch *chainer) addNode(id int32, parents []int32) {
	ch.set.add(id)
	ch.nestOf[id] = 0
	ch.parStart[id] = int32(len(ch.pool))
	ch.parN[id] = uint16(len(parents))
	ch.pool = append(ch.pool, parents...)
}

func (ch *chainer) setExtra(id int32, parents []int32) {
	ch.extraID = id
	ch.parStart[extraSlot] = int32(len(ch.pool))
	ch.parN[extraSlot] = uint16(len(parents))
	ch.pool = append(ch.pool, parents...)
}

// run propagates start; it reports a contradiction (confOn and confOff then
// name the two nodes, one of them possibly extraSlot).
func (ch *chainer) run(start int32) bool {
	ch.cur = ch.src
	ch.pos = ch.srcPos
	if ch.xg != nil {
		ch.xpos = ch.xsrcPos
	}
	ch.set = nodeSet{}
	ch.pool = ch.pool[:0]
	ch.nest = ch.nest[:0]
	ch.qOn, ch.qOff = ch.qOn[:0], ch.qOff[:0]
	ch.addNode(start, nil)
	if nodeOn(start) {
		ch.qOn = append(ch.qOn, start)
	} else {
		ch.qOff = append(ch.qOff, start)
	}
	hOn, hOff := 0, 0
	work := 0
	defer func() { ch.s.spend(work) }()
	for {
		work++
		if hOn < len(ch.qOn) {
			p := ch.qOn[hOn]
			hOn++
			if ch.onToOff(p) {
				return true
			}
			continue
		}
		if hOff < len(ch.qOff) {
			p := ch.qOff[hOff]
			hOff++
			if ch.offToOn(p) {
				return true
			}
			continue
		}
		if ch.plus && ch.advanced() {
			continue
		}
		return false
	}
}

func (ch *chainer) onToOff(p int32) bool {
	c, d := nodeCell(p), nodeDigit(p)
	bit := uint16(1) << d
	par := [1]int32{p}
	if ch.y {
		for m := ch.cur[c] &^ bit; m != 0; m &= m - 1 {
			if ch.emitOff(nodeOf(c, bits.TrailingZeros16(m), false), par[:]) {
				return true
			}
		}
	}
	var seen cellSet
	for _, k := range [3]int{2, 0, 1} {
		u := cellUnit[c][k]
		for m := ch.pos[u][d] &^ (1 << cellIndex[c][k]); m != 0; m &= m - 1 {
			o := unitCells[u][bits.TrailingZeros16(m)]
			if !seen.has(o) {
				seen.add(o)
				if ch.emitOff(nodeOf(o, d, false), par[:]) {
					return true
				}
			}
		}
	}
	if ch.xsees != nil {
		// The extra houses and peers (diagonals, anti-knight, ...): d goes
		// from every other cell c sees, after the classic houses' cells.
		for w := range 2 {
			for m := ch.xsees[c][w]; m != 0; m &= m - 1 {
				o := w*64 + bits.TrailingZeros64(m)
				if ch.cur[o]&bit != 0 && !seen.has(o) {
					seen.add(o)
					if ch.emitOff(nodeOf(o, d, false), par[:]) {
						return true
					}
				}
			}
		}
	}
	return false
}

func (ch *chainer) emitOff(q int32, parents []int32) bool {
	if ch.set.has(conjugate(q)) {
		ch.setExtra(q, parents)
		ch.confOn, ch.confOff = conjugate(q), extraSlot
		return true
	}
	if !ch.set.has(q) {
		ch.addNode(q, parents)
		ch.qOff = append(ch.qOff, q)
	}
	return false
}

func (ch *chainer) emitOn(q int32, parents []int32) bool {
	if ch.set.has(conjugate(q)) {
		ch.setExtra(q, parents)
		ch.confOn, ch.confOff = extraSlot, conjugate(q)
		return true
	}
	if !ch.set.has(q) {
		ch.addNode(q, parents)
		ch.qOn = append(ch.qOn, q)
	}
	return false
}

func (ch *chainer) offToOn(p int32) bool {
	c, d := nodeCell(p), nodeDigit(p)
	bit := uint16(1) << d
	type found struct {
		q   int32
		par []int32
	}
	var outs [4]found
	n := 0
	ch.par = ch.par[:0]
	// known: q is in the run already and not contradicted, so emitting it
	// would do nothing (its parents are not worth gathering).
	known := func(q int32) bool { return ch.set.has(q) && !ch.set.has(conjugate(q)) }
	if ch.y && popcount(ch.cur[c]) == 2 && !known(nodeOf(c, firstDigit(ch.cur[c]&^bit), true)) {
		e := firstDigit(ch.cur[c] &^ bit)
		start := len(ch.par)
		ch.par = append(ch.par, p)
		for m := ch.src[c] &^ ch.cur[c]; m != 0; m &= m - 1 {
			ch.par = append(ch.par, nodeOf(c, bits.TrailingZeros16(m), false))
		}
		outs[n] = found{nodeOf(c, e, true), ch.par[start:]}
		n++
	}
	for _, k := range [3]int{2, 0, 1} {
		u := cellUnit[c][k]
		m := ch.pos[u][d] &^ (1 << cellIndex[c][k])
		if m == 0 || m&(m-1) != 0 {
			continue // not the last other place of d in u
		}
		other := unitCells[u][bits.TrailingZeros16(m)]
		if known(nodeOf(other, d, true)) {
			continue
		}
		start := len(ch.par)
		ch.par = append(ch.par, p)
		for _, o := range unitCells[u] {
			if ch.src[o]&bit != 0 && ch.cur[o]&bit == 0 {
				ch.par = append(ch.par, nodeOf(o, d, false))
			}
		}
		outs[n] = found{nodeOf(other, d, true), ch.par[start:]}
		n++
	}
	if ch.xg != nil {
		ch.extraSingles(p, c, d)
	}
	if ch.dynamic {
		ch.cur[c] &^= bit
		for k := 0; k < 3; k++ {
			ch.pos[cellUnit[c][k]][d] &^= 1 << cellIndex[c][k]
		}
		if ch.xg != nil {
			for _, h := range ch.xg.extra[c] {
				ch.xpos[h.u-27][d] &^= 1 << h.j
			}
		}
	}
	for i := range n {
		if ch.emitOn(outs[i].q, outs[i].par) {
			return true
		}
	}
	if ch.xg != nil {
		for _, o := range ch.xouts {
			if ch.emitOn(o.q, ch.par[o.from:o.to]) {
				return true
			}
		}
	}
	return false
}

// xout is an on node the extra houses give (extraSingles): its parents are
// ch.par[from:to].
type xout struct {
	q        int32
	from, to int
}

// extraSingles is offToOn's hidden single in the extra houses (a
// diagonal, a window, ...) of off node p (cell c, digit d): the last other
// place of d in such a house is on. It fills ch.xouts, which offToOn emits
// after the classic houses' nodes.
func (ch *chainer) extraSingles(p int32, c, d int) {
	g := ch.xg
	bit := uint16(1) << d
	ch.xouts = ch.xouts[:0]
	for _, h := range g.extra[c] {
		m := ch.xpos[h.u-27][d] &^ (1 << h.j)
		if m == 0 || m&(m-1) != 0 {
			continue
		}
		q := nodeOf(g.cells[h.u][bits.TrailingZeros16(m)], d, true)
		if ch.set.has(q) && !ch.set.has(conjugate(q)) {
			continue // known already
		}
		start := len(ch.par)
		ch.par = append(ch.par, p)
		for _, o := range g.cells[h.u] {
			if ch.src[o]&bit != 0 && ch.cur[o]&bit == 0 {
				ch.par = append(ch.par, nodeOf(o, d, false))
			}
		}
		ch.xouts = append(ch.xouts, xout{q, start, len(ch.par)})
	}
}

// advanced (Dynamic+) applies the first simple rule (pointing/claiming,
// hidden pair, naked pair, X-Wing) that works on the working candidates
// only because of the assumption; its eliminations become off nodes whose
// parents are the removed candidates the rule rests on.
func (ch *chainer) advanced() bool {
	sub := ch.nestedSub()
	found, added := ch.simpleRules(sub)
	if found || ch.level < 2 {
		return added
	}
	return ch.nested(ch.nestedSub()) // sub lost the patterns' eliminations
}

// simpleRules is advanced's level 1: every pattern of the first simple
// rule that finds one resting on the assumption (found), its eliminations
// added as off nodes (added). Each pattern's eliminations are taken off sub
// to find the next.
func (ch *chainer) simpleRules(sub *solver) (found, added bool) {
	rules := []func() (Step, bool){
		func() (Step, bool) { return sub.locking(false) },
		func() (Step, bool) { return sub.hiddenSet(2, false) },
		func() (Step, bool) { return sub.nakedSet(2) },
		func() (Step, bool) { return sub.fish(2) },
	}
	for _, r := range rules {
		for range 81 {
			st, ok := r()
			if !ok {
				break
			}
			if ch.patternParents(st) {
				found = true
				added = ch.addRuleNodes(st) || added
			}
			for _, e := range st.Eliminations {
				sub.b.cand[e.Cell] &^= 1 << e.Digit
			}
			sub.refresh()
		}
		if found {
			return found, added
		}
	}
	return false, false
}

// patternParents sets ch.par to the candidates the assumption removed that
// the pattern needs gone, as Sudoku Explainer's getRuleParents counts them,
// and reports whether there are any:
//   - pointing and claiming: the digit's places in the first unit outside
//     the second (the digit is confined to the crossing because they went);
//   - an X-Wing: the digit's places in the base lines outside the covers;
//   - a hidden set: the set's digits in the unit's cells outside the set;
//   - a naked set: the other digits of the set's cells.
//
// simpleRules finds each pattern after taking the previous patterns'
// eliminations off, so a pattern can rest on them; Explainer finds every
// pattern on the chain's own candidates, so one that does not hold on
// those (ch.cur) is not taken.
func (ch *chainer) patternParents(st Step) bool {
	ch.par = ch.par[:0]
	holds := true
	add := func(c, d int) {
		if ch.cur[c]&(1<<d) != 0 {
			holds = false
		} else if id := nodeOf(c, d, false); ch.src[c]&(1<<d) != 0 && ch.set.has(id) {
			ch.par = append(ch.par, id)
		}
	}
	var dm uint16
	for _, d := range st.Digits {
		dm |= 1 << d
	}
	unitSet, unitCells := &ch.s.b.g.set, &ch.s.b.g.cells // a variant's pointing may name an extra house
	switch st.Technique {
	case Pointing, Claiming, XWing:
		n := max(len(st.Units)/2, 1) // base units, then as many covers
		var cover cellSet
		for _, u := range st.Units[n:] {
			cover[0] |= unitSet[u][0]
			cover[1] |= unitSet[u][1]
		}
		for _, u := range st.Units[:n] {
			for _, c := range unitCells[u] {
				if !cover.has(c) {
					add(c, st.Digits[0])
				}
			}
		}
	case HiddenPair:
		for _, c := range unitCells[st.Units[0]] {
			if !slices.Contains(st.Cells, c) {
				for _, d := range st.Digits {
					add(c, d)
				}
			}
		}
	case NakedPair:
		for _, c := range st.Cells {
			for m := ch.src[c] &^ dm; m != 0; m &= m - 1 {
				add(c, bits.TrailingZeros16(m))
			}
		}
	}
	return holds && len(ch.par) > 0
}

// addRuleNodes adds the eliminations of a pattern (parents ch.par) as off
// nodes, and reports whether any was new.
func (ch *chainer) addRuleNodes(st Step) bool {
	added := false
	for _, e := range st.Eliminations {
		q := nodeOf(e.Cell, e.Digit, false)
		if ch.set.has(conjugate(q)) || ch.set.has(q) {
			continue
		}
		ch.addNode(q, slices.Clone(ch.par))
		ch.qOff = append(ch.qOff, q)
		added = true
	}
	return added
}

// nestKey tells nested chains apart across runs, as Explainer's FullChain
// does (the same kind, assumption, conclusion and length).
type nestKey struct {
	kind              chainMode
	assumption, proof int32
	cx                int32
}

// anc counts the distinct nodes id rests on, itself included, plus the
// complexity of each nested chain they rest on that keys does not hold yet
// (adding it). A hint's complexity is the sum of anc over its conclusions
// with one keys (Explainer's ChainingHint.getComplexity: every target's
// flat complexity, and the nested complexity of the whole hint, where a
// nested chain met on several targets counts once).
func (ch *chainer) anc(id int32, keys *[]nestKey) int {
	ch.visGen++
	ch.stack = append(ch.stack[:0], id)
	ch.vis[id] = ch.visGen
	n := 0
	for len(ch.stack) > 0 {
		x := ch.stack[len(ch.stack)-1]
		ch.stack = ch.stack[:len(ch.stack)-1]
		n++
		if x < extraSlot && ch.nestOf[x] != 0 {
			r := &ch.nest[ch.nestOf[x]-1]
			if k := (nestKey{r.kind, r.assumption, r.proof, r.cx}); !slices.Contains(*keys, k) {
				*keys = append(*keys, k)
				n += int(r.cx)
			}
		}
		ps := ch.pool[ch.parStart[x] : ch.parStart[x]+int32(ch.parN[x])]
		for _, p := range ps {
			if ch.vis[p] != ch.visGen {
				ch.vis[p] = ch.visGen
				ch.stack = append(ch.stack, p)
			}
		}
	}
	return n
}

type chainPool struct {
	onRuns  [10]*chainer
	offRun  *chainer
	regRuns [9]*chainer
	u       unary
	starts  []int32   // the unary searches' start nodes, in order
	zstarts []int32   // every candidate's on node (the Y-cycle bound)
	bp      bitBFS    // forcingAll and staticClosures search state
	closure []nodeSet // staticClosures result
	hits    []forcingHit
	cyc     []int // cycleLengths' result
	order   []int // cycleLengths' start order
}

// chainPools keeps chain pools (large, fixed-size search state) between solves.
var chainPools = sync.Pool{New: func() any {
	p := &chainPool{offRun: &chainer{}}
	for i := range p.onRuns {
		p.onRuns[i] = &chainer{}
	}
	for i := range p.regRuns {
		p.regRuns[i] = &chainer{}
	}
	return p
}}

func (s *solver) pool() *chainPool {
	if s.ch == nil {
		p := chainPools.Get().(*chainPool)
		p.offRun.s = s
		for _, ch := range p.onRuns {
			ch.s = s
		}
		for _, ch := range p.regRuns {
			ch.s = s
		}
		s.ch = p
	}
	return s.ch
}

// release gives the chain pool back for the next solve.
func (s *solver) release() {
	if s.sub != nil {
		s.sub.release()
	}
	if s.ch != nil {
		chainPools.Put(s.ch)
		s.ch = nil
	}
}

// candidate hint of the chain searches, kept while looking for the easiest.
type chainHint struct {
	grade float64
	cx    int
	key   int
	ok    bool
	step  Step
	ord   int // place in the search order: the earlier hint wins a tie
}

func (h *chainHint) better(grade float64, cx, key, ord int) bool {
	if !h.ok {
		return true
	}
	if grade != h.grade {
		return grade < h.grade
	}
	if cx != h.cx {
		return cx < h.cx
	}
	if key != h.key {
		return key < h.key
	}
	return ord < h.ord
}

// targetStep builds the outcome of a chain proving node target.
func (s *solver) targetStep(target int32) (Step, bool) {
	c, d := nodeCell(target), nodeDigit(target)
	if nodeOn(target) {
		if s.b.cand[c]&^(1<<d) == 0 {
			return Step{}, false
		}
		return Step{Placements: []Candidate{{c, d}}}, true
	}
	if !s.b.has(c, d) {
		return Step{}, false
	}
	return Step{Eliminations: []Candidate{{c, d}}}, true
}
