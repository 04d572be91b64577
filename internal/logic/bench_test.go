package logic

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// BenchmarkGrade grades the first 200 rated puzzles per iteration and
// reports puzzles per second (one core).
func BenchmarkGrade(b *testing.B) {
	rated := puzzletest.RatedPuzzles(b, 200)
	var n int
	b.ResetTimer()
	for b.Loop() {
		for _, r := range rated {
			if _, err := Solve(parse(b, r.Puzzle), Options{}); err != nil {
				b.Fatal(err)
			}
			n++
		}
	}
	b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "puzzles/s")
}
