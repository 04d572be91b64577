package logic

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"
)

// Strong-linked patterns of one digit: Sukaku Explainer's "Scraper, Kite,
// Turbot" (StrongLinks(2)) and its 3 and 4 "Strong-linked Fishes", the
// rungs of n = 2, 3 and 4 links.
//
// A strong link is a unit whose places for the digit fall in two nodes, one
// of which holds it: two cells, or (a grouped link) two groups of cells,
// each in one box and one line: a row or column whose places lie in two
// boxes, or a box whose places lie in the row and column through one cell
// (its heart) and not only in one of them (an empty rectangle; the heart,
// when it holds the digit, goes with one side or the other). A box whose
// two places share a line is left to that line.
//
// n links are chained, each link's far node seeing the next one's near
// node through one unit (the shared unit: a column, else a row, else a box,
// as Explainer looks for it); the units' places are disjoint. Then one of
// the two end nodes holds the digit, so it goes from every cell seeing both
// ends, outside the links' units and the shared ones. When the two ends
// see each other too the chain closes a loop, and the digit also goes from
// every cell seeing both nodes of any of the shared units (outside the
// links' units).
//
// Explainer's grade: a base of 4.0, 5.4 or 5.8 for 2, 3 or 4 links, 0.3
// more with a grouped link, else 0.1 more with a box link or with both rows
// and columns among the links, 0.2 with both. Of all the patterns the step
// is the easiest, then the one removing most, then the first by Explainer's
// "suffix" (the links' kinds), as Explainer sorts them.

// strongLink is a unit holding a digit in two nodes, a and b.
type strongLink struct {
	unit    int
	a, b    cellSet
	all     cellSet // the unit's places for the digit
	grouped bool
	at      [2][3]int  // the row, column and box of each node, -1 where it spans several
	see     [2]cellSet // the cells seeing every cell of each node
}

// place fills l.at from its nodes.
func (l *strongLink) place() {
	for i, g := range []cellSet{l.a, l.b} {
		first := bits.TrailingZeros64(g[0])
		if g[0] == 0 {
			first = 64 + bits.TrailingZeros64(g[1])
		}
		for k := range 3 {
			l.at[i][k] = -1
			if u := cellUnit[first][k]; unitSet[u].and(g) == g {
				l.at[i][k] = u
			}
		}
		l.see[i] = seenByAll(g)
	}
}

// joins is the unit node x of link l shares with node y of link m,
// Explainer's way: the column, else the row, else the box; -1 when none.
func joins(l *strongLink, x int, m *strongLink, y int) int {
	for _, k := range []int{1, 0, 2} {
		if u := l.at[x][k]; u >= 0 && u == m.at[y][k] {
			return u
		}
	}
	return -1
}

// linkBase is Explainer's base grade of n strong links.
var linkBase = [5]float64{2: 4.0, 3: 5.4, 4: 5.8}

// linkNames names the techniques of each rung.
var linkNames = [5]struct{ plain, grouped string }{
	2: {TurbotFish, GroupedTurbot},
	3: {ThreeStrongLinks, ThreeStrongLinks},
	4: {FourStrongLinks, FourStrongLinks},
}

// strongLinksOf lists the strong links of d.
func (s *solver) strongLinksOf(d int) []strongLink {
	var links []strongLink
	for u := range 27 {
		pos := s.b.positions(u, d)
		k := popcount(pos)
		if k < 2 || k > 6 {
			continue
		}
		all := unitSet[u].and(s.dcells[d])
		if k == 2 {
			a := unitCells[u][bits.TrailingZeros16(pos)]
			c := unitCells[u][bits.TrailingZeros16(pos&(pos-1))]
			if u >= 18 && (a/9 == c/9 || a%9 == c%9) {
				continue
			}
			var sa, sc cellSet
			sa.add(a)
			sc.add(c)
			links = append(links, strongLink{unit: u, a: sa, b: sc, all: all})
			continue
		}
		if u < 18 {
			links = appendLineGroups(links, u, all)
		} else {
			links = appendRectangle(links, u, all)
		}
	}
	for i := range links {
		links[i].place()
	}
	return links
}

