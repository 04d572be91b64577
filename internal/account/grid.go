package account

import "fmt"

// CheckSolved reports whether grid, 81 digits, is a solution of the puzzle
// whose givens are givens (81 characters, a digit or '.' each): every given
// kept and every row, column and box holding 1 to 9 once. For a puzzle with
// one solution that is its solution; a puzzle with two accepts either. The
// error says where the grid goes wrong, wrapping ErrWrongGrid.
func CheckSolved(givens, grid string) error {
	if len(grid) != 81 {
		return fmt.Errorf("%w: %d characters, want 81 digits", ErrWrongGrid, len(grid))
	}
	var rows, cols, boxes [9]uint16
	for i := range 81 {
		c := grid[i]
		if c < '1' || c > '9' {
			return fmt.Errorf("%w: r%dc%d is %q, not a digit 1-9", ErrWrongGrid, i/9+1, i%9+1, c)
		}
		if g := givens[i]; g >= '1' && g <= '9' && g != c {
			return fmt.Errorf("%w: r%dc%d changes the given %c", ErrWrongGrid, i/9+1, i%9+1, g)
		}
		bit := uint16(1) << (c - '1')
		r, col, b := i/9, i%9, i/27*3+i%9/3
		if rows[r]&bit != 0 || cols[col]&bit != 0 || boxes[b]&bit != 0 {
			return fmt.Errorf("%w: the %c at r%dc%d repeats in its row, column or box", ErrWrongGrid, c, r+1, col+1)
		}
		rows[r] |= bit
		cols[col] |= bit
		boxes[b] |= bit
	}
	return nil
}
