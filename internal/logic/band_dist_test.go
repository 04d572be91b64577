package logic

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

var (
	bandDist   = flag.Bool("band-dist", false, "print the grade distribution of every collection and where it lands in the bands")
	bandSample = flag.Int("band-dist.n", 400, "puzzles graded per collection (an even sample; 0 for all)")
)

// TestBandDistribution prints, for an even sample of every collection of
// puzzletest, the percentiles of the grade and the share of puzzles in each
// band, and for the rated table the same shares by Sukaku Explainer's own
// ratings: the data behind the band thresholds (sudoku.Bands) in
// docs/engine.md. It runs only with -band-dist (minutes: the forum's
// hardest puzzles take up to 0.2 s each):
//
//	go test -run TestBandDistribution -band-dist -v -timeout 1h ./internal/logic
func TestBandDistribution(t *testing.T) {
	if !*bandDist {
		t.Skip("prints the band analysis only with -band-dist")
	}
	var b strings.Builder
	b.WriteString("| collection | graded | p10 | p50 | p90 | max | floors |")
	for _, bd := range sudoku.Bands {
		fmt.Fprintf(&b, " %s |", bd.Band)
	}
	b.WriteString("\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |" + strings.Repeat(" ---: |", len(sudoku.Bands)) + "\n")
	row := func(name string, tenths []int64, floors int) {
		slices.Sort(tenths)
		pct := func(p float64) string { return fmt.Sprintf("%.1f", float64(tenths[int(p*float64(len(tenths)-1))])/10) }
		counts := make([]int, len(sudoku.Bands))
		for _, g := range tenths {
			counts[sudoku.BandOf(g).Rank()]++
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s | %d |", name, len(tenths), pct(.1), pct(.5), pct(.9), pct(1), floors)
		for _, n := range counts {
			if n == 0 {
				b.WriteString(" – |")
				continue
			}
			fmt.Fprintf(&b, " %.1f%% |", 100*float64(n)/float64(len(tenths)))
		}
		b.WriteString("\n")
	}
	for _, name := range puzzletest.Collections {
		var tenths []int64
		floors := 0
		for _, l := range spread(puzzletest.Lines(t, name, 0), *bandSample) {
			r, err := Solve(parse(t, l), Options{})
			if err != nil {
				t.Fatalf("%s: %s: %v", name, l, err)
			}
			if r.Floor {
				floors++
			}
			tenths = append(tenths, int64(r.Grade*10+0.5))
		}
		row(strings.TrimSuffix(name, ".txt"), tenths, floors)
		t.Logf("%s graded", name)
	}
	var se []int64
	for _, r := range puzzletest.RatedPuzzles(t, 0) {
		se = append(se, int64(r.Rating*10+0.5))
	}
	row("sudokuexchange_diabolical_even, Sukaku Explainer's ratings", se, 0)
	fmt.Fprint(os.Stdout, b.String())
}

// spread returns n lines of ls at even steps (all of them for n <= 0).
func spread(ls []string, n int) []string {
	if n <= 0 || n >= len(ls) {
		return ls
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, ls[i*len(ls)/n])
	}
	return out
}
