package variant

import (
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// BenchmarkVariants solves every test puzzle of testdata/puzzles.txt
// (killers without givens included) to two solutions, proving the unique
// ones unique; an op is one pass. It reports each puzzle's p99 and worst
// wall time over the passes and puzzles solved per second (run it with
// -cpu 1: one core). Issue 47's target is p99 <= 50 ms.
func BenchmarkVariants(b *testing.B) {
	tps := readTestPuzzles(b, puzzlesFile)
	var ps []Puzzle
	for _, tp := range tps {
		if !tp.p.Classic() {
			ps = append(ps, tp.p)
		}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		for _, p := range ps {
			t0 := time.Now()
			if _, err := Solve(p, sudoku.Options{}); err != nil {
				b.Fatal(err)
			}
			times = append(times, time.Since(t0))
		}
	}
	b.StopTimer()
	slices.Sort(times)
	var total time.Duration
	for _, d := range times {
		total += d
	}
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(times[len(times)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(float64(len(times))/total.Seconds(), "puzzles/s")
}

// BenchmarkClassicThroughVariant: a classic puzzle through variant.Solve
// costs what sudoku.Solve does (it is sudoku.Solve), compared here on the
// same run: an op is one pass over top1465_first20.
func BenchmarkClassicThroughVariant(b *testing.B) {
	gs := classicLines(b, "top1465_first20.txt")
	b.Run("sudoku", func(b *testing.B) {
		for b.Loop() {
			for _, g := range gs {
				if _, err := sudoku.Solve(g, sudoku.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("variant", func(b *testing.B) {
		for b.Loop() {
			for _, g := range gs {
				if _, err := Solve(Puzzle{Givens: g}, sudoku.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
