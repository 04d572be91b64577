package variant

import (
	"fmt"
)

// Cell is one cell of the grid, 0-80 row by row. It is written r1c1 to
// r9c9, the way setters name cells, in the written form and in errors.
type Cell uint8

// String returns the cell as rNcM (1-based).
func (c Cell) String() string {
	if c > 80 {
		return fmt.Sprintf("cell %d", int(c))
	}
	return fmt.Sprintf("r%dc%d", c/9+1, c%9+1)
}

// MarshalText writes the cell as rNcM.
func (c Cell) MarshalText() ([]byte, error) {
	if c > 80 {
		return nil, fmt.Errorf("cell %d is outside the grid", int(c))
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads rNcM (r and c in either case, N and M 1-9).
func (c *Cell) UnmarshalText(b []byte) error {
	if len(b) != 4 || (b[0] != 'r' && b[0] != 'R') || (b[2] != 'c' && b[2] != 'C') ||
		b[1] < '1' || b[1] > '9' || b[3] < '1' || b[3] > '9' {
		return fmt.Errorf("%q is not a cell: expected r1c1 to r9c9", truncate(string(b)))
	}
	*c = Cell((b[1]-'1')*9 + b[3] - '1')
	return nil
}

func truncate(s string) string {
	if len(s) > 20 {
		return s[:20] + "..."
	}
	return s
}

// row and col of a cell, 0-8.
func (c Cell) row() int { return int(c) / 9 }
func (c Cell) col() int { return int(c) % 9 }

// adjacent reports whether a and b share a side.
func adjacent(a, b Cell) bool {
	dr, dc := a.row()-b.row(), a.col()-b.col()
	return dr*dr+dc*dc == 1
}

// touching reports whether a and b share a side or a corner (a line may
// step diagonally).
func touching(a, b Cell) bool {
	dr, dc := a.row()-b.row(), a.col()-b.col()
	return a != b && dr >= -1 && dr <= 1 && dc >= -1 && dc <= 1
}
