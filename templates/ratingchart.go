package templates

import (
	"fmt"
	"math"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/ratings"
)

// RatingChart is the SVG chart of a player's rating: the rating each
// counted attempt left (account.Summary.Skills), oldest first, as a line
// through a dot for each.
type RatingChart struct {
	Width, Height int
	Points        string // the line's points, "x,y x,y"
	Marks         []RatingMark
	YTicks        []Tick
	Label         string // the chart's words for a screen reader
}

// RatingMark is one counted attempt's dot on RatingChart.
type RatingMark struct {
	X, Y  float64
	Label string // for the title tooltip
}

// Chart geometry of RatingChart.
const (
	ratingW, ratingH          = 600, 180
	ratingLeft, ratingBottom  = 56, 14
	ratingTop, ratingRight    = 10, 14
	ratingPlotW, ratingPlotH  = ratingW - ratingLeft - ratingRight, ratingH - ratingTop - ratingBottom
	ratingStep, ratingMinSpan = 50, 100 // the ticks' step, and the least span shown
)

// RatingChart lays out the history of the player's rating.
func (v MeView) RatingChart() RatingChart {
	c := RatingChart{Width: ratingW, Height: ratingH}
	ks := v.Summary.Skills
	if len(ks) == 0 {
		return c
	}
	rs := make([]int, len(ks))
	lo, hi := math.MaxInt, math.MinInt
	for i, k := range ks {
		rs[i] = ratings.Rating(k.Skill)
		lo, hi = min(lo, rs[i]), max(hi, rs[i])
	}
	// The axis: whole steps around the ratings, at least ratingMinSpan.
	bottom := int(math.Floor(float64(lo)/ratingStep)) * ratingStep
	top := int(math.Ceil(float64(hi)/ratingStep)) * ratingStep
	if top-bottom < ratingMinSpan {
		bottom = int(math.Floor(float64(lo+hi-ratingMinSpan)/2/ratingStep)) * ratingStep
		top = max(bottom+ratingMinSpan, top)
	}
	step := ratingStep
	for (top-bottom)/step > 4 {
		step *= 2
	}
	y := func(r int) float64 { return ratingTop + ratingPlotH*(1-float64(r-bottom)/float64(top-bottom)) }
	x := func(i int) float64 {
		if len(rs) == 1 {
			return ratingLeft + ratingPlotW/2
		}
		return ratingLeft + ratingPlotW*float64(i)/float64(len(rs)-1)
	}
	var pts []string
	for i, r := range rs {
		pts = append(pts, ftoa(x(i))+","+ftoa(y(r)))
		c.Marks = append(c.Marks, RatingMark{X: x(i), Y: y(r),
			Label: fmt.Sprintf("rating %s after the attempt finished %s", Count(r), ks[i].At.Format("2 January 2006"))})
	}
	c.Points = strings.Join(pts, " ")
	for r := bottom; r <= top; r += step {
		c.YTicks = append(c.YTicks, Tick{Pos: y(r), Label: Count(r)})
	}
	c.Label = fmt.Sprintf("My rating after each of my last %s: from %s to %s, now %s",
		Plural(len(rs), "counted attempt", "counted attempts"), Count(lo), Count(hi), Count(rs[len(rs)-1]))
	return c
}
