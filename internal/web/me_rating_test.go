package web_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/templates"
)

// TestMeRating: /me shows the player's rating, the players' model's skill
// on the chess trainers' scale (issue 46): typical before any counted
// solve, then moved by each, the figure /api/me's skill gives; the answer
// to each counted finish gives the rating before and after it, and the
// chart of its history has a dot for each counted attempt.
func TestMeRating(t *testing.T) {
	a := newArchive(t)
	p := a.player()
	var ps []puzzle
	for _, l := range puzzletest.Lines(t, puzzletest.Kaggle, 3) {
		ps = append(ps, p.submit(l[:81]))
	}
	a.grade()
	var marks []string // the rating chart's dots' titles
	rating := func() string {
		status, b, _ := p.call(http.MethodGet, "/me", "")
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(b))
		if status != http.StatusOK || err != nil {
			t.Fatalf("/me: %d %v", status, err)
		}
		marks = nil
		doc.Find(`[data-testid="me-rating-chart"] [data-testid="me-rating-mark"] title`).Each(func(_ int, s *goquery.Selection) {
			marks = append(marks, s.Text())
		})
		return strings.TrimSpace(doc.Find(`[data-testid="me-rating"]`).Text())
	}
	// An open attempt makes the player known, and counts for nothing.
	p.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, ps[2].ID), http.StatusCreated, nil)
	if got := rating(); got != "1,500" || len(marks) != 0 {
		t.Errorf("a new player's rating %q, %d points of history; want 1,500 and none", got, len(marks))
	}
	prev := "1,500"
	for i, pz := range ps[:2] {
		p.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", pz.ID), "", http.StatusOK, &pz)
		var at struct{ ID int64 }
		p.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusCreated, &at)
		var fin struct {
			Before *int `json:"rating_before"`
			After  *int `json:"rating_after"`
		}
		p.json(http.MethodPost, fmt.Sprintf("/api/attempts/%d", at.ID), fmt.Sprintf(`{"outcome": "solved", "grid": %q, "active_seconds": 600}`, pz.Solution), http.StatusOK, &fin)
		if fin.Before == nil || fin.After == nil || templates.Count(*fin.Before) != prev {
			t.Fatalf("the finish answered rating %v → %v, want from %s", fin.Before, fin.After, prev)
		}
		var me struct{ Skill float64 }
		p.json(http.MethodGet, "/api/me", "", http.StatusOK, &me)
		got := rating()
		if want := templates.Count(ratings.Rating(me.Skill)); got != want || got == prev || got != templates.Count(*fin.After) {
			t.Errorf("after a counted solve: rating %q, want %q (skill %.3f), moved from %q", got, want, me.Skill, prev)
		}
		prev = got
		// The chart: a dot for each counted attempt, the last the rating now.
		if n := len(marks); n != i+1 || !strings.HasPrefix(marks[n-1], "rating "+got+" ") {
			t.Errorf("after %d counted attempts the chart's dots say %q, want %d, the last rating %s", i+1, marks, i+1, got)
		}
	}
}
