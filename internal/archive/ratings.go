package archive

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// RatedStore is what the ratings figures need of the store (*store.DB
// provides it): the puzzle classes with enough plays for a players' figure.
type RatedStore interface {
	// RatedPuzzles calls fn for the first entry of every class that has
	// player_seconds (ratings.MinPlays counted plays or more), in id order,
	// and returns how many classes have at least one counted play.
	RatedPuzzles(ctx context.Context, fn func(record.RatedPuzzle) error) (played int64, err error)
}

// MinRatedPuzzles is how many rated puzzles a ρ needs before it is given:
// fewer give a figure that chance alone can make large.
const MinRatedPuzzles = 10

// DefaultRatingsMaxAge is how long the ratings figures are reused: on an
// archive of 12,000 rated classes computing them takes about 150 ms of a
// core, and a minute's plays hardly move a ρ.
const DefaultRatingsMaxAge = 30 * time.Second

// ErrNoRatings is Ratings on an archive whose store keeps no players'
// figures (Options.Rated nil).
var ErrNoRatings = errors.New("this archive keeps no players' figures")

// Ratings are the ratings figures (GET /ratings, GET /api/ratings): how
// well each machine measure predicts how hard the archive's players found
// its puzzles. web maps them to its page and to JSON.
type Ratings struct {
	// MinPlays is how many counted plays a puzzle needs before it takes
	// part; MinPuzzles how many such puzzles a ρ needs before it is given.
	MinPlays, MinPuzzles int
	// Played counts the puzzles with at least one counted play, Rated
	// those with MinPlays or more (Rows, in id order).
	Played, Rated int
	Rows          []record.RatedPuzzle
	Measures      []MeasureFigure // in Measures' order
	Techniques    []TechniqueTime // easiest technique first
}

// MeasureFigure is one machine measure against the players' time.
type MeasureFigure struct {
	Key string // Measures' key: "backtracks", "solve_time", ...
	// Rho is Spearman's ρ, rounded to three places; nil when fewer than
	// MinPuzzles puzzles have the measure, or Flat.
	Rho *float64
	N   int // puzzles behind Rho (those with the measure)
	// Flat: enough puzzles, but the measure (or the players' time) is the
	// same for all of them, so no order to compare.
	Flat   bool
	Points []RatedPoint // one per puzzle with the measure
}

// RatedPoint is one puzzle of a measure's figure: the measure (X), the
// time a typical player needs (Y, seconds), and the puzzle's row.
type RatedPoint struct {
	X, Y float64
	Row  int // index into Ratings.Rows
}

// TechniqueTime is the typical time of the rated puzzles whose hardest
// technique is Technique, placed on the grade scale at Grade.
type TechniqueTime struct {
	Technique string
	Grade     float64
	Puzzles   int
	Seconds   float64 // the median of their players' time
}

// Measure is one machine measure of the ratings figures: its key and the
// value a rated puzzle has (ok false when it has none).
type Measure struct {
	Key   string
	Value func(r record.RatedPuzzle, place map[string]float64) (v float64, ok bool)
}

// Measures are the ratings' measures, in the page's order.
var Measures = []Measure{
	{"backtracks", func(r record.RatedPuzzle, _ map[string]float64) (float64, bool) { return float64(r.Backtracks), true }},
	{"solve_time", func(r record.RatedPuzzle, _ map[string]float64) (float64, bool) {
		return float64(max(r.SolveNS, 1)), true
	}},
	{"clues", func(r record.RatedPuzzle, _ map[string]float64) (float64, bool) { return float64(r.Clues), true }},
	{"grade", func(r record.RatedPuzzle, _ map[string]float64) (float64, bool) {
		return float64(r.GradeTenths) / 10, r.GradeTenths > 0
	}},
	// The hardest technique, placed on the scale at the lowest grade it
	// gave a rated puzzle.
	{"technique", func(r record.RatedPuzzle, place map[string]float64) (float64, bool) {
		v, ok := place[r.Technique]
		return v, ok && r.GradeTenths > 0
	}},
}