// appendLineGroups adds the grouped link of a line whose places lie in two
// boxes.
func appendLineGroups(links []strongLink, u int, all cellSet) []strongLink {
	var groups []cellSet
	for i := 18; i < 27; i++ {
		if g := all.and(unitSet[i]); !g.empty() {
			groups = append(groups, g)
		}
	}
	if len(groups) == 2 {
		links = append(links, strongLink{unit: u, a: groups[0], b: groups[1], all: all, grouped: true})
	}
	return links
}

// appendRectangle adds the grouped links of a box whose places lie in the
// row and column through its first possible heart (an empty rectangle).
func appendRectangle(links []strongLink, u int, all cellSet) []strongLink {
	for _, h := range unitCells[u] {
		row, col := unitSet[cellUnit[h][0]], unitSet[cellUnit[h][1]]
		cross := cellSet{row[0] | col[0], row[1] | col[1]}
		if all.and(cross) != all {
			continue
		}
		var heart cellSet
		heart.add(h)
		r := all.and(row).and(cellSet{^heart[0], ^heart[1]})
		c := all.and(col).and(cellSet{^heart[0], ^heart[1]})
		if r.empty() || c.empty() {
			return links // Explainer stops at the first heart
		}
		if !all.has(h) {
			return append(links, strongLink{unit: u, a: r, b: c, all: all, grouped: true})
		}
		rh := cellSet{r[0] | heart[0], r[1] | heart[1]}
		ch := cellSet{c[0] | heart[0], c[1] | heart[1]}
		return append(links, strongLink{unit: u, a: rh, b: c, all: all, grouped: true}, strongLink{unit: u, a: r, b: ch, all: all, grouped: true})
	}
	return links
}

// seenByAll is the set of cells seeing every cell of g.
func seenByAll(g cellSet) cellSet {
	out := cellSet{^uint64(0), ^uint64(0)}
	g.each(func(c int) { out = out.and(sees[c]) })
	return out
}

// linkStep is a pattern found, with what orders it.
type linkStep struct {
	st     Step
	n      int // eliminations
	suffix string
}

// before reports whether t comes before u in Explainer's order.
func (t linkStep) before(u *linkStep) bool {
	switch {
	case u == nil:
		return true
	case t.st.Grade != u.st.Grade:
		return t.st.Grade < u.st.Grade
	case t.n != u.n:
		return t.n > u.n
	}
	return t.suffix < u.suffix
}

// linkChain is the search state of one digit's chains of n links.
type linkChain struct {
	s     *solver
	d, n  int
	links []strongLink
	pick  []int     // the links, in chain order
	side  []int     // each link's near node: 0 a, 1 b
	near  []cellSet // each link's near node (the first link's: the start)
	far   []cellSet
	share []int // the shared units between consecutive links
	used  cellSet
	best  *linkStep
	// next lists, for each link's node (2i+side), the nodes of other links
	// it joins and the unit they share.
	next [][]linkJoin
}

// linkJoin is a node of link j (side p) joined through unit u.
type linkJoin struct{ j, p, u int }

// strongDigit is a digit's links and their joins, kept for one board
// generation (the three rungs share them).
type strongDigit struct {
	gen   uint64
	links []strongLink
	next  [][]linkJoin
}

// linksFor returns d's links and joins on the current board.
func (s *solver) linksFor(d int) *strongDigit {
	sd := &s.strongs[d]
	if sd.gen == s.gen && s.gen != 0 {
		return sd
	}
	sd.gen = s.gen
	sd.links = s.strongLinksOf(d)
	sd.next = joinAll(sd.links, sd.next)
	return sd
}

// joinAll lists, for each node of the links (2i+side), the nodes of other
// links it joins and the unit they share, the column before the row before
// the box (joins), through the nodes lying in each unit.
func joinAll(links []strongLink, next [][]linkJoin) [][]linkJoin {
	// A unit holds nodes of at most 17 links (9 crossing lines, 3 boxes or
	// lines, its own), so 40 places are enough.
	var in [27][40]int32
	var nin [27]int
	for i := range links {
		for x := range 2 {
			for k := range 3 {
				if u := links[i].at[x][k]; u >= 0 {
					in[u][nin[u]] = int32(2*i + x)
					nin[u]++
				}
			}
		}
	}
	next = slices.Grow(next[:0], 2*len(links))[:2*len(links)]
	for nx := range next {
		next[nx] = next[nx][:0]
		i, x := nx/2, nx%2
		for _, k := range []int{1, 0, 2} {
			u := links[i].at[x][k]
			if u < 0 {
				continue
			}
			for _, ny := range in[u][:nin[u]] {
				j, p := int(ny)/2, int(ny)%2
				if j != i && joins(&links[i], x, &links[j], p) == u {
					next[nx] = append(next[nx], linkJoin{j, p, u})
				}
			}
		}
	}
	return next
}

