package sudoku

import (
	"runtime"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// BenchmarkCanonical measures the canonical form on one core over a whole
// collection (an op is one pass), in three parts:
//
//   - solved: CanonicalSolved, the solution known (the archive's case);
//   - canonical: Canonical, which first solves the puzzle (to two
//     solutions, to learn whether its solution is unique);
//   - search: that search alone (Solve), the floor under "canonical": on
//     the hardest collections it is nearly all of it.
//
// Each reports wall time (µs/puzzle, puzzles/s) and the thread's CPU time
// (cpu-µs/puzzle, cpu-puzzles/s), which other processes on a shared machine
// do not inflate.
//
//	go test -run '^$' -bench 'Canonical$' -cpu 1 ./internal/sudoku
func BenchmarkCanonical(b *testing.B) {
	for _, name := range []string{puzzletest.SeventeenClue, puzzletest.Forum1106, puzzletest.Top1465} {
		gs := parseAll(b, puzzletest.Lines(b, name, 0))
		sols := make([]Grid, len(gs))
		for i, g := range gs {
			r, err := Solve(g, Options{})
			if err != nil || r.Solutions != 1 {
				b.Fatal(g, err)
			}
			sols[i] = r.Solution
		}
		b.Run(name+"/solved", func(b *testing.B) {
			perPuzzleCPU(b, len(gs), func() {
				for i, g := range gs {
					CanonicalSolved(g, sols[i])
				}
			})
		})
		b.Run(name+"/canonical", func(b *testing.B) {
			perPuzzleCPU(b, len(gs), func() {
				for _, g := range gs {
					if _, _, err := Canonical(g, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
		b.Run(name+"/search", func(b *testing.B) {
			perPuzzleCPU(b, len(gs), func() {
				for _, g := range gs {
					if _, err := Solve(g, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// perPuzzleCPU runs pass (one pass over n puzzles) b.N times on one OS
// thread and reports wall and thread CPU time per puzzle.
func perPuzzleCPU(b *testing.B, n int, pass func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	cpu0, cpuOK := threadCPU()
	for b.Loop() {
		pass()
	}
	reportPerPuzzle(b, n, -1)
	if cpu1, ok := threadCPU(); ok && cpuOK {
		us := float64((cpu1 - cpu0).Microseconds()) / float64(b.N) / float64(n)
		b.ReportMetric(us, "cpu-µs/puzzle")
		b.ReportMetric(1e6/us, "cpu-puzzles/s")
	}
}

// BenchmarkCanonicalGivens measures the canonical form of puzzles with
// several solutions: 17-clue puzzles less one given.
func BenchmarkCanonicalGivens(b *testing.B) {
	gs := parseAll(b, puzzletest.Lines(b, puzzletest.SeventeenClue, 200))
	for i := range gs {
		for c := range gs[i] {
			if gs[i][c] != 0 {
				gs[i][c] = 0
				break
			}
		}
	}
	for b.Loop() {
		for _, g := range gs {
			canonicalGivens(g)
		}
	}
	reportPerPuzzle(b, len(gs), -1)
}
