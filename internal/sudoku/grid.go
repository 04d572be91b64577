package sudoku

import "fmt"

// EngineVersion identifies the search whose measures are recorded. Bump it
// whenever a change alters solutions, backtracks, guesses or nodes for any
// puzzle; timing-only changes keep it.
const EngineVersion = "2"

// Grid is a Sudoku grid: 81 cells row by row, 0 for a blank, 1-9 for a digit.
type Grid [81]uint8

// String returns the canonical form: 81 characters, '.' for blanks (see
// Append).
func (g Grid) String() string {
	var b [81]byte
	return string(g.Append(b[:0]))
}

// MarshalText encodes the grid in canonical form.
func (g Grid) MarshalText() ([]byte, error) { return []byte(g.String()), nil }

// UnmarshalText parses any puzzle text form (see Parse).
func (g *Grid) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*g = p
	return nil
}

// Clues returns the number of givens.
func (g Grid) Clues() int {
	n := 0
	for _, v := range g {
		if v != 0 {
			n++
		}
	}
	return n
}

// KeyMaskLen is the length of the bitmap that begins a Key.
const KeyMaskLen = 11 // ceil(81 / 8)

// Key returns a compact encoding of g, one-to-one with the grid: a bitmap
// of the given cells, bit i%8 of byte i/8 for cell i (row by row from 0),
// then the given digits in cell order two to a byte, high half first, an
// odd last digit in a high half. 20 bytes for 17 givens where the text
// takes 81. The archive's givens are unique by it (migration 00006
// computes the same bytes in SQL, and a store test checks that they agree).
func (g Grid) Key() []byte {
	k := make([]byte, KeyMaskLen, KeyMaskLen+(len(g)+1)/2)
	half := false
	for i, d := range g {
		if d == 0 {
			continue
		}
		k[i/8] |= 1 << (i % 8)
		if half {
			k[len(k)-1] |= d
		} else {
			k = append(k, d<<4)
		}
		half = !half
	}
	return k
}

// Unit is a row, column or box.
type Unit int

// The three kinds of unit.
const (
	Row Unit = iota
	Column
	Box
)

// String returns "row", "column" or "box".
func (u Unit) String() string {
	switch u {
	case Row:
		return "row"
	case Column:
		return "column"
	case Box:
		return "box"
	}
	return fmt.Sprintf("Unit(%d)", int(u))
}

// ConflictError reports two givens with the same digit in one unit.
type ConflictError struct {
	Unit  Unit
	Index int    // 0-8: which row, column or box (shown 1-based); boxes are numbered row by row
	Digit uint8  // the repeated digit
	Cells [2]int // the two cells (0-80, row by row) holding it, in cell order
}

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s %d has two %ds", e.Unit, e.Index+1, e.Digit)
}

// CellError reports a cell value outside 0-9, in a matrix (FromRows) or in a
// Grid built by hand (Validate).
type CellError struct {
	Row, Column int // 0-8 (shown 1-based)
	Value       int
}

func (e *CellError) Error() string {
	return fmt.Sprintf("row %d, column %d: %d is not a cell (0 for a blank, 1-9 for a digit)", e.Row+1, e.Column+1, e.Value)
}

// unitCell returns the j-th cell (0-8) of unit k of kind u.
func unitCell(u Unit, k, j int) int {
	switch u {
	case Row:
		return k*9 + j
	case Column:
		return j*9 + k
	default:
		return (k/3*3+j/3)*9 + k%3*3 + j%3
	}
}

// Validate returns a *CellError for a value above 9 and a *ConflictError if
// two givens share a digit in a row, column or box (rows first, then
// columns, then boxes, each in order); nil otherwise.
func (g Grid) Validate() error {
	// Fast path: one pass with a digit mask per unit. Only when it finds a
	// problem does the ordered scan below say which one.
	var rows, cols, boxes [9]uint16
	clash := false
	for c, v := range g {
		if v == 0 {
			continue
		}
		if v > 9 {
			clash = true
			break
		}
		r, col := c/9, c%9
		b := r/3*3 + col/3
		bit := uint16(1) << v
		if (rows[r]|cols[col]|boxes[b])&bit != 0 {
			clash = true
			break
		}
		rows[r] |= bit
		cols[col] |= bit
		boxes[b] |= bit
	}
	if !clash {
		return nil
	}
	for c, v := range g {
		if v > 9 {
			return &CellError{Row: c / 9, Column: c % 9, Value: int(v)}
		}
	}
	for u := Row; u <= Box; u++ {
		for k := 0; k < 9; k++ {
			var seen [10]int // cell+1 holding each digit so far
			for j := 0; j < 9; j++ {
				c := unitCell(u, k, j)
				d := g[c]
				if d == 0 {
					continue
				}
				if seen[d] != 0 {
					return &ConflictError{Unit: u, Index: k, Digit: d, Cells: [2]int{seen[d] - 1, c}}
				}
				seen[d] = c + 1
			}
		}
	}
	return nil
}