// strongLinks finds the easiest pattern of n strong links (see above).
func (s *solver) strongLinks(n int) (Step, bool) {
	var best *linkStep
	for d := 1; d <= 9; d++ {
		if !s.changedDigit(d) {
			continue // only d's candidates matter
		}
		sd := s.linksFor(d)
		if len(sd.links) < n {
			continue
		}
		ch := linkChain{s: s, d: d, n: n, links: sd.links, next: sd.next, best: best}
		for i := range ch.links {
			for o := range 2 {
				ch.extend(i, o, -1)
			}
		}
		best = ch.best
	}
	if best == nil {
		return Step{}, false
	}
	return best.st, true
}

// extend puts link i (its node o near) next on the chain, joined to the
// chain's last link by unit u, and goes on.
func (ch *linkChain) extend(i, o, u int) {
	l := &ch.links[i]
	if !l.all.and(ch.used).empty() || ch.s.spend(1) {
		return
	}
	near, far := l.a, l.b
	if o == 1 {
		near, far = far, near
	}
	if u >= 0 {
		ch.share = append(ch.share, u)
	}
	ch.pick, ch.side = append(ch.pick, i), append(ch.side, o)
	ch.near, ch.far = append(ch.near, near), append(ch.far, far)
	saved := ch.used
	ch.used = cellSet{saved[0] | l.all[0], saved[1] | l.all[1]}
	if len(ch.pick) == ch.n {
		ch.found()
	} else {
		last := len(ch.pick) == ch.n-1
		for _, nx := range ch.next[2*i+1-o] {
			if !last || nx.j > ch.pick[0] { // a chain and its reverse: taken once
				ch.extend(nx.j, nx.p, nx.u)
			}
		}
	}
	ch.used = saved
	k := len(ch.pick) - 1
	ch.pick, ch.side, ch.near, ch.far = ch.pick[:k], ch.side[:k], ch.near[:k], ch.far[:k]
	if u >= 0 {
		ch.share = ch.share[:len(ch.share)-1]
	}
}

// found makes the step of a whole chain, keeping it when it comes first.
func (ch *linkChain) found() {
	first, last := &ch.links[ch.pick[0]], &ch.links[ch.pick[ch.n-1]]
	ring := joins(first, ch.side[0], last, 1-ch.side[ch.n-1]) >= 0
	if ring && !ch.firstOfLoop() {
		return
	}
	outside := cellSet{^uint64(0), ^uint64(0)}
	for _, i := range ch.pick {
		u := unitSet[ch.links[i].unit]
		outside = cellSet{outside[0] &^ u[0], outside[1] &^ u[1]}
	}
	victims := first.see[ch.side[0]].and(last.see[1-ch.side[ch.n-1]])
	if ring {
		for k := range ch.n - 1 {
			a, b := &ch.links[ch.pick[k]], &ch.links[ch.pick[k+1]]
			v := a.see[1-ch.side[k]].and(b.see[ch.side[k+1]])
			victims = cellSet{victims[0] | v[0], victims[1] | v[1]}
		}
	} else {
		for _, u := range ch.share {
			outside = cellSet{outside[0] &^ unitSet[u][0], outside[1] &^ unitSet[u][1]}
		}
	}
	victims = victims.and(outside).and(ch.s.dcells[ch.d])
	if victims.empty() {
		return
	}
	var elim []Candidate
	victims.each(func(c int) { elim = append(elim, Candidate{c, ch.d}) })
	t := ch.step(elim)
	if t.before(ch.best) {
		ch.best = &t
	}
}

// firstOfLoop takes a loop once: from its lowest link (the chain's first
// link is below its last already).
func (ch *linkChain) firstOfLoop() bool {
	return ch.pick[0] == slices.Min(ch.pick)
}

