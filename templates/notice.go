package templates

import (
	"github.com/sudoku-archive/sudoku/internal/record"
)

// noPlayerTimes reports whether none of ps has a player time yet (the
// history sorted by player time then says why every row shows "–").
func noPlayerTimes(ps []record.Puzzle) bool {
	for _, p := range ps {
		if p.PlayerSeconds != nil {
			return false
		}
	}
	return true
}
