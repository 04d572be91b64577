package bulk

// TEMPORARY: stands in for sudoku.ParseLine until the engine work lands in
// main; deleted then, and parseLine calls become sudoku.ParseLine.

import (
	"unicode"
	"unicode/utf8"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// parseLine reads the first 81 cells of s; text after them is ignored when
// it starts with white space.
func parseLine(s string) (sudoku.Grid, error) {
	n := 0
	for i, r := range s {
		switch {
		case r == '.' || (r >= '0' && r <= '9'):
			n++
			if n == 81 {
				rest := s[i+1:]
				r2, _ := utf8.DecodeRuneInString(rest)
				if rest == "" || unicode.IsSpace(r2) {
					return sudoku.Parse(s[:i+1])
				}
				return sudoku.Parse(s)
			}
		}
	}
	return sudoku.Parse(s)
}
