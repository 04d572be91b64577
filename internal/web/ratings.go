package web

import (
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/templates"
)

// RatedArchive is what the ratings page needs of the archive (*store.DB
// provides it): archive.RatedStore.
type RatedArchive = archive.RatedStore

// MinRatedPuzzles is how many rated puzzles a ρ needs before the ratings
// page gives it (archive.MinRatedPuzzles).
const MinRatedPuzzles = archive.MinRatedPuzzles

// measureView is how the ratings page shows one machine measure of
// archive.Measures, by its key.
type measureView struct {
	name, about string
	axis        templates.Axis
	// text writes the value for a dot's tooltip.
	text func(r record.RatedPuzzle, v float64) string
}

// measureViews are the page's words and axes of each measure.
var measureViews = map[string]measureView{
	"backtracks": {name: "Backtracks", about: "Digits the backtracking search guessed and took back (log scale).",
		axis: templates.Axis{Label: "Backtracks (log scale)", Log: true, Offset: 1, Format: func(v float64) string { return templates.Compact(int64(v)) }},
		text: func(_ record.RatedPuzzle, v float64) string {
			return templates.Plural(int64(v), "backtrack", "backtracks")
		}},
	"solve_time": {name: "Solve time", about: "The search's median time on this server (log scale).",
		axis: templates.Axis{Label: "Search time (log scale)", Log: true, Format: templates.ShortNS},
		text: func(_ record.RatedPuzzle, v float64) string { return "search " + templates.Duration(int64(v)) }},
	"clues": {name: "Clues", about: "Digits given at the start: fewer is not always harder.",
		axis: templates.Axis{Label: "Clues"},
		text: func(_ record.RatedPuzzle, v float64) string { return templates.Plural(int64(v), "clue", "clues") }},
	"grade": {name: "Grade", about: "The human-style grade, on Sudoku Explainer's scale (graded puzzles only).",
		axis: templates.Axis{Label: "Grade"},
		text: func(_ record.RatedPuzzle, v float64) string { return "grade " + strconv.FormatFloat(v, 'f', 1, 64) }},
	"technique": {name: "Hardest technique",
		about: "The hardest technique on the logical path, placed on the scale at the lowest grade it gave a rated puzzle: the technique alone, without the length of its chains.",
		axis:  templates.Axis{Label: "Hardest technique, by its place on the grade scale"},
		text:  func(r record.RatedPuzzle, _ float64) string { return r.Technique }},
}

// DefaultRatingsMaxAge is how long the ratings page's figures are reused
// (archive.DefaultRatingsMaxAge).
const DefaultRatingsMaxAge = archive.DefaultRatingsMaxAge

// RatingsOf computes the ratings page from the rated puzzles (in id
// order) and the count of classes with any play.
func RatingsOf(rows []record.RatedPuzzle, played int64) templates.RatingsView {
	return ratingsView(archive.RatingsOf(rows, played))
}

// ratingsView is the ratings page of the archive's figures.
func ratingsView(r archive.Ratings) templates.RatingsView {
	v := templates.RatingsView{MinPlays: r.MinPlays, MinPuzzles: r.MinPuzzles, Played: r.Played, Rated: r.Rated}
	for _, m := range r.Measures {
		v.Measures = append(v.Measures, measureFit(m, r.Rows))
	}
	for _, t := range r.Techniques {
		v.Techniques = append(v.Techniques, templates.TechniqueTime{Technique: t.Technique, Grade: t.Grade, Puzzles: t.Puzzles, Seconds: t.Seconds})
	}
	return v
}

// measureFit is one measure's ρ and chart.
func measureFit(f archive.MeasureFigure, rows []record.RatedPuzzle) templates.MeasureFit {
	d := measureViews[f.Key]
	m := templates.MeasureFit{Key: f.Key, Name: d.name, About: d.about, Rho: f.Rho, N: f.N, Flat: f.Flat}
	c := templates.Scatter{
		ID: "chart-" + f.Key, Title: d.name + " against the players' time",
		Desc: "One dot per puzzle with enough plays: " + d.name + " across, the time a typical player needs up.",
		X:    d.axis,
		Y:    templates.Axis{Label: "Typical player's time (log scale)", Log: true, Format: templates.ShortTime, Ticks: templates.TimeTicks},
	}
	for _, p := range f.Points {
		c.Points = append(c.Points, templates.Point{X: p.X, Y: p.Y})
	}
	c.Label = func(i int) string {
		r := rows[f.Points[i].Row]
		return fmt.Sprintf("#%d: %s; typical player %s (%s)", r.ID, d.text(r, c.Points[i].X),
			templates.ShortTime(c.Points[i].Y), templates.Plural(r.Plays, "play", "plays"))
	}
	m.Chart = c
	return m
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
	v, err := s.arch.Ratings(c.Request().Context())
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
	v, err := s.arch.Ratings(c.Request().Context())
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.RatingsPage(ratingsView(v)))
}
