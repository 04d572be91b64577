package variant

// The fixed extra regions, each a list of nine-cell groups holding 1-9 once
// each. The cell sets are those Sukaku Explainer uses (its Settings.java:
// regionsMainDiagonal, regionsAntiDiagonal, regionsWindows, regionsAsterisk,
// regionsCD, regionsGirandola; disjoint groups by position in the box).

// cellsOf lists the cells of a 9x9 picture where mark is set.
func cellsOf(picture string, mark byte) []Cell {
	var out []Cell
	for i := range 81 {
		if picture[i] == mark {
			out = append(out, Cell(i))
		}
	}
	return out
}

// windowsPicture is Sukaku Explainer's regionsWindows: 1-4 are the four
// windows a setter draws, 0 and 5-8 the five groups they imply (each row
// and column of windows leaves one group of nine cells), which the solver
// uses too: every windoku solution keeps them.
const windowsPicture = "" +
	"055506660" +
	"711172227" +
	"711172227" +
	"711172227" +
	"055506660" +
	"833384448" +
	"833384448" +
	"833384448" +
	"055506660"

const asteriskPicture = "" +
	"........." +
	"....x...." +
	"..x...x.." +
	"........." +
	".x..x..x." +
	"........." +
	"..x...x.." +
	"....x...." +
	"........."

const centreDotPicture = "" +
	"........." +
	".x..x..x." +
	"........." +
	"........." +
	".x..x..x." +
	"........." +
	"........." +
	".x..x..x." +
	"........."

const girandolaPicture = "" +
	"x.......x" +
	"....x...." +
	"........." +
	"........." +
	".x..x..x." +
	"........." +
	"........." +
	"....x...." +
	"x.......x"

// shapeGroups returns the nine-cell groups of a fixed extra region rule,
// nil for any other type. windowsShown lists only the four drawn windows.
func shapeGroups(t Type) [][]Cell {
	switch t {
	case DiagonalMinus:
		g := make([]Cell, 9)
		for i := range 9 {
			g[i] = Cell(i*9 + i)
		}
		return [][]Cell{g}
	case DiagonalPlus:
		g := make([]Cell, 9)
		for i := range 9 {
			g[i] = Cell(i*9 + 8 - i)
		}
		return [][]Cell{g}
	case Windoku:
		var out [][]Cell
		for _, m := range "012345678" {
			out = append(out, cellsOf(windowsPicture, byte(m)))
		}
		return out
	case Disjoint:
		out := make([][]Cell, 9)
		for c := range Cell(81) {
			k := c.row()%3*3 + c.col()%3
			out[k] = append(out[k], c)
		}
		return out
	case Asterisk:
		return [][]Cell{cellsOf(asteriskPicture, 'x')}
	case CentreDot:
		return [][]Cell{cellsOf(centreDotPicture, 'x')}
	case Girandola:
		return [][]Cell{cellsOf(girandolaPicture, 'x')}
	}
	return nil
}

// knight and king moves.
var (
	knightMoves = [][2]int{{1, 2}, {2, 1}, {-1, 2}, {-2, 1}, {1, -2}, {2, -1}, {-1, -2}, {-2, -1}}
	kingMoves   = [][2]int{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}, {0, 1}, {1, 0}, {0, -1}, {-1, 0}}
)

// moveCells returns the cells a move away from c.
func moveCells(c Cell, moves [][2]int) []Cell {
	var out []Cell
	for _, m := range moves {
		r, k := c.row()+m[0], c.col()+m[1]
		if r >= 0 && r < 9 && k >= 0 && k < 9 {
			out = append(out, Cell(r*9+k))
		}
	}
	return out
}

// orthogonalPairs lists every pair of cells sharing a side (144), the
// smaller cell first.
var orthogonalPairs = func() [][2]Cell {
	var out [][2]Cell
	for c := range Cell(81) {
		if c.col() < 8 {
			out = append(out, [2]Cell{c, c + 1})
		}
		if c.row() < 8 {
			out = append(out, [2]Cell{c, c + 9})
		}
	}
	return out
}()

// Groups returns the nine-cell groups a fixed extra region rule makes
// houses of, as the solvers use them: windoku's nine (the four windows,
// 1-4 of windowsPicture, and the five groups they imply, 0 and 5-8, group
// k the cells marked k), each cell list in ascending order; nil for any
// other type.
func Groups(t Type) [][]Cell { return shapeGroups(t) }

// DrawnRegions returns the nine-cell regions a setter draws for a fixed
// extra region rule: one for each diagonal, the asterisk, the centre dot
// and the girandola, windoku's four windows (not the five groups they
// imply), disjoint groups' nine; nil for any other type. Formats that
// list extra regions cell by cell (package fpuzzles) use it.
func DrawnRegions(t Type) [][]Cell {
	if t == Windoku {
		var out [][]Cell
		for _, m := range "1234" {
			out = append(out, cellsOf(windowsPicture, byte(m)))
		}
		return out
	}
	return shapeGroups(t)
}
