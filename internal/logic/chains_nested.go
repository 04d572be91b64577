// Nested forcing chains (Sudoku Explainer's chaining levels 2 to 4): a
// dynamic forcing chain that, when its implications run dry and the simple
// rules of Dynamic+ find nothing, searches the board its assumption has
// made for a whole chain of a lower kind (forcing chains at level 2, cell
// and region forcing chains at level 3, dynamic forcing chains at level 4)
// and takes that chain's eliminations as implications of its own. An
// elimination counts only when the nested chain rests on a candidate the
// assumption removed (its parents); the nested chain's complexity is added,
// once, to the complexity of every conclusion that rests on it.

package logic

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// nestedNames are the techniques of levels 2, 3 and 4.
var nestedNames = [3]string{NestedForcingChain, NestedMultipleChain, NestedDynamicChain}

// nestRec is one nested chain of a run: its complexity, kind, assumption
// and conclusion.
type nestRec struct {
	cx                int32
	kind              chainMode // 0 (forcing chain), modeMultiple or modeDynamic
	assumption, proof int32     // its first node and the node it proves
}

// NestedChain is a nested chain a step rests on, as far as the explanation
// shows it: its kind, its assumption (made on the board the outer chain's
// assumption left) and what it proves, and its complexity.
type NestedChain struct {
	Kind       string `json:"kind"`
	Assumption Node   `json:"assumption"`
	Proves     Node   `json:"proves"`
	Length     int    `json:"length"`
}

// nestedKinds names the kinds of nested chains.
var nestedKinds = map[chainMode]string{0: "forcing chain", modeMultiple: "cell or region forcing chain", modeDynamic: "dynamic forcing chain"}

// nestedOf lists the nested chains met on the first-parent paths of runs[i]
// to ids[i] (one id for all runs when ids has one), each once.
func nestedOf(runs []*chainer, ids ...int32) []NestedChain {
	var out []NestedChain
	for i, ch := range runs {
		slot := ids[min(i, len(ids)-1)]
		for range nNodes { // a parent is always added before its child: no loop
			if slot != extraSlot && ch.nestOf[slot] != 0 {
				r := ch.nest[ch.nestOf[slot]-1]
				nc := NestedChain{nestedKinds[r.kind], toNode(r.assumption), toNode(r.proof), int(r.cx)}
				if !slices.Contains(out, nc) {
					out = append(out, nc)
				}
			}
			if ch.parN[slot] == 0 {
				break
			}
			slot = ch.pool[ch.parStart[slot]]
		}
	}
	return out
}

// nestedLimit bounds the nested forcing chains' length in nodes.
const nestedLimit = 40

// nestedSub readies the solver on which the simple rules and the nested
// chains of ch's assumption are searched: the working candidates as its board, the budget
// what the outer search has left.
func (ch *chainer) nestedSub() *solver {
	s := ch.s
	sub := s.sub
	if sub == nil {
		sub = &solver{}
		s.sub = sub
	}
	sub.b = board{cand: ch.cur, g: s.b.g}
	sub.fresh, sub.work, sub.strongOK = false, 0, 0
	for c := range 81 {
		if ch.cur[c] == 0 {
			sub.b.val[c] = 1 // placed or emptied: not a cell the rules look at
		}
	}
	sub.limit = max(s.limit-s.work, 1)
	sub.budget, sub.stop, sub.stopped = sub.limit, nil, false
	sub.since(&memo{})
	sub.refresh()
	return sub
}

// nested runs the nested chains of the chainer's level on its working
// candidates, in Sudoku Explainer's order (the first kind that gives
// anything ends the search), and adds their eliminations as off nodes.
func (ch *chainer) nested(sub *solver) bool {
	defer func() { ch.s.work += sub.work }()
	if ch.level < 4 {
		if ch.nestedUnary(sub) {
			return true
		}
		if ch.level < 3 {
			return false
		}
		return ch.nestedMulti(sub, modeMultiple)
	}
	return ch.nestedMulti(sub, modeDynamic)
}

// nestedHint is a chain the level-2 search found: its rating (Sudoku
// Explainer sorts a rule's hints by grade, complexity, then sort key),
// the node it proves, what it removes and its nodes.
type nestedHint struct {
	grade float64
	cx    int
	key   int
	proof int32
	elims []int32
	path  []Node
}

