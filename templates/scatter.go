package templates

import (
	"math"
	"strconv"
)

// Scatter is a scatter chart the ratings page draws as SVG on the server:
// one dot per puzzle, a machine measure across, the players' typical time
// up. Like the stats page's histograms it needs no JavaScript, scales to
// its box (no sideways scroll on a phone) and takes its colours from the
// page's light or dark palette.
type Scatter struct {
	ID     string // unique on the page: the SVG's title and desc ids derive from it
	Title  string
	Desc   string // one sentence for the text alternative
	X, Y   Axis
	Points []Point
	// Label, when set, writes the tooltip of point i instead of its Label:
	// only the dots drawn are labelled, which on a large archive saves
	// writing thousands of sentences no one sees.
	Label func(i int) string
}

// Axis is one axis of a Scatter.
type Axis struct {
	Label string
	// Log draws the axis on a log scale, of the value plus Offset (1 for a
	// count that may be 0, such as backtracks).
	Log    bool
	Offset float64
	// Format writes a tick's value; nil writes the number.
	Format func(float64) string
	// Ticks are the values the axis may be marked at (nil: round numbers);
	// those inside the data's range are used, thinned to at most six.
	Ticks []float64
}

// Point is one dot of a Scatter.
type Point struct {
	X, Y  float64
	Label string // the dot's tooltip: which puzzle, and its two figures
}

// MaxScatterPoints is the most dots a chart draws: past it every k-th
// point is drawn (the chart's desc says so), which keeps the page light on
// an archive of many played puzzles. The ρ beside it is of every point.
const MaxScatterPoints = 1500

// The SVG geometry of a scatter chart, in user units.
const (
	scatterW      = 640
	scatterH      = 300
	scatterLeft   = 88 // room for "20 min" in the chart's larger type and the y axis label
	scatterRight  = 16
	scatterTop    = 14
	scatterBottom = 52
	scatterPlotW  = scatterW - scatterLeft - scatterRight
	scatterPlotH  = scatterH - scatterTop - scatterBottom
	maxTicks      = 6
)

// scatterFrame is a Scatter's frame (axes.templ).
var scatterFrame = frame{W: scatterW, H: scatterH, Left: scatterLeft, Right: scatterRight, Top: scatterTop, Bottom: scatterBottom, YLabelX: 18}

// scale maps v to the axis's drawing space (its log when Log).
func (a Axis) scale(v float64) float64 {
	if a.Log {
		return math.Log10(math.Max(v+a.Offset, 1e-9))
	}
	return v
}

