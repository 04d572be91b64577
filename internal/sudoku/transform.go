package sudoku

import "fmt"

// Transform is one of the moves that keep every Sudoku a Sudoku, or several
// of them composed: an optional transposition, then a reordering of the rows
// and of the columns that keeps bands and stacks together, and a relabelling
// of the digits. The zero Transform is not valid; use Identity.
//
// Applied to a grid g it gives h with, for every row r and column c,
//
//	h[r][c] = Digits[s[Rows[r]][Cols[c]]]
//
// where s is g, or g transposed (s[i][j] = g[j][i]) when Transposed. Rows
// and Cols are therefore "which row (column) of s goes here".
type Transform struct {
	Transposed bool
	Rows       [9]uint8  // Rows[r]: the row of s that becomes row r
	Cols       [9]uint8  // Cols[c]: the column of s that becomes column c
	Digits     [10]uint8 // Digits[d]: the digit d becomes; Digits[0] is 0
}

// Identity is the transform that changes nothing.
var Identity = Transform{
	Rows:   [9]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8},
	Cols:   [9]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8},
	Digits: [10]uint8{0, 1, 2, 3, 4, 5, 6, 7, 8, 9},
}

// Valid reports whether t is a transform: Rows and Cols are permutations
// that keep bands (stacks) together, Digits a permutation of 1-9 fixing 0.
func (t Transform) Valid() bool {
	return validLines(t.Rows) && validLines(t.Cols) && validDigits(t.Digits)
}

func validLines(p [9]uint8) bool {
	var seen uint16
	for i, v := range p {
		if v > 8 || seen&(1<<v) != 0 {
			return false
		}
		seen |= 1 << v
		// The three lines of a band come from one band.
		if i%3 != 0 && v/3 != p[i-i%3]/3 {
			return false
		}
	}
	return true
}

func validDigits(d [10]uint8) bool {
	if d[0] != 0 {
		return false
	}
	var seen uint16
	for _, v := range d[1:] {
		if v < 1 || v > 9 || seen&(1<<v) != 0 {
			return false
		}
		seen |= 1 << v
	}
	return true
}

// Apply returns g transformed.
func (t Transform) Apply(g Grid) Grid {
	var h Grid
	for r := range 9 {
		for c := range 9 {
			i, j := int(t.Rows[r]), int(t.Cols[c])
			if t.Transposed {
				i, j = j, i
			}
			h[r*9+c] = t.Digits[g[i*9+j]]
		}
	}
	return h
}

// Cell returns where cell i (0-80, row by row) of a grid goes when the grid
// is transformed: t.Apply(g)[t.Cell(i)] == t.Digit(g[i]).
func (t Transform) Cell(i int) int {
	r, c := i/9, i%9
	if t.Transposed {
		r, c = c, r
	}
	return index9(t.Rows, r)*9 + index9(t.Cols, c)
}

// Digit returns what digit d becomes (0, a blank, stays 0).
func (t Transform) Digit(d uint8) uint8 {
	if d > 9 {
		return d
	}
	return t.Digits[d]
}

// Step returns s moved by t: its cell and digit transformed.
func (t Transform) Step(s Step) Step {
	return Step{Kind: s.Kind, Cell: uint8(t.Cell(int(s.Cell))), Digit: t.Digit(s.Digit)}
}

func index9(p [9]uint8, v int) int {
	for i, x := range p {
		if int(x) == v {
			return i
		}
	}
	panic(fmt.Sprintf("sudoku: invalid transform %v", p))
}

func inverse9(p [9]uint8) [9]uint8 {
	var q [9]uint8
	for i, v := range p {
		q[v] = uint8(i)
	}
	return q
}

// Inverse returns the transform that undoes t: t.Inverse().Apply(t.Apply(g))
// == g.
func (t Transform) Inverse() Transform {
	u := Transform{Transposed: t.Transposed, Rows: inverse9(t.Rows), Cols: inverse9(t.Cols)}
	if t.Transposed {
		u.Rows, u.Cols = u.Cols, u.Rows
	}
	for d := 1; d <= 9; d++ {
		u.Digits[t.Digits[d]] = uint8(d)
	}
	return u
}

// Then returns the transform that applies t, then u:
// t.Then(u).Apply(g) == u.Apply(t.Apply(g)).
func (t Transform) Then(u Transform) Transform {
	v := Transform{Transposed: t.Transposed != u.Transposed}
	for d := range 10 {
		v.Digits[d] = u.Digits[t.Digits[d]]
	}
	// Read the lines off the composed cell map: in v's form a cell (i, j)
	// of s (g, or g transposed) goes to row rowsInv[i], column colsInv[j].
	cell := func(i int) int { return u.Cell(t.Cell(i)) }
	var rowsInv, colsInv [9]uint8
	for a := range 9 {
		if v.Transposed {
			rowsInv[a] = uint8(cell(a) / 9)   // s row a is g column a: cell (0, a) of g
			colsInv[a] = uint8(cell(a*9) % 9) // s column a is g row a: cell (a, 0)
		} else {
			rowsInv[a] = uint8(cell(a*9) / 9)
			colsInv[a] = uint8(cell(a) % 9)
		}
	}
	v.Rows, v.Cols = inverse9(rowsInv), inverse9(colsInv)
	return v
}

// String shows the transform compactly: "T rows 012345678 cols 012345678
// digits 123456789" (T only when transposed).
func (t Transform) String() string {
	b := make([]byte, 0, 48)
	if t.Transposed {
		b = append(b, "T "...)
	}
	b = append(b, "rows "...)
	for _, v := range t.Rows {
		b = append(b, '0'+v)
	}
	b = append(b, " cols "...)
	for _, v := range t.Cols {
		b = append(b, '0'+v)
	}
	b = append(b, " digits "...)
	for _, v := range t.Digits[1:] {
		b = append(b, '0'+v)
	}
	return string(b)
}