// nestedUnary takes the forcing chains of the working candidates as
// Explainer's level 2 does: every start's shortest, with X-links alone and
// with both kinds, the easiest first where two prove the same candidate.
// Explainer's level 2 also takes cycles; they are left out here: on the
// 304 rated puzzles of TestTopAgreement they changed no grade's agreement
// and cost a quarter to a half more time (docs/engine.md).
func (ch *chainer) nestedUnary(sub *solver) bool {
	p := sub.pool()
	sub.cacheStrong()
	us := &unarySearch{s: sub, p: p, u: &p.u, memo: -1}
	var hints []nestedHint
	for _, cfg := range unaryConfigs {
		us.configure(cfg[0], cfg[1])
		p.u.newLinks()
		us.collectStarts()
		if !us.x {
			continue // Y-links alone make cycles only
		}
		hints = ch.nestedForcing(us, hints)
		if sub.broke() {
			return false
		}
	}
	slices.SortStableFunc(hints, func(a, b nestedHint) int {
		if a.grade != b.grade {
			if a.grade < b.grade {
				return -1
			}
			return 1
		}
		if a.cx != b.cx {
			return a.cx - b.cx
		}
		return a.key - b.key
	})
	added := false
	for _, h := range hints {
		if ch.takeNestedElims(0, h.cx, h.proof, h.elims, [][]Node{h.path}) {
			added = true
		}
	}
	return added
}

// nestedForcing adds every start's shortest forcing chain of us's links
// that proves something not known yet.
func (ch *chainer) nestedForcing(us *unarySearch, hints []nestedHint) []nestedHint {
	sub, p := us.s, us.p
	found := append([]forcingHit(nil), sub.forcingEvery(p, p.starts, us.y, us.x, nestedLimit)...)
	for _, h := range found {
		if sub.broke() {
			break
		}
		if !ch.wants(conjugate(h.start)) {
			continue
		}
		t := sub.forcing(&p.u, h.start, us.y, nestedLimit)
		if t < 0 {
			continue
		}
		path := p.u.path(t)
		cx := distinct(path)
		proof := p.u.objs[t].id
		hints = append(hints, nestedHint{chainGrade(us.fcBase, cx), cx, us.key, proof, ch.elimsOf(proof), toNodes(path)})
	}
	return hints
}

func toNodes(path []int32) []Node {
	nodes := make([]Node, len(path))
	for i, id := range path {
		nodes[i] = toNode(id)
	}
	return nodes
}

// wants reports whether a nested chain proving t can add anything: t and
// what it removes are not known yet.
func (ch *chainer) wants(t int32) bool {
	if !nodeOn(t) {
		return !ch.set.has(t) && !ch.set.has(conjugate(t))
	}
	c, d := nodeCell(t), nodeDigit(t)
	for m := ch.cur[c] &^ (1 << d); m != 0; m &= m - 1 {
		if !ch.set.has(nodeOf(c, bits.TrailingZeros16(m), false)) {
			return true
		}
	}
	return false
}

// wantSet returns the nodes wants accepts now.
func (ch *chainer) wantSet() *nodeSet {
	var w nodeSet
	for c := range 81 {
		for m := ch.cur[c]; m != 0; m &= m - 1 {
			d := bits.TrailingZeros16(m)
			if off := nodeOf(c, d, false); !ch.set.has(off) && !ch.set.has(conjugate(off)) {
				w.add(off)
			}
			if ch.wants(nodeOf(c, d, true)) {
				w.add(nodeOf(c, d, true))
			}
		}
	}
	return &w
}

// nestedMulti takes the cell and region forcing chains of mode (static
// multiple, or dynamic) found on the working candidates.
func (ch *chainer) nestedMulti(sub *solver, mode chainMode) bool {
	m := sub.newMultiSearch(mode)
	m.want = ch.wants
	m.wantSet = ch.wantSet()
	added := false
	m.collect = func(cx int, st Step) {
		var t int32
		if len(st.Placements) > 0 {
			t = nodeOf(st.Placements[0].Cell, st.Placements[0].Digit, true)
		} else {
			t = nodeOf(st.Eliminations[0].Cell, st.Eliminations[0].Digit, false)
		}
		if ch.takeNested(mode, cx, t, st.paths) {
			added = true
		}
	}
	for c := range 81 {
		card := popcount(sub.b.cand[c])
		if card < 2 || (mode == modeMultiple && card < 3) {
			continue
		}
		if sub.broke() {
			break
		}
		m.cell(c, card)
	}
	return added
}