// step writes the chain as a step, graded and named.
func (ch *linkChain) step(elim []Candidate) linkStep {
	kinds := make([]int, ch.n)
	grouped := 0
	var cells []int
	var units []int
	var chain []Node
	for k, i := range ch.pick {
		l := ch.links[i]
		kinds[k] = [3]int{1, 2, 0}[l.unit/9] // Explainer's numbers: box 0, row 1, column 2
		if l.grouped {
			grouped++
		}
		units = append(units, l.unit)
		for x, g := range []cellSet{ch.near[k], ch.far[k]} {
			g.each(func(c int) {
				cells = append(cells, c)
				chain = append(chain, Node{Candidate{c, ch.d}, x == 1})
			})
		}
	}
	units = append(units, ch.share...)
	slices.Sort(cells)
	suffix := fmt.Sprint(grouped) + lineName(kinds)
	grade := linkGrade(ch.n, grouped > 0, suffix[1:])
	name := linkNames[ch.n].plain
	switch {
	case grouped > 0:
		name = linkNames[ch.n].grouped
	case ch.n == 2 && !strings.ContainsAny(suffix[1:], "02"):
		name = Skyscraper
	case ch.n == 2 && !strings.Contains(suffix[1:], "0"):
		name = TwoStringKite
	}
	st := Step{Technique: name, Grade: grade, Cells: cells, Eliminations: elim, Units: units, Digits: []int{ch.d}, Chain: chain}
	return linkStep{st, len(elim), suffix}
}

// linkGrade is Explainer's grade of n links (StrongLinksHint.getDifficulty).
func linkGrade(n int, grouped bool, kinds string) float64 {
	g := linkBase[n]
	switch {
	case grouped:
		g += 0.3
	case strings.Contains(kinds, "0") && strings.Contains(kinds, "2"):
		g += 0.2
	case strings.ContainsAny(kinds, "02"):
		g += 0.1
	}
	return fromTenths(tenths(g))
}

// lineName writes the links' kinds as Explainer's suffix does: the
// lexically smaller of the sequence and its reverse, rows and columns
// renamed so that a single kind of line reads 1 and the smallest reading
// is kept (StrongLinksHint.getSuffix, rLineName).
func lineName(kinds []int) string {
	set := slices.Clone(kinds)
	fwd, rev := "", ""
	for i := range set {
		fwd += fmt.Sprint(set[i])
		rev += fmt.Sprint(set[len(set)-1-i])
	}
	if fwd > rev {
		slices.Reverse(set)
	}
	var orig, lines, curSwap strings.Builder
	one := false
	for _, k := range set {
		orig.WriteString(fmt.Sprint(k))
		switch k {
		case 1:
			one = true
			curSwap.WriteString("2")
			lines.WriteString("1")
		case 2:
			curSwap.WriteString("1")
			lines.WriteString("1")
		default:
			curSwap.WriteString(fmt.Sprint(k))
			lines.WriteString(fmt.Sprint(k))
		}
	}
	if !one {
		return lines.String()
	}
	cur := curSwap.String()
	rs := []rune(cur)
	slices.Reverse(rs)
	rsw := string(rs)
	if rsw > cur {
		rsw = cur
	}
	if o := orig.String(); o <= rsw {
		return o
	}
	return rsw
}

// renderLinks: the chain holds each link's near node's cells (off), then
// its far node's (on), link by link.
func renderLinks(s Step) string {
	d := s.Digits[0]
	var nodes [][]int
	for i, n := range s.Chain {
		if i == 0 || n.On != s.Chain[i-1].On {
			nodes = append(nodes, nil)
		}
		nodes[len(nodes)-1] = append(nodes[len(nodes)-1], n.Cell)
	}
	name := func(g []int) string {
		if len(g) == 1 {
			return cellName(g[0])
		}
		return "(" + cellList(g) + ")"
	}
	n := len(nodes) / 2
	var parts, joins []string
	for k := range n {
		parts = append(parts, fmt.Sprintf("%s holds %d only in %s or %s", unitName(s.Units[k]), d, name(nodes[2*k]), name(nodes[2*k+1])))
	}
	for k := range n - 1 {
		joins = append(joins, fmt.Sprintf("%s and %s share %s", name(nodes[2*k+1]), name(nodes[2*k+2]), unitName(s.Units[n+k])))
	}
	return fmt.Sprintf("%s: %s; %s, so %s or %s holds %d, so %s.", s.Technique, strings.Join(parts, ", "), strings.Join(joins, ", "),
		name(nodes[0]), name(nodes[len(nodes)-1]), d, s.outcome())
}
