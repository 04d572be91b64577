package templates

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"
)

// timeAxis is the players' time axis as the ratings page draws it.
func timeAxis() Axis {
	return Axis{Label: "Typical player's time", Log: true, Format: ShortTime, Ticks: TimeTicks}
}

// TestScatterLayout places dots on a log axis with an offset (backtracks
// from 0) and a time axis: the smallest value sits left of the largest and
// the slowest time above the fastest, every dot is inside the plot, the
// ticks are round and inside the data's range, and labels read as times.
func TestScatterLayout(t *testing.T) {
	c := Scatter{
		ID: "chart-backtracks", Title: "Backtracks",
		X: Axis{Label: "Backtracks", Log: true, Offset: 1},
		Y: timeAxis(),
		Points: []Point{
			{X: 0, Y: 90, Label: "#1"}, {X: 12, Y: 400, Label: "#2"}, {X: 950, Y: 3000, Label: "#3"},
		},
	}
	l := c.Layout()
	if l.Drawn != 3 || l.Total != 3 || len(l.Dots) != 3 {
		t.Fatalf("drawn %d of %d, want 3 of 3", l.Drawn, l.Total)
	}
	pos := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	for _, d := range l.Dots {
		x, y := pos(d.CX), pos(d.CY)
		if x < scatterLeft || x > scatterW-scatterRight || y < scatterTop || y > scatterTop+scatterPlotH {
			t.Errorf("dot %s at (%v, %v) is outside the plot", d.Label, x, y)
		}
	}
	if !(pos(l.Dots[0].CX) < pos(l.Dots[1].CX) && pos(l.Dots[1].CX) < pos(l.Dots[2].CX)) {
		t.Errorf("x does not grow with backtracks: %v", l.Dots)
	}
	if !(pos(l.Dots[0].CY) > pos(l.Dots[1].CY) && pos(l.Dots[1].CY) > pos(l.Dots[2].CY)) {
		t.Errorf("a longer time is not higher: %v", l.Dots)
	}
	var xs, ys []string
	for _, tk := range l.XTicks {
		xs = append(xs, tk.Label)
	}
	for _, tk := range l.YTicks {
		ys = append(ys, tk.Label)
	}
	// log10(backtracks+1) from 0 to ~2.98, padded: 0 to 1000 are inside.
	if diff := cmp.Diff([]string{"0", "1", "10", "100", "1000"}, xs); diff != "" {
		t.Errorf("x ticks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"2 min", "5 min", "10 min", "20 min", "30 min"}, ys); diff != "" {
		t.Errorf("y ticks (-want +got):\n%s", diff)
	}
}

// TestScatterLinearTicks: a linear axis (clues) is marked at a round step.
func TestScatterLinearTicks(t *testing.T) {
	c := Scatter{X: Axis{Label: "Clues"}, Y: timeAxis(),
		Points: []Point{{X: 22, Y: 100}, {X: 30, Y: 200}, {X: 25, Y: 150}}}
	var got []string
	for _, tk := range c.Layout().XTicks {
		got = append(got, tk.Label)
	}
	if diff := cmp.Diff([]string{"22", "24", "26", "28", "30"}, got); diff != "" {
		t.Errorf("x ticks (-want +got):\n%s", diff)
	}
}

// TestScatterChartGolden renders two scatter charts (log axes with an
// offset and a time axis; a linear axis) and compares them with
// testdata/scatter_charts.golden (-update rewrites it): the SVG the
// /ratings page draws, kept the same through changes to the drawing code
// it shares with the stats page's histograms.
func TestScatterChartGolden(t *testing.T) {
	rho := 0.62
	var buf bytes.Buffer
	for _, m := range []MeasureFit{
		{Key: "backtracks", Name: "Backtracks", About: "Guesses undone.", Rho: &rho, N: 3, Chart: Scatter{
			ID: "chart-backtracks", Title: "Backtracks", Desc: "One dot per puzzle.",
			X: Axis{Label: "Backtracks", Log: true, Offset: 1}, Y: timeAxis(),
			Points: []Point{{X: 0, Y: 90, Label: "#1"}, {X: 12, Y: 400, Label: "#2"}, {X: 950, Y: 3000, Label: "#3"}},
		}},
		{Key: "clues", Name: "Clues", About: "Givens.", N: 3, Chart: Scatter{
			ID: "chart-clues", Title: "Clues", Desc: "One dot per puzzle.", X: Axis{Label: "Clues"}, Y: timeAxis(),
			Points: []Point{{X: 22, Y: 100, Label: "#4"}, {X: 30, Y: 200, Label: "#5"}, {X: 25, Y: 150, Label: "#6"}},
		}},
	} {
		if err := ScatterFigure(m.Chart, m).Render(context.Background(), &buf); err != nil {
			t.Fatal(err)
		}
		buf.WriteString("\n")
	}
	got := strings.ReplaceAll(buf.String(), "><", ">\n<")
	path := filepath.Join("testdata", "scatter_charts.golden")
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

// TestScatterThinned: past MaxScatterPoints an even selection is drawn
// and the chart's text alternative says how many.
func TestScatterThinned(t *testing.T) {
	c := Scatter{ID: "chart-clues", Title: "Clues", X: Axis{Label: "Clues"}, Y: timeAxis()}
	for i := range 4000 {
		c.Points = append(c.Points, Point{X: float64(17 + i%20), Y: float64(60 + i)})
	}
	l := c.Layout()
	if l.Drawn > MaxScatterPoints || l.Drawn < MaxScatterPoints/2 || l.Total != 4000 {
		t.Fatalf("drawn %d of %d, want at most %d and at least half of that", l.Drawn, l.Total, MaxScatterPoints)
	}
	var buf bytes.Buffer
	if err := ScatterFigure(c, MeasureFit{Key: "clues", N: 4000}).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n := doc.Find("circle.dot").Length(); n != l.Drawn {
		t.Errorf("%d dots rendered, want %d", n, l.Drawn)
	}
	if desc := doc.Find("desc").Text(); !strings.Contains(desc, Count(l.Drawn)+" of the 4,000 puzzles are drawn") {
		t.Errorf("desc %q does not say the chart is thinned", desc)
	}
}

// TestRatingsPageEmpty: with too few rated puzzles the page says how many
// there are and what is needed, and shows no ρ and no chart.
func TestRatingsPageEmpty(t *testing.T) {
	v := RatingsView{MinPlays: 5, MinPuzzles: 10, Played: 3, Rated: 1,
		Measures: []MeasureFit{{Key: "grade", Name: "Grade"}}}
	var buf bytes.Buffer
	if err := RatingsPage(v).Render(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	empty := strings.Join(strings.Fields(doc.Find(`[data-testid="ratings-empty"]`).Text()), " ")
	for _, want := range []string{"1 puzzle has 5 or more counted plays", "3 puzzles have at least one", "a ρ needs 10"} {
		if !strings.Contains(empty, want) {
			t.Errorf("empty state %q lacks %q", empty, want)
		}
	}
	if doc.Find(`[data-testid="rho-table"], svg.chart-svg`).Length() != 0 {
		t.Error("the empty page shows a ρ table or a chart")
	}
}

// TestRhoWords reads a ρ in words, sign included.
func TestRhoWords(t *testing.T) {
	for _, tc := range []struct {
		rho  float64
		want string
	}{
		{0.91, "strong: the higher the measure, the longer"}, {0.65, "good:"},
		{-0.5, "moderate, reversed: the higher the measure, the faster"}, {0.1, "next to none: the measure says next to nothing"},
	} {
		if got := RhoWords(tc.rho); !strings.HasPrefix(got, tc.want) {
			t.Errorf("RhoWords(%v) = %q, want it to start %q", tc.rho, got, tc.want)
		}
	}
	if got := ShortTime(4800); got != "1 h 20 min" {
		t.Errorf("ShortTime(4800) = %q", got)
	}
}

// TestScatterExtends: a time axis whose data lie between two marks is
// drawn out to them, so both ends are marked.
func TestScatterExtends(t *testing.T) {
	c := Scatter{X: Axis{Label: "Clues"}, Y: timeAxis(),
		Points: []Point{{X: 22, Y: 70}, {X: 30, Y: 110}}}
	var got []string
	for _, tk := range c.Layout().YTicks {
		got = append(got, tk.Label)
	}
	if diff := cmp.Diff([]string{"1 min", "2 min"}, got); diff != "" {
		t.Errorf("y ticks (-want +got):\n%s", diff)
	}
}
