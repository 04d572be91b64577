package logic

import (
	"math/bits"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// allDigits is the candidate mask with every digit: bit d stands for digit d.
const allDigits uint16 = 0x3fe

// Units are numbered 0-8 rows, 9-17 columns, 18-26 boxes.
var (
	unitCells [27][9]int
	cellUnit  [81][3]int // row, column, box unit of a cell
	peers     [81][20]int
	sees      [81]cellSet
	unitSet   [27]cellSet
	cellIndex [81][3]int // a cell's position in its row, column and box
	crossing  [27][27]bool
)

// cellSet is a set of cells as an 81-bit mask.
type cellSet [2]uint64

func (s *cellSet) add(c int)            { s[c>>6] |= 1 << (c & 63) }
func (s cellSet) has(c int) bool        { return s[c>>6]&(1<<(c&63)) != 0 }
func (s cellSet) and(t cellSet) cellSet { return cellSet{s[0] & t[0], s[1] & t[1]} }
func (s cellSet) empty() bool           { return s[0]|s[1] == 0 }
func (s cellSet) count() int            { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// clearTo removes the cells up to c, c included.
func (s *cellSet) clearTo(c int) {
	if c >= 64 {
		s[0] = 0
		s[1] &^= (2 << (c - 64)) - 1
		return
	}
	s[0] &^= (2 << c) - 1
}

// each calls f for every cell of s in order.
func (s cellSet) each(f func(int)) {
	for w := 0; w < 2; w++ {
		for m := s[w]; m != 0; m &= m - 1 {
			f(w*64 + bits.TrailingZeros64(m))
		}
	}
}

func init() {
	for i := 0; i < 9; i++ {
		for j := 0; j < 9; j++ {
			unitCells[i][j] = i*9 + j
			unitCells[9+i][j] = j*9 + i
			unitCells[18+i][j] = (i/3*3+j/3)*9 + i%3*3 + j%3
		}
	}
	for u := 0; u < 27; u++ {
		for j, c := range unitCells[u] {
			cellUnit[c][u/9] = u
			cellIndex[c][u/9] = j
			unitSet[u].add(c)
		}
	}
	for u := 0; u < 27; u++ {
		for v := 0; v < 27; v++ {
			crossing[u][v] = u != v && !unitSet[u].and(unitSet[v]).empty()
		}
	}
	for c := 0; c < 81; c++ {
		n := 0
		for k := 0; k < 3; k++ {
			for _, p := range unitCells[cellUnit[c][k]] {
				if p != c && !sees[c].has(p) {
					sees[c].add(p)
					peers[c][n] = p
					n++
				}
			}
		}
	}
	classicGeo = newGeometry(unitCells, nil, [81][]int{})
}

func rowOf(c int) int { return c / 9 }
func colOf(c int) int { return c % 9 }
func boxOf(c int) int { return c/27*3 + c%9/3 }

// board is the solving state: placed digits and the candidates of the
// empty cells, on a geometry (the houses and peers of the puzzle's rules).
type board struct {
	val   [81]uint8
	cand  [81]uint16
	empty int
	g     *geometry
	pos   [maxHouses][10]uint16 // positions of each digit in each house (refresh)
}

// refresh recomputes b.pos from the candidates; the solver calls it before
// each step.
func (b *board) refresh() {
	b.pos = [maxHouses][10]uint16{}
	g := b.g
	for c := range 81 {
		for m := b.cand[c]; m != 0; m &= m - 1 {
			d := bits.TrailingZeros16(m)
			for k := 0; k < 3; k++ {
				b.pos[g.unit[c][k]][d] |= 1 << g.index[c][k]
			}
			for _, h := range g.extra[c] {
				b.pos[h.u][d] |= 1 << h.j
			}
		}
	}
}

func newBoard(g sudoku.Grid) board { return newBoardOn(classicGeo, g) }

// newBoardOn is the board of givens g on geometry geo.
func newBoardOn(geo *geometry, g sudoku.Grid) board {
	b := board{g: geo}
	for c := range 81 {
		b.cand[c] = allDigits
	}
	b.empty = 81
	for c, v := range g {
		if v != 0 {
			b.place(c, int(v))
		}
	}
	return b
}

// place puts digit d in cell c and removes d from its peers.
func (b *board) place(c, d int) {
	if b.val[c] != 0 {
		return
	}
	b.val[c] = uint8(d)
	b.cand[c] = 0
	b.empty--
	m := ^uint16(1 << d)
	for _, p := range b.g.peers[c] {
		b.cand[p] &= m
	}
}

func (b *board) has(c, d int) bool { return b.cand[c]&(1<<d) != 0 }

// positions returns the mask (bit j = j-th cell of the house) of d's places in house u.
// It reads the table refresh made.
func (b *board) positions(u, d int) uint16 { return b.pos[u][d] }

func popcount(m uint16) int { return bits.OnesCount16(m) }

// digitsOf lists the digits of a candidate mask.
func digitsOf(m uint16) []int {
	var ds []int
	for ; m != 0; m &= m - 1 {
		ds = append(ds, bits.TrailingZeros16(m))
	}
	return ds
}

func firstDigit(m uint16) int { return bits.TrailingZeros16(m) }
