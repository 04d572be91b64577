package sudoku

import (
	"runtime"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// The collections benchmarked (see testdata/README.md).
var benchSets = []string{
	puzzletest.SeventeenClue,
	puzzletest.Top1465,
	puzzletest.Forum1106,
	puzzletest.Forum1905,
	puzzletest.Diabolical,
	puzzletest.Kaggle,
	puzzletest.Norvig,
}

// BenchmarkSolve runs the full search (to two solutions) over every puzzle
// of a collection on one core; an op is one pass over the collection.
func BenchmarkSolve(b *testing.B) {
	for _, name := range benchSets {
		b.Run(name, func(b *testing.B) {
			gs := parseAll(b, puzzletest.Lines(b, name, 0))
			var backtracks int64
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			cpu0, cpuOK := threadCPU()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				backtracks = 0
				for _, g := range gs {
					r, err := Solve(g, Options{})
					if err != nil || r.Solutions != 1 {
						b.Fatalf("%s: %d solutions, %v", g, r.Solutions, err)
					}
					backtracks += r.Backtracks
				}
			}
			reportPerPuzzle(b, len(gs), float64(backtracks))
			if cpu1, ok := threadCPU(); ok && cpuOK {
				// Thread CPU time: what the wall time would be on an idle machine.
				b.ReportMetric(float64((cpu1-cpu0).Microseconds())/float64(b.N)/float64(len(gs)), "cpu-µs/puzzle")
			}
		})
	}
}

func reportPerPuzzle(b *testing.B, puzzles int, backtracks float64) {
	perPuzzle := b.Elapsed().Seconds() / float64(b.N) / float64(puzzles)
	b.ReportMetric(perPuzzle*1e6, "µs/puzzle")
	b.ReportMetric(1/perPuzzle, "puzzles/s")
	if backtracks >= 0 {
		b.ReportMetric(backtracks/float64(puzzles), "backtracks/puzzle")
	}
}

// BenchmarkPlain runs the plain reference algorithm (first empty cell,
// digits 1-9, no propagation) to two solutions on small sets: it takes
// seconds on some 17-clue puzzles, so only these.
func BenchmarkPlain(b *testing.B) {
	sets := []struct {
		name string
		n    int // puzzles from the head of the file
	}{
		{puzzletest.Norvig, 50},
		{puzzletest.Top1465, 5},
		{puzzletest.Forum1106, 5},
	}
	for _, set := range sets {
		b.Run(set.name, func(b *testing.B) {
			gs := parseAll(b, puzzletest.Lines(b, set.name, set.n))
			for b.Loop() {
				for _, g := range gs {
					if sols, _, ok := plainSolve(g, 1<<40); sols != 1 || !ok {
						b.Fatalf("%s: %d solutions", g, sols)
					}
				}
			}
			reportPerPuzzle(b, len(gs), -1)
		})
	}
}

// BenchmarkTrace shows what recording costs on the hardest collection.
func BenchmarkTrace(b *testing.B) {
	gs := parseAll(b, puzzletest.Lines(b, puzzletest.Forum1106, 0))
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range gs {
			if _, _, _, err := Trace(g, 0, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	reportPerPuzzle(b, len(gs), -1)
}

// BenchmarkRate measures what the archive pays per puzzle on one core: the
// search for the solution, the canonical form and the timed runs of the
// presentations (an op is one pass over the collection).
//
//	go test -run '^$' -bench Rate -cpu 1 ./internal/sudoku
func BenchmarkRate(b *testing.B) {
	for _, name := range []string{puzzletest.SeventeenClue, puzzletest.Forum1106} {
		b.Run(name, func(b *testing.B) {
			gs := parseAll(b, puzzletest.Lines(b, name, 0))
			perPuzzleCPU(b, len(gs), func() {
				for _, g := range gs {
					if _, err := Rate(g, Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}
