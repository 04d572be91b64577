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
// to each counted finish gives the rating before and after it.
func TestMeRating(t *testing.T) {
	a := newArchive(t)
	p := a.player()
	var ps []puzzle
	for _, l := range puzzletest.Lines(t, puzzletest.Kaggle, 3) {
		ps = append(ps, p.submit(l[:81]))
	}
	a.grade()
	rating := func() string {
		status, b, _ := p.call(http.MethodGet, "/me", "")
		doc, err := goquery.NewDocumentFromReader(bytes.NewReader(b))
		if status != http.StatusOK || err != nil {
			t.Fatalf("/me: %d %v", status, err)
		}
		return strings.TrimSpace(doc.Find(`[data-testid="me-rating"]`).Text())
	}
	// An open attempt makes the player known, and counts for nothing.
	p.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, ps[2].ID), http.StatusCreated, nil)
	if got := rating(); got != "1,500" {
		t.Errorf("a new player's rating %q, want 1,500", got)
	}
	prev := "1,500"
	for _, pz := range ps[:2] {
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
	}
}
