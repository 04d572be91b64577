package web

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/templates"
)

// RatedArchive is what the ratings page needs of the archive (*store.DB
// provides it): the puzzle classes with enough plays for a players' figure.
type RatedArchive interface {
	// RatedPuzzles calls fn for the first entry of every class that has
	// player_seconds (ratings.MinPlays counted plays or more), in id order,
	// and returns how many classes have at least one counted play.
	RatedPuzzles(ctx context.Context, fn func(sudoku.RatedPuzzle) error) (played int64, err error)
}

// MinRatedPuzzles is how many rated puzzles a ρ needs before the ratings
// page gives it: fewer give a figure that chance alone can make large.
const MinRatedPuzzles = 10

// measureDef is one machine measure of the ratings page.
type measureDef struct {
	key, name, about string
	axis             templates.Axis
	// x is the puzzle's value; ok is false when it has none (no grade).
	x func(r sudoku.RatedPuzzle, place map[string]float64) (v float64, ok bool)
	// text writes the value for a dot's tooltip.
	text func(r sudoku.RatedPuzzle, v float64) string
}

// measureDefs are the measures, in the page's order.
var measureDefs = []measureDef{
	{key: "backtracks", name: "Backtracks", about: "Digits the backtracking search guessed and took back (log scale).",
		axis: templates.Axis{Label: "Backtracks (log scale)", Log: true, Offset: 1, Format: func(v float64) string { return templates.Compact(int64(v)) }},
		x:    func(r sudoku.RatedPuzzle, _ map[string]float64) (float64, bool) { return float64(r.Backtracks), true },
		text: func(_ sudoku.RatedPuzzle, v float64) string {
			return templates.Plural(int64(v), "backtrack", "backtracks")
		}},
	{key: "solve_time", name: "Solve time", about: "The search's median time on this server (log scale).",
		axis: templates.Axis{Label: "Search time (log scale)", Log: true, Format: templates.ShortNS},
		x: func(r sudoku.RatedPuzzle, _ map[string]float64) (float64, bool) {
			return float64(max(r.SolveNS, 1)), true
		},
		text: func(_ sudoku.RatedPuzzle, v float64) string { return "search " + templates.Duration(int64(v)) }},
	{key: "clues", name: "Clues", about: "Digits given at the start: fewer is not always harder.",
		axis: templates.Axis{Label: "Clues"},
		x:    func(r sudoku.RatedPuzzle, _ map[string]float64) (float64, bool) { return float64(r.Clues), true },
		text: func(_ sudoku.RatedPuzzle, v float64) string { return templates.Plural(int64(v), "clue", "clues") }},
	{key: "grade", name: "Grade", about: "The human-style grade, on Sudoku Explainer's scale (graded puzzles only).",
		axis: templates.Axis{Label: "Grade"},
		x: func(r sudoku.RatedPuzzle, _ map[string]float64) (float64, bool) {
			return float64(r.GradeTenths) / 10, r.GradeTenths > 0
		},
		text: func(_ sudoku.RatedPuzzle, v float64) string { return "grade " + strconv.FormatFloat(v, 'f', 1, 64) }},
	{key: "technique", name: "Hardest technique",
		about: "The hardest technique on the logical path, placed on the scale at the lowest grade it gave a rated puzzle: the technique alone, without the length of its chains.",
		axis:  templates.Axis{Label: "Hardest technique, by its place on the grade scale"},
		x: func(r sudoku.RatedPuzzle, place map[string]float64) (float64, bool) {
			v, ok := place[r.Technique]
			return v, ok && r.GradeTenths > 0
		},
		text: func(r sudoku.RatedPuzzle, _ float64) string { return r.Technique }},
}

// ratingsFigures reads the rated puzzles and sets each measure against
// their players' time.
func (s *Server) ratingsFigures(ctx context.Context) (templates.RatingsView, error) {
	var rows []sudoku.RatedPuzzle
	played, err := s.rated.RatedPuzzles(ctx, func(r sudoku.RatedPuzzle) error {
		rows = append(rows, r)
		return nil
	})
	if err != nil {
		return templates.RatingsView{}, fmt.Errorf("rated puzzles: %w", err)
	}
	return RatingsOf(rows, played), nil
}

// RatingsOf computes the ratings page from the rated puzzles (in id
// order) and the count of classes with any play.
func RatingsOf(rows []sudoku.RatedPuzzle, played int64) templates.RatingsView {
	v := templates.RatingsView{
		MinPlays: ratings.MinPlays, MinPuzzles: MinRatedPuzzles,
		Played: int(played), Rated: len(rows),
	}
	place := techniquePlaces(rows)
	for _, d := range measureDefs {
		v.Measures = append(v.Measures, measureFit(d, rows, place))
	}
	v.Techniques = techniqueTimes(rows, place)
	return v
}