// label writes a tick's value.
func (a Axis) label(v float64) string {
	if a.Format != nil {
		return a.Format(v)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// span is the axis's range in drawing space, padded so that no dot sits
// on the frame; a single value gets a range around it.
func (a Axis) span(vs []float64) (lo, hi float64) {
	if len(vs) == 0 {
		return 0, 1
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		s := a.scale(v)
		lo, hi = math.Min(lo, s), math.Max(hi, s)
	}
	if hi-lo < 1e-9 {
		return lo - 0.5, hi + 0.5
	}
	pad := (hi - lo) * 0.05
	return lo - pad, hi + pad
}

// extend widens a log axis's range [lo, hi] (drawing space) with fewer
// than two marks inside out to the nearest marks around it: a range of 70
// to 110 seconds is drawn from 1 to 2 minutes, not left unmarked between
// them. A mark more than the range's own width away is not reached for.
func (a Axis) extend(lo, hi float64) (float64, float64) {
	if !a.Log {
		return lo, hi
	}
	cands := a.Ticks
	if cands == nil {
		cands = roundTicks(a, lo, hi)
	}
	if countIn(a, cands, lo, hi) >= 2 {
		return lo, hi
	}
	w := hi - lo
	below, above := math.Inf(-1), math.Inf(1)
	for _, v := range cands {
		s := a.scale(v)
		if s <= lo {
			below = math.Max(below, s)
		}
		if s >= hi {
			above = math.Min(above, s)
		}
	}
	if lo-below <= w {
		lo = below
	}
	if above-hi <= w {
		hi = above
	}
	return lo, hi
}

// ticks returns the values the axis is marked at, inside [lo, hi] of
// drawing space: the Axis's own candidates, or round numbers (powers of
// ten, and 2 and 5 times them when that leaves too few, on a log scale; a
// 1-2-5 step on a linear one), at most maxTicks of them.
func (a Axis) ticks(lo, hi float64) []float64 {
	cands := a.Ticks
	if cands == nil {
		cands = roundTicks(a, lo, hi)
	}
	var in []float64
	for _, v := range cands {
		if s := a.scale(v); s >= lo && s <= hi {
			in = append(in, v)
		}
	}
	if len(in) > maxTicks {
		step := (len(in) + maxTicks - 1) / maxTicks
		var kept []float64
		for i := 0; i < len(in); i += step {
			kept = append(kept, in[i])
		}
		in = kept
	}
	return in
}

// roundTicks are the round candidates of [lo, hi] (drawing space).
func roundTicks(a Axis, lo, hi float64) []float64 {
	var out []float64
	if a.Log {
		// An offset axis counts from 0 in whole numbers: 0, then round
		// numbers from 1 up.
		first := math.Floor(lo) - 1
		if a.Offset > 0 {
			first = 0
		}
		for _, mults := range [][]float64{{1}, {1, 2, 5}} {
			out = out[:0]
			if a.Offset > 0 {
				out = append(out, 0)
			}
			for e := first; e <= math.Ceil(hi); e++ {
				for _, m := range mults {
					out = append(out, m*math.Pow(10, e))
				}
			}
			if countIn(a, out, lo, hi) >= 3 {
				break
			}
		}
		return out
	}
	step := niceStep((hi - lo) / 5)
	for v := math.Ceil(lo/step) * step; v <= hi; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// countIn counts the values of vs inside [lo, hi] of drawing space.
func countIn(a Axis, vs []float64, lo, hi float64) int {
	n := 0
	for _, v := range vs {
		if s := a.scale(v); s >= lo && s <= hi {
			n++
		}
	}
	return n
}

// niceStep is the smallest of 1, 2 or 5 times a power of ten at least x.
func niceStep(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// ScatterLayout is a Scatter placed in the SVG: every coordinate, ready
// for the template.
type ScatterLayout struct {
	Dots           []Dot
	XTicks, YTicks []Tick
	Drawn, Total   int // dots drawn, points behind the chart
}

// Dot is one drawn point.
type Dot struct {
	CX, CY string
	Label  string
}

// Layout places c's points and ticks.
func (c Scatter) Layout() ScatterLayout {
	xs := make([]float64, len(c.Points))
	ys := make([]float64, len(c.Points))
	for i, p := range c.Points {
		xs[i], ys[i] = p.X, p.Y
	}
	xlo, xhi := c.X.extend(c.X.span(xs))
	ylo, yhi := c.Y.extend(c.Y.span(ys))
	px := func(v float64) float64 {
		return scatterLeft + scatterPlotW*(c.X.scale(v)-xlo)/(xhi-xlo)
	}
	py := func(v float64) float64 {
		return scatterTop + scatterPlotH*(1-(c.Y.scale(v)-ylo)/(yhi-ylo))
	}
	l := ScatterLayout{Total: len(c.Points)}
	step := (len(c.Points) + MaxScatterPoints - 1) / MaxScatterPoints
	for i := 0; i < len(c.Points); i += max(step, 1) {
		p := c.Points[i]
		label := p.Label
		if c.Label != nil {
			label = c.Label(i)
		}
		l.Dots = append(l.Dots, Dot{CX: num(px(p.X)), CY: num(py(p.Y)), Label: label})
	}
	l.Drawn = len(l.Dots)
	for _, v := range c.X.ticks(xlo, xhi) {
		l.XTicks = append(l.XTicks, Tick{Pos: px(v), Label: c.X.label(v)})
	}
	for _, v := range c.Y.ticks(ylo, yhi) {
		l.YTicks = append(l.YTicks, Tick{Pos: py(v), Label: c.Y.label(v)})
	}
	return l
}

// thinned says, for the chart's desc, that not every point is drawn.
func (l ScatterLayout) thinned() string {
	if l.Drawn >= l.Total {
		return ""
	}
	return " " + Count(l.Drawn) + " of the " + Count(l.Total) + " puzzles are drawn, evenly spread."
}

// TimeTicks are the marks of a time axis in seconds: round times from 10
// seconds to a day.
var TimeTicks = []float64{10, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 18000, 36000, 86400}

// ShortNS writes a round search time in nanoseconds for an axis: "5µs",
// "20ms".
func ShortNS(ns float64) string { return shortDuration(int64(math.Round(ns))) }

// ShortTime writes a duration in seconds the short way an axis or a table
// cell wants: "45 s", "14 min", "1 h 20 min".
func ShortTime(s float64) string {
	sec := int64(math.Round(s))
	switch {
	case sec < 60:
		return strconv.FormatInt(sec, 10) + " s"
	case sec < 3600:
		return strconv.FormatInt((sec+30)/60, 10) + " min"
	}
	m := (sec + 30) / 60
	if m%60 == 0 {
		return strconv.FormatInt(m/60, 10) + " h"
	}
	return strconv.FormatInt(m/60, 10) + " h " + strconv.FormatInt(m%60, 10) + " min"
}
