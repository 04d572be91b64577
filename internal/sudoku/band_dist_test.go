package sudoku

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

var bandDist = flag.Bool("band-dist", false, "print the backtracks distribution of every collection and where it lands in the bands")

// TestBandDistribution prints, for every collection of puzzletest, the
// percentiles of the recorded backtracks (Rate's measure: the median of the
// presentations of the canonical form) and the share of puzzles in each band:
// the data behind the band thresholds (see band.go and docs/engine.md). It runs
// only with -band-dist:
//
//	go test -run TestBandDistribution -band-dist -v ./internal/sudoku
func TestBandDistribution(t *testing.T) {
	if !*bandDist {
		t.Skip("prints the band analysis only with -band-dist")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| collection | puzzles | p10 | p25 | p50 | p75 | p90 | p99 | max |")
	for _, bd := range Bands {
		fmt.Fprintf(&b, " %s |", bd.Name)
	}
	b.WriteString("\n|---|---|---|---|---|---|---|---|---|" + strings.Repeat("---|", len(Bands)) + "\n")
	for _, name := range puzzletest.Collections {
		gs := parseAll(t, puzzletest.Lines(t, name, 0))
		bts := make([]int64, 0, len(gs))
		counts := make([]int, len(Bands))
		var times [Presentations]int64
		for _, g := range gs {
			m, err := measure(g, Options{}, 0, times[:])
			if err != nil || m.solutions != 1 {
				t.Fatalf("%s: %d solutions, %v", g, m.solutions, err)
			}
			bts = append(bts, m.res.Backtracks)
			counts[slices.IndexFunc(Bands, func(i BandInfo) bool { return i.Band == BandOf(m.res.Backtracks) })]++
		}
		slices.Sort(bts)
		pct := func(p float64) int64 { return bts[int(p*float64(len(bts)-1))] }
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |", strings.TrimSuffix(name, ".txt"), len(bts),
			pct(.10), pct(.25), pct(.50), pct(.75), pct(.90), pct(.99), bts[len(bts)-1])
		for _, n := range counts {
			fmt.Fprintf(&b, " %.1f%% |", 100*float64(n)/float64(len(bts)))
		}
		b.WriteString("\n")
	}
	fmt.Fprint(os.Stdout, b.String())
}
