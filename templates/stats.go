package templates

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Chart is a histogram the stats page draws as SVG: one bar per bucket,
// equal widths, heights on a linear scale from zero.
type Chart struct {
	ID     string // unique on the page: the SVG's title and desc ids derive from it
	Title  string
	Desc   string // one sentence for the text alternative
	XLabel string // what the buckets are
	YLabel string // what the heights count
	Bars   []Bar
}

// Bar is one bucket of a Chart.
type Bar struct {
	Tick  string // the short label under the bar, "" for none
	Range string // the bucket in words: "2–3 backtracks"
	N     int64
	Class string // an extra CSS class (the band's colour), or ""
}

// The SVG geometry of a chart, in user units (the SVG scales to its box).
const (
	chartW      = 640
	chartH      = 260
	chartLeft   = 64 // room for the y tick labels and the y axis label
	chartRight  = 12
	chartTop    = 14
	chartBottom = 52 // room for the x tick labels and the x axis label
	plotW       = chartW - chartLeft - chartRight
	plotH       = chartH - chartTop - chartBottom
)

// max is the tallest bar's count.
func (c Chart) max() int64 {
	var m int64
	for _, b := range c.Bars {
		m = max(m, b.N)
	}
	return m
}

// yTicks returns the counts at which the y axis is marked: 0 and up to
// four more at a "nice" step (1, 2 or 5 times a power of ten), the last at
// or above the tallest bar. The top tick is the scale's maximum.
func (c Chart) yTicks() []int64 {
	m := c.max()
	if m <= 0 {
		return []int64{0, 1}
	}
	step := int64(1)
	for {
		for _, f := range []int64{1, 2, 5} {
			if s := step * f; (m+s-1)/s <= 4 {
				ticks := []int64{0}
				for v := s; v < m+s; v += s {
					ticks = append(ticks, v)
				}
				return ticks
			}
		}
		step *= 10
	}
}

// top is the count at the top of the plot.
func (c Chart) top() int64 {
	t := c.yTicks()
	return t[len(t)-1]
}

// slot is the width each bar has, gap included.
func (c Chart) slot() float64 { return float64(plotW) / float64(max(len(c.Bars), 1)) }

func (c Chart) barX(i int) string {
	return num(float64(chartLeft) + c.slot()*float64(i) + c.slot()*0.1)
}

func (c Chart) barW() string { return num(c.slot() * 0.8) }

// barH is the height of bar i; a bar that is not empty is at least one
// unit tall, so that a count of 1 among a million still shows.
func (c Chart) barH(i int) float64 {
	n := c.Bars[i].N
	if n == 0 {
		return 0
	}
	return max(1, float64(plotH)*float64(n)/float64(c.top()))
}

func (c Chart) barY(i int) string { return num(float64(chartTop+plotH) - c.barH(i)) }

func (c Chart) barHS(i int) string { return num(c.barH(i)) }

// histogramFrame is a Chart's frame (axes.templ).
var histogramFrame = frame{W: chartW, H: chartH, Left: chartLeft, Right: chartRight, Top: chartTop, Bottom: chartBottom, YLabelX: 16}

// yAxis is the y axis's marks: each tick's count at its height.
func (c Chart) yAxis() []Tick {
	var ts []Tick
	for _, v := range c.yTicks() {
		ts = append(ts, Tick{Pos: float64(chartTop+plotH) - float64(plotH)*float64(v)/float64(c.top()), Label: Compact(v)})
	}
	return ts
}

// xAxis is the x axis's marks: the bars' short labels, under their middles.
func (c Chart) xAxis() []Tick {
	var ts []Tick
	for i, b := range c.Bars {
		if b.Tick != "" {
			ts = append(ts, Tick{Pos: float64(chartLeft) + c.slot()*(float64(i)+0.5), Label: b.Tick})
		}
	}
	return ts
}

// num writes an SVG coordinate with at most one decimal.
func num(f float64) string { return strconv.FormatFloat(float64(int64(f*10+0.5))/10, 'f', -1, 64) }

// itoa is strconv.Itoa, for the templates.
func itoa(i int) string { return strconv.Itoa(i) }

// Compact formats a count in at most four characters for an axis: 950,
// 1.2k, 25k, 1M.
func Compact(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10)
	case n < 10_000:
		return trimZero(strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64)) + "k"
	case n < 1_000_000:
		return strconv.FormatInt((n+500)/1000, 10) + "k"
	case n < 10_000_000:
		return trimZero(strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64)) + "M"
	default:
		return strconv.FormatInt((n+500_000)/1_000_000, 10) + "M"
	}
}

func trimZero(s string) string {
	if len(s) > 2 && s[len(s)-2:] == ".0" {
		return s[:len(s)-2]
	}
	return s
}

