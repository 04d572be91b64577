package templates

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// fixedStats is a small archive: 12 puzzles, 3 of them submitted twice,
// 10 of them graded (one has several solutions, one waits for its grade).
func fixedStats() StatsView {
	st := record.Stats{
		Total: 12, Unique: 11, Submissions: 15, Ungraded: 1,
		Grades: []record.GradeCount{
			{Tenths: 95, Technique: "Dynamic Forcing Chains", N: 1}, {Tenths: 72, Technique: "Forcing Chain", N: 2},
			{Tenths: 66, Technique: "Simple Colouring", N: 1}, {Tenths: 42, Technique: "XY-Wing", N: 1},
			{Tenths: 26, Technique: "Pointing", N: 2}, {Tenths: 20, Technique: "Direct Hidden Pair", N: 1},
			{Tenths: 12, Technique: "Hidden Single", N: 2},
		},
		//           0  1  2-3 4-7 8-15 16-31 32-63 64-127 128-255
		Backtracks: []int64{3, 1, 2, 0, 1, 1, 0, 1, 3},
		SolveTime:  []int64{0, 2, 4, 0, 3, 0, 0, 1, 2},
		Clues:      make([]int64, 31),
	}
	st.Clues[17], st.Clues[22], st.Clues[25], st.Clues[30] = 4, 3, 3, 2
	return StatsView{Total: st.Total, Unique: st.Unique, Stats: st}
}

// TestStatsChartsGolden renders the three charts and the band table of a
// fixed archive and compares them with testdata/stats_charts.golden
// (go test ./templates -run Golden -update rewrites it).
func TestStatsChartsGolden(t *testing.T) {
	v := fixedStats()
	var buf bytes.Buffer
	ctx := context.Background()
	for _, c := range []Chart{v.BacktracksChart(), v.SolveTimeChart(), v.CluesChart()} {
		if err := HistogramFigure(c).Render(ctx, &buf); err != nil {
			t.Fatal(err)
		}
		buf.WriteString("\n")
	}
	if err := bandTable(v).Render(ctx, &buf); err != nil {
		t.Fatal(err)
	}
	buf.WriteString("\n")
	got := strings.ReplaceAll(buf.String(), "><", ">\n<")
	path := filepath.Join("testdata", "stats_charts.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if d := cmp.Diff(string(want), got); d != "" {
		t.Errorf("charts differ from %s (-want +got):\n%s", path, d)
	}
}

func TestChartScale(t *testing.T) {
	for _, tc := range []struct {
		max  int64
		want []int64
	}{
		{0, []int64{0, 1}}, {1, []int64{0, 1}}, {3, []int64{0, 1, 2, 3}}, {4, []int64{0, 1, 2, 3, 4}},
		{7, []int64{0, 2, 4, 6, 8}}, {102, []int64{0, 50, 100, 150}}, {1_000_000, []int64{0, 500_000, 1_000_000}},
	} {
		c := Chart{Bars: []Bar{{N: tc.max}}}
		if d := cmp.Diff(tc.want, c.yTicks()); d != "" {
			t.Errorf("max %d (-want +got):\n%s", tc.max, d)
		}
	}
}

func TestCompact(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 950: "950", 1000: "1k", 1200: "1.2k", 25_000: "25k", 999_499: "999k", 1_000_000: "1M", 2_500_000: "2.5M", 40_000_000: "40M"} {
		if got := Compact(n); got != want {
			t.Errorf("Compact(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestBandCounts(t *testing.T) {
	v := fixedStats()
	var got []int64
	for _, r := range v.BandRows() {
		got = append(got, r.N)
	}
	// From the grades: easy 2+1 (up to 2.0), medium 2, hard 1, fiendish 1
	// (6.6 is its top), extreme 2+1; the two without a grade in none.
	if d := cmp.Diff([]int64{3, 2, 1, 1, 3}, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if n := v.NoBand(); n != 2 {
		t.Errorf("%d puzzles in no band, want 2", n)
	}
}
