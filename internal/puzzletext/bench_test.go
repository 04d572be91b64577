package puzzletext

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

const benchLine = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79 rating 3.4"

// BenchmarkReadLineClassic is what a classic line of an import or a solve
// costs through the one reader; BenchmarkParseLine is package sudoku's
// own, the cost before (the difference is the reader's dispatch).
func BenchmarkReadLineClassic(b *testing.B) {
	for b.Loop() {
		if _, err := ReadLine(benchLine); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseLine(b *testing.B) {
	for b.Loop() {
		if _, err := sudoku.ParseLine(benchLine); err != nil {
			b.Fatal(err)
		}
	}
}
