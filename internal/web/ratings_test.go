package web_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// ratingsJSON is GET /api/ratings.
type ratingsJSON struct {
	MinPlays   int `json:"min_plays"`
	MinPuzzles int `json:"min_puzzles"`
	Played     int `json:"played"`
	Rated      int `json:"rated"`
	Measures   []struct {
		Measure string   `json:"measure"`
		Rho     *float64 `json:"rho"`
		Puzzles int      `json:"puzzles"`
	} `json:"measures"`
	Techniques []struct {
		Technique     string  `json:"technique"`
		Grade         float64 `json:"grade"`
		Puzzles       int     `json:"puzzles"`
		PlayerSeconds int64   `json:"player_seconds"`
	} `json:"techniques"`
}

// page gets an HTML page wanting 200 and parses it.
func (p *player) page(path string) *goquery.Document {
	p.a.t.Helper()
	status, b, _ := p.call(http.MethodGet, path, "")
	if status != http.StatusOK {
		p.a.t.Fatalf("GET %s: %d %s", path, status, b)
	}
	doc, err := goquery.NewDocumentFromReader(bytes.NewReader(b))
	if err != nil {
		p.a.t.Fatal(err)
	}
	return doc
}

// text is the selection's text with its white space collapsed.
func text(s *goquery.Selection) string { return strings.Join(strings.Fields(s.Text()), " ") }

// TestRatingsEmpty: with too few plays the API gives no ρ and the page
// says how many puzzles have plays and what it needs; the puzzle page says
// how many plays a puzzle has short of a typical time.
func TestRatingsEmpty(t *testing.T) {
	a := newArchive(t)
	p := a.player()
	pz := p.submit(mixedPuzzles(t)[0])
	a.grade()
	doc := p.page(fmt.Sprintf("/puzzles/%d", pz.ID))
	if got := text(doc.Find(`[data-testid="players-text"]`)); !strings.HasPrefix(got, "no plays yet") {
		t.Errorf("puzzle page before any play: %q", got)
	}
	p.play(pz, true)
	var r ratingsJSON
	p.json(http.MethodGet, "/api/ratings", "", http.StatusOK, &r)
	if r.Played != 1 || r.Rated != 0 || len(r.Measures) != 5 || r.MinPlays != ratings.MinPlays || r.MinPuzzles != web.MinRatedPuzzles {
		t.Errorf("ratings after one play: %+v", r)
	}
	for _, m := range r.Measures {
		if m.Rho != nil || m.Puzzles != 0 {
			t.Errorf("measure %s: ρ %v of %d puzzles, want none", m.Measure, m.Rho, m.Puzzles)
		}
	}
	doc = p.page("/ratings")
	if got := text(doc.Find(`[data-testid="ratings-empty"]`)); !strings.Contains(got, "0 puzzles have") || !strings.Contains(got, "1 puzzle has at least one") {
		t.Errorf("empty state: %q", got)
	}
	if doc.Find("svg.chart-svg").Length() != 0 {
		t.Error("the page draws charts without enough plays")
	}
	doc = p.page(fmt.Sprintf("/puzzles/%d", pz.ID))
	want := fmt.Sprintf("not enough plays yet for a typical player's time (it needs %d): 1 play, 100%% solved", ratings.MinPlays)
	if got := text(doc.Find(`[data-testid="players-text"]`)); got != want {
		t.Errorf("puzzle page after one play: %q, want %q", got, want)
	}
}

// TestRatingsFigures plays eleven puzzles three times each through the
// API (some given up), then checks GET /api/ratings against figures
// computed here from the puzzle objects with an independent Spearman
// (puzzletest's): each measure's ρ and count, the typical time by
// technique; and the page: its table, a chart per measure with a dot per
// puzzle, the puzzle page's "typical player" line and the history sorted
// by player time.
func TestRatingsFigures(t *testing.T) {
	racefree.Only(t)
	a := newArchive(t)
	owner := a.player()
	var ps []puzzle
	for _, s := range mixedPuzzles(t) {
		ps = append(ps, owner.submit(s))
	}
	a.grade()
	for i := range ratings.MinPlays {
		pl := a.player()
		for j, pz := range ps {
			pl.play(pz, (i+j)%4 != 0)
		}
	}
	for i := range ps {
		owner.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", ps[i].ID), "", http.StatusOK, &ps[i])
		if ps[i].Plays != ratings.MinPlays || ps[i].PlayerSeconds == nil {
			t.Fatalf("#%d after %d plays: %+v", ps[i].ID, ratings.MinPlays, ps[i])
		}
	}
	var r ratingsJSON
	owner.json(http.MethodGet, "/api/ratings", "", http.StatusOK, &r)
	if r.Played != len(ps) || r.Rated != len(ps) {
		t.Fatalf("played %d, rated %d, want %d each", r.Played, r.Rated, len(ps))
	}
	want := expectedRhos(ps)
	for _, m := range r.Measures {
		w, ok := want[m.Measure]
		if !ok || m.Puzzles != w.n || m.Rho == nil || fmt.Sprintf("%.3f", *m.Rho) != fmt.Sprintf("%.3f", w.rho) {
			t.Errorf("measure %s: ρ %v of %d puzzles, want %.3f of %d", m.Measure, m.Rho, m.Puzzles, w.rho, w.n)
		}
	}
	checkTechniqueTimes(t, r, ps)
	checkRatingsPage(t, owner, ps)
	doc := owner.page(fmt.Sprintf("/puzzles/%d", ps[0].ID))
	line := text(doc.Find(`[data-testid="players-text"]`))
	if !strings.HasPrefix(line, "typical player: ") || !strings.Contains(line, fmt.Sprintf("%d plays, ", ratings.MinPlays)) || !strings.HasSuffix(line, "% solved") {
		t.Errorf("puzzle page: %q", line)
	}
	doc = owner.page("/puzzles?sort=player_time&order=asc")
	if n := doc.Find(`[data-testid="col-player-time"]`).FilterFunction(func(_ int, s *goquery.Selection) bool {
		return text(s) != "–"
	}).Length(); n != len(ps) {
		t.Errorf("history by player time shows %d player times, want %d", n, len(ps))
	}
	if got := text(doc.Find(`select#sort option[selected]`)); got != "Player time" {
		t.Errorf("the sort control shows %q", got)
	}
}

