package sudoku

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var bandDist = flag.Bool("band-dist", false, "print the backtracks distribution of every collection and where it lands in the bands")

// TestBandDistribution prints, for every collection in ../../../shared/puzzles,
// the percentiles of backtracks and the share of puzzles in each band: the
// data behind the band thresholds (see band.go and the README). It runs only
// with -band-dist:
//
//	go test -run TestBandDistribution -band-dist -v ./internal/sudoku
func TestBandDistribution(t *testing.T) {
	if !*bandDist {
		t.Skip("prints the band analysis only with -band-dist")
	}
	files, _ := filepath.Glob(filepath.Join(shared, "*.txt"))
	if len(files) == 0 {
		t.Skipf("no collections in %s", shared)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| collection | puzzles | p10 | p25 | p50 | p75 | p90 | p99 | max |")
	for _, bd := range Bands {
		fmt.Fprintf(&b, " %s |", bd.Name)
	}
	b.WriteString("\n")
	for _, path := range files {
		gs := readPuzzles(t, path)
		bts := make([]int64, 0, len(gs))
		counts := make([]int, len(Bands))
		for _, g := range gs {
			r, err := Solve(g, Options{})
			if err != nil {
				t.Fatalf("%s: %v", g, err)
			}
			bts = append(bts, r.Backtracks)
			counts[slices.IndexFunc(Bands, func(i BandInfo) bool { return i.Band == BandOf(r.Backtracks) })]++
		}
		slices.Sort(bts)
		pct := func(p float64) int64 { return bts[int(p*float64(len(bts)-1))] }
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %d |", strings.TrimSuffix(filepath.Base(path), ".txt"), len(bts),
			pct(.10), pct(.25), pct(.50), pct(.75), pct(.90), pct(.99), bts[len(bts)-1])
		for _, n := range counts {
			fmt.Fprintf(&b, " %.1f%% |", 100*float64(n)/float64(len(bts)))
		}
		b.WriteString("\n")
	}
	fmt.Fprint(os.Stdout, b.String())
}
