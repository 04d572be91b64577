package sudoku

import (
	"runtime"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// BenchmarkCanonical measures the canonical form on one core over a whole
// collection: "solve" includes the search for the solution (Canonical),
// "solved" starts from the known solution (CanonicalSolved).
//
//	go test -run '^$' -bench Canonical -cpu 1 ./internal/sudoku
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
		b.Run(name+"/solve", func(b *testing.B) {
			for b.Loop() {
				for _, g := range gs {
					if _, _, err := Canonical(g, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			}
			reportPerPuzzle(b, len(gs), -1)
		})
		b.Run(name+"/solved", func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, cpuOK := threadCPU()
			for b.Loop() {
				for i, g := range gs {
					CanonicalSolved(g, sols[i])
				}
			}
			reportPerPuzzle(b, len(gs), -1)
			if cpu1, ok := threadCPU(); ok && cpuOK {
				b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(b.N)/float64(len(gs)), "cpu-µs/puzzle")
			}
		})
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