// rhoWant is a measure's expected ρ over n puzzles.
type rhoWant struct {
	rho float64
	n   int
}

// expectedRhos computes each measure's ρ against player_seconds from the
// puzzle objects, as docs/api.md defines them.
func expectedRhos(ps []puzzle) map[string]rhoWant {
	place := map[string]float64{}
	for _, p := range ps {
		if p.Grade != nil {
			if g, ok := place[p.Technique]; !ok || *p.Grade < g {
				place[p.Technique] = *p.Grade
			}
		}
	}
	xs := map[string][]float64{}
	ys := map[string][]float64{}
	add := func(k string, x float64, y int64) {
		xs[k] = append(xs[k], x)
		ys[k] = append(ys[k], float64(y))
	}
	for _, p := range ps {
		y := *p.PlayerSeconds
		add("backtracks", float64(p.Backtracks), y)
		add("solve_time", float64(max(p.SolveNS, 1)), y)
		add("clues", float64(p.Clues), y)
		if p.Grade != nil {
			add("grade", *p.Grade, y)
			add("technique", place[p.Technique], y)
		}
	}
	out := map[string]rhoWant{}
	for k := range xs {
		out[k] = rhoWant{puzzletest.Spearman(xs[k], ys[k]), len(xs[k])}
	}
	return out
}

// checkTechniqueTimes: each hardest technique's puzzles and the median of
// their player_seconds.
func checkTechniqueTimes(t *testing.T, r ratingsJSON, ps []puzzle) {
	t.Helper()
	secs := map[string][]int64{}
	for _, p := range ps {
		if p.Grade != nil {
			secs[p.Technique] = append(secs[p.Technique], *p.PlayerSeconds)
		}
	}
	if len(r.Techniques) != len(secs) {
		t.Errorf("%d techniques, want %d", len(r.Techniques), len(secs))
	}
	for i, tt := range r.Techniques {
		s := secs[tt.Technique]
		if tt.Puzzles != len(s) {
			t.Errorf("%s: %d puzzles, want %d", tt.Technique, tt.Puzzles, len(s))
		}
		if i > 0 && r.Techniques[i-1].Grade > tt.Grade {
			t.Errorf("%s comes after the harder %s", tt.Technique, r.Techniques[i-1].Technique)
		}
		var lo, hi int64 = 1 << 62, 0
		for _, v := range s {
			lo, hi = min(lo, v), max(hi, v)
		}
		if tt.PlayerSeconds < lo || tt.PlayerSeconds > hi {
			t.Errorf("%s: typical %d s outside its puzzles' %d–%d s", tt.Technique, tt.PlayerSeconds, lo, hi)
		}
	}
}

// checkRatingsPage: the ρ table and one chart per measure, a dot per
// puzzle that has the measure.
func checkRatingsPage(t *testing.T, p *player, ps []puzzle) {
	t.Helper()
	doc := p.page("/ratings")
	if doc.Find(`[data-testid="ratings-empty"]`).Length() != 0 {
		t.Fatal("the page shows its empty state")
	}
	graded := 0
	for _, pz := range ps {
		if pz.Grade != nil {
			graded++
		}
	}
	for _, m := range []struct {
		key  string
		dots int
	}{{"backtracks", len(ps)}, {"solve_time", len(ps)}, {"clues", len(ps)}, {"grade", graded}, {"technique", graded}} {
		if got := text(doc.Find(`[data-testid="rho-` + m.key + `"] [data-testid="rho-n"]`)); got != fmt.Sprint(m.dots) {
			t.Errorf("%s: the table says %q puzzles, want %d", m.key, got, m.dots)
		}
		if n := doc.Find(`[data-testid="chart-` + m.key + `-dots"] circle`).Length(); n != m.dots {
			t.Errorf("%s: %d dots, want %d", m.key, n, m.dots)
		}
	}
	if doc.Find(`[data-testid="technique-time"]`).Length() == 0 {
		t.Error("no typical time by technique")
	}
}

// TestRatingsCached: the figures are reused for Config.RatingsMaxAge
// (a play in between does not show), and computed at every request with
// a negative one.
func TestRatingsCached(t *testing.T) {
	for _, tc := range []struct {
		maxAge time.Duration
		want   int // classes played, as the second request sees them
	}{{time.Hour, 1}, {-1, 2}} {
		a := newArchiveWith(t, web.Config{RatingsMaxAge: tc.maxAge})
		p := a.player()
		var ps []puzzle
		for _, s := range mixedPuzzles(t)[:2] {
			ps = append(ps, p.submit(s))
		}
		a.grade()
		p.play(ps[0], true)
		var r ratingsJSON
		p.json(http.MethodGet, "/api/ratings", "", http.StatusOK, &r)
		if r.Played != 1 {
			t.Fatalf("max age %v: played %d after one play", tc.maxAge, r.Played)
		}
		p.play(ps[1], false)
		p.json(http.MethodGet, "/api/ratings", "", http.StatusOK, &r)
		if r.Played != tc.want {
			t.Errorf("max age %v: the second request sees %d played, want %d", tc.maxAge, r.Played, tc.want)
		}
	}
}