// ratingsCache keeps the figures for Options.RatingsMaxAge; one caller
// computes them while the others wait for the result.
type ratingsCache struct {
	mu  sync.Mutex
	at  time.Time
	fig Ratings
}

// Ratings returns the ratings figures, computed at most
// Options.RatingsMaxAge ago; ErrNoRatings without a RatedStore.
func (a *Archive) Ratings(ctx context.Context) (Ratings, error) {
	if a.rated == nil {
		return Ratings{}, ErrNoRatings
	}
	c := &a.ratings
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < a.ratingsMaxAge {
		return c.fig, nil
	}
	var rows []record.RatedPuzzle
	played, err := a.rated.RatedPuzzles(ctx, func(r record.RatedPuzzle) error {
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return Ratings{}, fmt.Errorf("rated puzzles: %w", err)
	}
	c.fig, c.at = RatingsOf(rows, played), time.Now()
	return c.fig, nil
}

// RatingsOf computes the figures from the rated puzzles (in id order) and
// the count of classes with any play.
func RatingsOf(rows []record.RatedPuzzle, played int64) Ratings {
	r := Ratings{MinPlays: ratings.MinPlays, MinPuzzles: MinRatedPuzzles, Played: int(played), Rated: len(rows), Rows: rows}
	place := techniquePlaces(rows)
	for _, m := range Measures {
		r.Measures = append(r.Measures, measureFit(m, rows, place))
	}
	r.Techniques = techniqueTimes(rows, place)
	return r
}

// techniquePlaces places each hardest technique on the grade scale: the
// lowest grade any rated puzzle needing it got (a technique's own grade;
// chains grow with their length).
func techniquePlaces(rows []record.RatedPuzzle) map[string]float64 {
	place := map[string]float64{}
	for _, r := range rows {
		if r.GradeTenths <= 0 || r.Technique == "" {
			continue
		}
		g := float64(r.GradeTenths) / 10
		if old, ok := place[r.Technique]; !ok || g < old {
			place[r.Technique] = g
		}
	}
	return place
}

// measureFit is one measure's ρ and points over the rows that have it.
func measureFit(m Measure, rows []record.RatedPuzzle, place map[string]float64) MeasureFigure {
	f := MeasureFigure{Key: m.Key}
	var xs, ys []float64
	for i, r := range rows {
		x, ok := m.Value(r, place)
		if !ok {
			continue
		}
		y := float64(r.PlayerSeconds)
		xs, ys = append(xs, x), append(ys, y)
		f.Points = append(f.Points, RatedPoint{X: x, Y: y, Row: i})
	}
	f.N = len(xs)
	if len(xs) >= MinRatedPuzzles {
		if rho := ratings.Spearman(xs, ys); !math.IsNaN(rho) {
			rho = math.Round(rho*1000) / 1000
			f.Rho = &rho
		} else {
			f.Flat = true // one side does not vary: no order to compare
		}
	}
	return f
}

// techniqueTimes is the typical time of the rated puzzles by hardest
// technique: the median of their player_seconds, easiest technique first.
func techniqueTimes(rows []record.RatedPuzzle, place map[string]float64) []TechniqueTime {
	byTech := map[string][]float64{}
	for _, r := range rows {
		if _, ok := place[r.Technique]; ok && r.GradeTenths > 0 {
			byTech[r.Technique] = append(byTech[r.Technique], float64(r.PlayerSeconds))
		}
	}
	out := make([]TechniqueTime, 0, len(byTech))
	for name, ts := range byTech {
		out = append(out, TechniqueTime{Technique: name, Grade: place[name], Puzzles: len(ts), Seconds: median(ts)})
	}
	slices.SortFunc(out, func(a, b TechniqueTime) int {
		return cmp.Or(cmp.Compare(a.Grade, b.Grade), cmp.Compare(a.Technique, b.Technique))
	})
	return out
}

// median is the middle of vs (the mean of the two middle values for an
// even count); vs is sorted in place.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	slices.Sort(vs)
	n := len(vs)
	if n%2 == 1 {
		return vs[n/2]
	}
	return (vs[n/2-1] + vs[n/2]) / 2
}
