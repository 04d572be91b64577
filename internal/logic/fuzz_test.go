package logic

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// FuzzSolve: any grid never panics, and every step of a unique puzzle is
// sound against its solution.
func FuzzSolve(f *testing.F) {
	f.Add("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	f.Add("..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9")
	f.Add("123456789........................................................................")
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) < 81 {
			return
		}
		var g sudoku.Grid
		for i := range 81 {
			if ch := s[i]; ch >= '1' && ch <= '9' {
				g[i] = ch - '0'
			}
		}
		r, err := Solve(g, Options{Budget: 2_000_000})
		if err != nil {
			return
		}
		checkPath(t, "fuzz", g, r)
	})
}