// trimmed returns the bars from the first to the last that is not empty, so
// a chart spans the data (a histogram of empty bars says nothing).
func trimmed(h []int64, keepFrom int) (lo, hi int) {
	lo, hi = -1, -1
	for k, n := range h {
		if n > 0 {
			if lo < 0 {
				lo = k
			}
			hi = k
		}
	}
	if lo < 0 {
		return 0, -1
	}
	return min(lo, keepFrom), hi
}

// NoMaxBacktracks is the open top of the last backtracks bucket.
const NoMaxBacktracks = sudoku.NoMax

// BacktracksChart is the histogram of backtracks on a log scale: buckets
// 0, 1, 2–3, 4–7, .... Its bars are not coloured by band: bands come from
// the grade, not from backtracks.
func (v StatsView) BacktracksChart() Chart {
	c := Chart{
		ID: "chart-backtracks", Title: "Backtracks", XLabel: "Backtracks (log scale: each bar doubles the range)", YLabel: "Puzzles",
		Desc: "Histogram of puzzles by backtracks, in buckets 0, 1, 2 to 3, 4 to 7 and so on.",
	}
	_, hi := trimmed(v.Stats.Backtracks, 0)
	for k := 0; k <= hi; k++ {
		lo, top := sudoku.BacktracksBucketRange(k)
		r := Count(lo) + " backtracks"
		switch {
		case top == NoMaxBacktracks:
			r = Count(lo) + " or more backtracks"
		case top != lo:
			r = Count(lo) + "–" + Count(top) + " backtracks"
		case lo == 1:
			r = "1 backtrack"
		}
		c.Bars = append(c.Bars, Bar{
			Tick: Compact(lo), Range: r, N: v.Stats.Backtracks[k],
		})
	}
	return c
}

// SolveTimeChart is the histogram of solve times in 1-2-5 steps.
func (v StatsView) SolveTimeChart() Chart {
	c := Chart{
		ID: "chart-solve-time", Title: "Solve time", XLabel: "Median solve time on this server (log scale)", YLabel: "Puzzles",
		Desc: "Histogram of puzzles by median solve time, in steps of 1, 2 and 5 times a power of ten.",
	}
	lo, hi := trimmed(v.Stats.SolveTime, len(v.Stats.SolveTime))
	for k := lo; k <= hi; k++ {
		from, next := record.SolveTimeBucketRange(k)
		var r string
		switch {
		case k == 0:
			r = "under " + shortDuration(next)
		case next == sudoku.NoMax:
			r = shortDuration(from) + " or more"
		default:
			r = shortDuration(from) + " to " + shortDuration(next)
		}
		tick := shortDuration(from)
		if k == 0 {
			tick = "<" + shortDuration(next)
		}
		c.Bars = append(c.Bars, Bar{Tick: tick, Range: r, N: v.Stats.SolveTime[k]})
	}
	return c
}

// shortDuration writes a bucket edge (1, 2 or 5 times a power of ten
// nanoseconds): "1µs", "20µs", "5ms", "2s".
func shortDuration(ns int64) string {
	switch {
	case ns < 1_000:
		return strconv.FormatInt(ns, 10) + "ns"
	case ns < 1_000_000:
		return strconv.FormatInt(ns/1_000, 10) + "µs"
	case ns < 1_000_000_000:
		return strconv.FormatInt(ns/1_000_000, 10) + "ms"
	default:
		return strconv.FormatInt(ns/1_000_000_000, 10) + "s"
	}
}

// CluesChart is the distribution of clue counts, one bar per count from
// the fewest archived to the most.
func (v StatsView) CluesChart() Chart {
	c := Chart{
		ID: "chart-clues", Title: "Clues", XLabel: "Clues (givens)", YLabel: "Puzzles",
		Desc: "Number of puzzles for each count of givens.",
	}
	lo, hi := trimmed(v.Stats.Clues, len(v.Stats.Clues))
	for k := lo; k <= hi; k++ {
		tick := ""
		if k%5 == 0 || k == lo || k == hi {
			tick = strconv.Itoa(k)
		}
		c.Bars = append(c.Bars, Bar{Tick: tick, Range: Plural(k, "clue", "clues"), N: v.Stats.Clues[k]})
	}
	// A round label within two bars of an edge label would crowd it.
	for i := range c.Bars {
		if i > 0 && i < len(c.Bars)-1 && (i <= 2 || i >= len(c.Bars)-3) {
			c.Bars[i].Tick = ""
		}
	}
	return c
}

// BandRow is one line of the band breakdown.
type BandRow struct {
	sudoku.BandInfo
	N int64
}

// BandRows is the band breakdown, easiest first.
func (v StatsView) BandRows() []BandRow {
	counts := v.Stats.BandCounts()
	rows := make([]BandRow, len(sudoku.Bands))
	for i, b := range sudoku.Bands {
		rows[i] = BandRow{b, counts[i]}
	}
	return rows
}

