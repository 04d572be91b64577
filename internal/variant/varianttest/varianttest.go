// Package varianttest gives the tests of the packages above the variant
// engine its test set (internal/variant/testdata/puzzles.txt, read by
// package puzzletest) as puzzles: one reader instead of one in each
// package's tests. Package variant's own tests read the file themselves
// (they cannot import a package that imports variant).
package varianttest

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// Puzzles returns the test set by name, each puzzle parsed.
func Puzzles(tb testing.TB) map[string]variant.Puzzle {
	tb.Helper()
	out := map[string]variant.Puzzle{}
	for _, e := range puzzletest.Variants(tb) {
		p, err := variant.Parse([]byte(e.Text))
		if err != nil {
			tb.Fatalf("variant test puzzle %s: %v", e.Name, err)
		}
		out[e.Name] = p
	}
	return out
}

// Puzzle returns the test set's puzzle name, parsed.
func Puzzle(tb testing.TB, name string) variant.Puzzle {
	tb.Helper()
	p, err := variant.Parse([]byte(puzzletest.VariantText(tb, name)))
	if err != nil {
		tb.Fatalf("variant test puzzle %s: %v", name, err)
	}
	return p
}
