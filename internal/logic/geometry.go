package logic

import "fmt"

// A geometry is what the solver knows of a puzzle's rules: its houses
// (groups of nine cells holding 1-9 once each) and each cell's peers (the
// cells that must differ from it). The board carries one; the classic
// geometry (rows, columns, boxes) is the default, and the variant ones
// (variantgeo.go) add extra houses (diagonals, windows, ...), replace the
// boxes by jigsaw regions, or add peers (anti-knight, anti-king).
//
// A house's number means the same house in every geometry, so a step's
// Units name it without the geometry: 0-8 rows, 9-17 columns, 18-26 the
// boxes (a jigsaw's regions in their place), then each fixed extra region
// under its own number (houseDiagMinus...). The solver's per-house tables
// are indexed by those numbers, maxHouses long.
type geometry struct {
	cells  [maxHouses][9]int          // the cells of each house
	set    [maxHouses]cellSet         // the same as sets
	unit   [81][3]int                 // a cell's row, column and box (or region)
	index  [81][3]int                 // its position in each of them
	extra  [81][]houseAt              // the extra houses holding a cell
	extras []int                      // the extra houses present, in number order
	peers  [81][]int                  // the cells that must differ from each cell
	sees   [81]cellSet                // the same as sets
	cross  [maxHouses][maxHouses]bool // the houses share a cell (and differ)
	// classic: rows, columns and boxes, nothing else: every rung of the
	// ladder runs, uniqueness included.
	classic bool
	// boxes: houses 18-26 are the boxes, so the classic houses and peers
	// are all true of the puzzle: the rungs still written over the classic
	// tables (boxGeo rungs) reason soundly on it, with fewer houses and peers
	// than its rules give (they find less, never a wrong step).
	boxes bool
	// variant: extra houses or extra peers (anti-knight, anti-king):
	// Sukaku Explainer's variant mode, whose generalised rungs
	// (generalized.go) take the place of some classic ones. Never true of
	// the classic geometry or of a jigsaw.
	variant bool
}

// houseAt is a cell's place in an extra house: the house and the cell's
// position in it.
type houseAt struct{ u, j int }

// The numbers of the fixed extra regions (package variant's shapes, which
// are Sukaku Explainer's).
const (
	houseDiagMinus = 27 // r1c1 to r9c9
	houseDiagPlus  = 28 // r9c1 to r1c9
	houseWindow    = 29 // 29-37: windoku's nine groups (the four windows and the five they imply)
	houseDisjoint  = 38 // 38-46: the nine disjoint groups
	houseAsterisk  = 47 // the asterisk
	houseCentreDot = 48 // the centre dot
	houseGirandola = 49 // the girandola
	maxHouses      = 50 // every house number is below
	allHouses      = 1<<maxHouses - 1
)

// classicGeo is the classic geometry, the package tables' (board.go init).
var classicGeo *geometry

// newGeometry builds a geometry from its 27 primary houses (rows, columns,
// boxes or regions, in unit order), its extra houses by number, and the
// extra peers of each cell (anti-knight, anti-king). A cell's peers are
// listed row, column, box, then extra houses, then the extra peers, each
// once: for the classic houses the order of the package's peers table,
// which the wings' search order (and so the path) depends on.
func newGeometry(primary [27][9]int, extras map[int][9]int, near [81][]int) *geometry {
	g := &geometry{}
	for u := range 27 {
		g.cells[u] = primary[u]
		for j, c := range primary[u] {
			g.unit[c][u/9] = u
			g.index[c][u/9] = j
		}
	}
	for u := 27; u < maxHouses; u++ {
		cs, ok := extras[u]
		if !ok {
			continue
		}
		g.extras = append(g.extras, u)
		g.cells[u] = cs
		for j, c := range cs {
			g.extra[c] = append(g.extra[c], houseAt{u, j})
		}
	}
	for _, u := range g.houses() {
		for _, c := range g.cells[u] {
			g.set[u].add(c)
		}
	}
	for _, u := range g.houses() {
		for _, v := range g.houses() {
			g.cross[u][v] = u != v && !g.set[u].and(g.set[v]).empty()
		}
	}
	for c := range 81 {
		add := func(p int) {
			if p != c && !g.sees[c].has(p) {
				g.sees[c].add(p)
				g.peers[c] = append(g.peers[c], p)
			}
		}
		for k := range 3 {
			for _, p := range g.cells[g.unit[c][k]] {
				add(p)
			}
		}
		for _, h := range g.extra[c] {
			for _, p := range g.cells[h.u] {
				add(p)
			}
		}
		for _, p := range near[c] {
			add(p)
		}
	}
	for c := range 81 {
		g.variant = g.variant || len(near[c]) > 0
	}
	g.variant = g.variant || len(g.extras) > 0
	g.boxes = [9][9]int(g.cells[18:27]) == [9][9]int(unitCells[18:27])
	g.classic = g.boxes && len(g.extras) == 0 && g.sees == sees
	return g
}

// houses lists the geometry's house numbers: the 27 primary, then the
// extras.
func (g *geometry) houses() []int {
	hs := make([]int, 27, 27+len(g.extras))
	for u := range hs {
		hs[u] = u
	}
	return append(hs, g.extras...)
}

// extraName names an extra house as a step's sentence writes it.
func extraName(u int) string {
	switch {
	case u == houseDiagMinus:
		return "the diagonal r1c1-r9c9"
	case u == houseDiagPlus:
		return "the diagonal r9c1-r1c9"
	case u >= houseWindow && u < houseWindow+9:
		if k := u - houseWindow; k >= 1 && k <= 4 {
			return fmt.Sprintf("window %d", k)
		}
		return fmt.Sprintf("the window group %d", u-houseWindow)
	case u >= houseDisjoint && u < houseDisjoint+9:
		return fmt.Sprintf("disjoint group %d", u-houseDisjoint+1)
	case u == houseAsterisk:
		return "the asterisk"
	case u == houseCentreDot:
		return "the centre dots"
	case u == houseGirandola:
		return "the girandola"
	}
	return fmt.Sprintf("house %d", u)
}

// order is a classic unit order (unitOrder, hiddenOrder) followed by the
// extra houses: the classic houses are visited as before, so a classic
// path does not change.
func (g *geometry) order(classic *[27]int) []int {
	if len(g.extras) == 0 {
		return classic[:]
	}
	return append(classic[:len(classic):len(classic)], g.extras...)
}