// NoBand counts the puzzles in no band: those with several solutions and
// those waiting for their grade.
func (v StatsView) NoBand() int64 {
	n := v.Total
	for _, c := range v.Stats.BandCounts() {
		n -= c
	}
	return n
}

// BandURL lists the puzzles of band b, hardest first by grade.
func BandURL(b sudoku.Band) string {
	return "/puzzles?sort=grade&order=desc&band=" + string(b)
}

// shareW is n's share of total as the width of a bar 100 units long.
func shareW(n, total int64) string {
	if total <= 0 {
		return "0"
	}
	return num(100 * float64(n) / float64(total))
}

// CollectionBands is where each collection of testdata/puzzles lands, in
// percent of the puzzles graded (an even sample) per band, easiest first,
// as TestBandDistribution in internal/logic prints it. It shows what the
// grade thresholds make of known puzzles (docs/engine.md).
type CollectionBands struct {
	Name    string
	Graded  int
	Median  float64 // grade
	Percent [5]float64
}

// Collections is the table behind the band thresholds (docs/engine.md).
var Collections = []CollectionBands{
	{"kaggle9m_easy_even5000", 400, 1.2, [5]float64{98.2, 0.2, 0.5, 0.8, 0.2}},
	{"norvig_easy50", 50, 1.5, [5]float64{84.0, 16.0, 0, 0, 0}},
	{"17_clue", 400, 2.0, [5]float64{61.0, 24.2, 4.0, 7.5, 3.2}},
	{"sudokuexchange_diabolical_even", 400, 7.1, [5]float64{0, 0, 0.2, 33.5, 66.2}},
	{"magictour_top1465", 400, 7.8, [5]float64{1.5, 17.8, 4.0, 8.2, 68.5}},
	{"forum_hardest_1905_11plus_even", 400, 9.5, [5]float64{0, 0, 0, 0, 100}},
	{"forum_hardest_1106", 375, 9.5, [5]float64{0, 0, 0, 0, 100}},
}

// pct formats a share for the collections table: "97.5%", "–" for none.
func pct(f float64) string {
	if f == 0 {
		return "–"
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + "%"
}

// AllBandsURL is the same history view without the band filter.
func (v HistoryView) AllBandsURL() string {
	v.Band = ""
	return v.query(v.Sort, v.Desc, "")
}

// GradeRow is one line of the grade table: the puzzles whose grade lies in
// one whole point of the scale.
type GradeRow struct {
	Label string // "7.0–7.9"
	N     int64
}

// GradeRows sums the grade counters by whole point, easiest first.
func (v StatsView) GradeRows() []GradeRow {
	byPoint := map[int64]int64{}
	var points []int64
	for _, g := range v.Stats.Grades {
		k := g.Tenths / 10
		if _, ok := byPoint[k]; !ok {
			points = append(points, k)
		}
		byPoint[k] += g.N
	}
	slices.Sort(points)
	rows := make([]GradeRow, len(points))
	for i, k := range points {
		rows[i] = GradeRow{Label: fmt.Sprintf("%d.0–%d.9", k, k), N: byPoint[k]}
	}
	return rows
}

// graded is how many puzzles have a grade.
func (v StatsView) graded() int64 {
	var n int64
	for _, g := range v.Stats.Grades {
		n += g.N
	}
	return n
}

// TechniqueRow is one line of the technique table.
type TechniqueRow struct {
	Technique string
	Range     string // the grades it gave: "7.2" or "6.6–7.3"
	N         int64
}

// TechniqueRows counts the puzzles by hardest technique, the hardest
// technique (by its highest grade) first.
func (v StatsView) TechniqueRows() []TechniqueRow {
	type agg struct{ lo, hi, n int64 }
	m := map[string]*agg{}
	var names []string
	for _, g := range v.Stats.Grades {
		a, ok := m[g.Technique]
		if !ok {
			a = &agg{lo: g.Tenths, hi: g.Tenths}
			m[g.Technique] = a
			names = append(names, g.Technique)
		}
		a.lo, a.hi, a.n = min(a.lo, g.Tenths), max(a.hi, g.Tenths), a.n+g.N
	}
	slices.SortStableFunc(names, func(x, y string) int { return int(m[y].hi - m[x].hi) })
	rows := make([]TechniqueRow, len(names))
	for i, name := range names {
		a := m[name]
		r := fmt.Sprintf("%.1f", float64(a.lo)/10)
		if a.hi != a.lo {
			r += fmt.Sprintf("–%.1f", float64(a.hi)/10)
		}
		rows[i] = TechniqueRow{Technique: name, Range: r, N: a.n}
	}
	return rows
}