// elimsOf lists the off nodes a chain proving node t gives: t itself, or
// for an on node the cell's other working candidates.
func (ch *chainer) elimsOf(t int32) []int32 {
	var elim []int32
	c, d := nodeCell(t), nodeDigit(t)
	if nodeOn(t) {
		for m := ch.cur[c] &^ (1 << d); m != 0; m &= m - 1 {
			elim = append(elim, nodeOf(c, bits.TrailingZeros16(m), false))
		}
	} else if ch.cur[c]&(1<<d) != 0 {
		elim = append(elim, t)
	}
	return elim
}

// takeNested adds the eliminations of a nested chain of complexity cx
// proving node t, whose branches are paths, when it rests on candidates
// the assumption removed; it reports whether a node was added.
func (ch *chainer) takeNested(kind chainMode, cx int, t int32, paths [][]Node) bool {
	return ch.takeNestedElims(kind, cx, t, ch.elimsOf(t), paths)
}

// takeNestedElims is takeNested for a chain that removes elim.
func (ch *chainer) takeNestedElims(kind chainMode, cx int, t int32, elim []int32, paths [][]Node) bool {
	ch.par = ch.nestParents(ch.par[:0], paths)
	if len(ch.par) == 0 {
		return false // the chain holds without the assumption
	}
	rec := int32(0)
	for _, q := range elim {
		if ch.set.has(q) || ch.set.has(conjugate(q)) {
			continue
		}
		if rec == 0 {
			first := paths[0][0]
			ch.nest = append(ch.nest, nestRec{cx: int32(cx), kind: kind, assumption: nodeOf(first.Cell, first.Digit, first.On), proof: t})
			rec = int32(len(ch.nest))
		}
		ch.addNode(q, append([]int32(nil), ch.par...))
		ch.nestOf[q] = rec
		ch.qOff = append(ch.qOff, q)
	}
	return rec != 0
}

// nestParents lists the off nodes of the run a nested chain rests on: the
// candidates the assumption removed from the cell of each of its naked
// singles and from the unit of each of its hidden singles (Sudoku
// Explainer's rule parents).
func (ch *chainer) nestParents(out []int32, paths [][]Node) []int32 {
	var seen nodeSet
	add := func(c, d int) {
		if ch.src[c]&^ch.cur[c]&(1<<d) == 0 {
			return
		}
		id := nodeOf(c, d, false)
		if ch.set.has(id) && !seen.has(id) {
			seen.add(id)
			out = append(out, id)
		}
	}
	for _, path := range paths {
		for i := 1; i < len(path); i++ {
			a, b := path[i-1], path[i]
			if a.On || !b.On {
				continue
			}
			if a.Cell == b.Cell {
				for m := ch.src[a.Cell] &^ ch.cur[a.Cell]; m != 0; m &= m - 1 {
					add(a.Cell, bits.TrailingZeros16(m))
				}
				continue
			}
			for k := 0; k < 3; k++ {
				u := cellUnit[a.Cell][k]
				if cellUnit[b.Cell][k] != u {
					continue
				}
				for _, o := range unitCells[u] {
					add(o, b.Digit)
				}
			}
		}
	}
	return out
}

// chainSnap is a chainer's run kept for its start (multiSearch.run): what
// the search reads after a run, its nodes and parents in the solver's
// arena (for each node id, parStart and parN|nestOf<<16, then the pool).
type chainSnap struct {
	contradiction            bool
	set                      nodeSet
	at, nIDs, nPool          int32
	nestAt, nNest            int32
	extraID, confOn, confOff int32
}

// runMemo is a search's kept runs (chainSnap), reset for each search: the
// run from start is snaps[at[start]-1] while stamp[start] is gen.
type runMemo struct {
	at    [nNodes]int32
	stamp [nNodes]uint32
	gen   uint32
	snaps []chainSnap
	arena []int32
	nests []nestRec
}