// techniquePlaces places each hardest technique on the grade scale: the
// lowest grade any rated puzzle needing it got (a technique's own grade;
// chains grow with their length).
func techniquePlaces(rows []sudoku.RatedPuzzle) map[string]float64 {
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

// measureFit is one measure's ρ and chart over the rows that have it.
func measureFit(d measureDef, rows []sudoku.RatedPuzzle, place map[string]float64) templates.MeasureFit {
	m := templates.MeasureFit{Key: d.key, Name: d.name, About: d.about}
	var xs, ys []float64
	c := templates.Scatter{
		ID: "chart-" + d.key, Title: d.name + " against the players' time",
		Desc: "One dot per puzzle with enough plays: " + d.name + " across, the time a typical player needs up.",
		X:    d.axis,
		Y:    templates.Axis{Label: "Typical player's time (log scale)", Log: true, Format: templates.ShortTime, Ticks: templates.TimeTicks},
	}
	for _, r := range rows {
		x, ok := d.x(r, place)
		if !ok {
			continue
		}
		y := float64(r.PlayerSeconds)
		xs, ys = append(xs, x), append(ys, y)
		c.Points = append(c.Points, templates.Point{X: x, Y: y, Label: fmt.Sprintf("#%d: %s; typical player %s (%s)",
			r.ID, d.text(r, x), templates.ShortTime(y), templates.Plural(r.Plays, "play", "plays"))})
	}
	m.N, m.Chart = len(xs), c
	if len(xs) >= MinRatedPuzzles {
		if rho := ratings.Spearman(xs, ys); !math.IsNaN(rho) {
			rho = math.Round(rho*1000) / 1000
			m.Rho = &rho
		} else {
			m.Flat = true // one side does not vary: no order to compare
		}
	}
	return m
}

// techniqueTimes is the typical time of the rated puzzles by hardest
// technique: the median of their player_seconds, easiest technique first.
func techniqueTimes(rows []sudoku.RatedPuzzle, place map[string]float64) []templates.TechniqueTime {
	byTech := map[string][]float64{}
	for _, r := range rows {
		if _, ok := place[r.Technique]; ok && r.GradeTenths > 0 {
			byTech[r.Technique] = append(byTech[r.Technique], float64(r.PlayerSeconds))
		}
	}
	out := make([]templates.TechniqueTime, 0, len(byTech))
	for name, ts := range byTech {
		out = append(out, templates.TechniqueTime{Technique: name, Grade: place[name], Puzzles: len(ts), Seconds: median(ts)})
	}
	slices.SortFunc(out, func(a, b templates.TechniqueTime) int {
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

// ratingsResponse is the answer to GET /api/ratings.
type ratingsResponse struct {
	MinPlays   int                `json:"min_plays"`
	MinPuzzles int                `json:"min_puzzles"`
	Played     int                `json:"played"`
	Rated      int                `json:"rated"`
	Measures   []measureResponse  `json:"measures"`
	Techniques []techniqueSummary `json:"techniques"`
}

type measureResponse struct {
	Measure string   `json:"measure"`
	Rho     *float64 `json:"rho"`
	Puzzles int      `json:"puzzles"`
}

type techniqueSummary struct {
	Technique     string  `json:"technique"`
	Grade         float64 `json:"grade"`
	Puzzles       int     `json:"puzzles"`
	PlayerSeconds int64   `json:"player_seconds"`
}

// apiRatings is GET /api/ratings: the ratings page's figures as JSON.
func (s *Server) apiRatings(c echo.Context) error {
	v, err := s.ratingsFigures(c.Request().Context())
	if err != nil {
		return err
	}
	res := ratingsResponse{MinPlays: v.MinPlays, MinPuzzles: v.MinPuzzles, Played: v.Played, Rated: v.Rated,
		Measures: []measureResponse{}, Techniques: []techniqueSummary{}}
	for _, m := range v.Measures {
		res.Measures = append(res.Measures, measureResponse{Measure: m.Key, Rho: m.Rho, Puzzles: m.N})
	}
	for _, t := range v.Techniques {
		res.Techniques = append(res.Techniques, techniqueSummary{Technique: t.Technique, Grade: t.Grade,
			Puzzles: t.Puzzles, PlayerSeconds: int64(math.Round(t.Seconds))})
	}
	return c.JSON(http.StatusOK, res)
}

// ratingsPage is GET /ratings.
func (s *Server) ratingsPage(c echo.Context) error {
	v, err := s.ratingsFigures(c.Request().Context())
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.RatingsPage(v))
}