func (r *runMemo) reset() {
	r.gen++
	if r.gen == 0 { // wrapped: no stamp may match by chance
		r.stamp = [nNodes]uint32{}
		r.gen = 1
	}
	r.snaps, r.arena, r.nests = r.snaps[:0], r.arena[:0], r.nests[:0]
}

// run runs ch from start, or at the nested levels (whose runs are costly)
// loads the run kept from an earlier run from the same start.
func (m *multiSearch) run(ch *chainer, start int32) bool {
	if m.mode < modeNested2 && m.collect == nil {
		return ch.run(start)
	}
	r := &m.s.runs
	if r.stamp[start] == r.gen {
		sn := &r.snaps[r.at[start]-1]
		ch.load(r, sn)
		return sn.contradiction
	}
	ok := ch.run(start)
	r.snaps = append(r.snaps, ch.save(r, ok))
	r.at[start], r.stamp[start] = int32(len(r.snaps)), r.gen
	return ok
}

// save keeps ch's run in r.
func (ch *chainer) save(r *runMemo, contradiction bool) chainSnap {
	sn := chainSnap{contradiction: contradiction, set: ch.set, extraID: ch.extraID,
		confOn: ch.confOn, confOff: ch.confOff, at: int32(len(r.arena)), nestAt: int32(len(r.nests))}
	keep := func(id int32) {
		r.arena = append(r.arena, id, ch.parStart[id], int32(ch.parN[id])|ch.nestOf[id]<<16)
		sn.nIDs++
	}
	for w := range ch.set {
		for m := ch.set[w]; m != 0; m &= m - 1 {
			keep(int32(w*64 + bits.TrailingZeros64(m)))
		}
	}
	ch.nestOf[extraSlot] = 0
	keep(extraSlot)
	r.arena = append(r.arena, ch.pool...)
	sn.nPool = int32(len(ch.pool))
	r.nests = append(r.nests, ch.nest...)
	sn.nNest = int32(len(ch.nest))
	return sn
}

// load puts a kept run back in ch.
func (ch *chainer) load(r *runMemo, sn *chainSnap) {
	ch.set, ch.extraID, ch.confOn, ch.confOff = sn.set, sn.extraID, sn.confOn, sn.confOff
	a := r.arena[sn.at:]
	for i := range int(sn.nIDs) {
		id, v := a[3*i], a[3*i+2]
		ch.parStart[id], ch.parN[id], ch.nestOf[id] = a[3*i+1], uint16(v&0xffff), v>>16
	}
	ch.pool = append(ch.pool[:0], a[3*sn.nIDs:3*sn.nIDs+sn.nPool]...)
	ch.nest = append(ch.nest[:0], r.nests[sn.nestAt:sn.nestAt+sn.nNest]...)
}

// renderNested is the sentence of a nested forcing chain: the outer
// chain's reasoning, where its contradiction appears, and the first nested
// chains it rests on (their kind, assumption and conclusion), not every
// node.
func renderNested(s Step, why string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s", s.Technique, why)
	src := s.Chain[0]
	if dst := s.Chain[len(s.Chain)-1]; dst.Candidate == src.Candidate && len(s.paths) == 2 && len(s.paths[0]) > 0 {
		at := s.paths[0][len(s.paths[0])-1]
		fmt.Fprintf(&b, " (it would make %s=%d both true and false)", cellName(at.Cell), at.Digit)
	}
	fmt.Fprintf(&b, ", %d nodes in all, so %s.", s.Length, s.outcome())
	if len(s.Nested) == 0 {
		return b.String()
	}
	b.WriteString(" Nested one level deep, on the board the assumption leaves: ")
	for i, nc := range s.Nested[:min(2, len(s.Nested))] {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "a %s from %s proves %s (%d nodes)", nc.Kind, nodeName(nc.Assumption), nodeName(nc.Proves), nc.Length)
	}
	if k := len(s.Nested) - 2; k > 0 {
		fmt.Fprintf(&b, "; and %d more", k)
	}
	b.WriteString(".")
	return b.String()
}
