package main

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
)

// TestListPlayed filters the history by the player's attempts through the
// real server: played=solved and played=unplayed on /api/puzzles and the
// history page, with exact totals and cursors; without a player the
// parameter is a 400 that says why, and the page offers no such filter.
func TestListPlayed(t *testing.T) {
	srv := startServe(t, sqliteArchive(t), "--rate-limit", "0")
	ann := newClient(t, srv.url)
	var pzs []puzzleJSON
	for _, line := range puzzletest.Lines(t, puzzletest.Diabolical, 5) {
		var pz puzzleJSON
		ann.json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, line), http.StatusCreated, &pz)
		pzs = append(pzs, pz)
	}

	// No player yet.
	for _, path := range []string{"/api/puzzles?played=solved", "/puzzles?played=unplayed"} {
		status, body, _ := ann.do(http.MethodGet, path, "")
		if status != http.StatusBadRequest || !strings.Contains(body, "no player") {
			t.Errorf("GET %s without a player: %d %s; want 400 saying there is no player", path, status, body)
		}
	}
	if _, body, _ := ann.do(http.MethodGet, "/puzzles", ""); strings.Contains(body, `data-testid="played-filter"`) {
		t.Error("the history offers the played filter to a request without a player")
	}

	// Solve the first, give up the second, leave the third open.
	play := func(pz puzzleJSON, finish string) {
		t.Helper()
		var a attemptJSON
		ann.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusCreated, &a)
		if finish != "" {
			ann.json(http.MethodPost, fmt.Sprintf("/api/attempts/%d", a.ID), finish, http.StatusOK, nil)
		}
	}
	play(pzs[0], solvedBody(pzs[0].Solution, 60))
	play(pzs[1], `{"outcome": "gave_up", "active_seconds": 5}`)
	play(pzs[2], "")

	for _, q := range []string{"played=solved", "played=unplayed", "played=unplayed&sort=clues&order=asc"} {
		if got, want := walkPlayedAPI(t, ann, q, pzs), wantOf(q, pzs); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	status, body, _ := ann.do(http.MethodGet, "/api/puzzles?played=mine", "")
	if status != http.StatusBadRequest || !strings.Contains(body, "use solved or unplayed") {
		t.Errorf("played=mine: %d %s", status, body)
	}

	// The download of the filtered history holds the same puzzles.
	status, body, _ = ann.do(http.MethodGet, "/api/export?format=txt&played=solved", "")
	if status != http.StatusOK || body != pzs[0].Puzzle+"\n" {
		t.Errorf("export played=solved: %d %q, want puzzle %d alone", status, body, pzs[0].ID)
	}

	// The page: the filter is offered, and applied.
	_, body, _ = ann.do(http.MethodGet, "/puzzles", "")
	if !strings.Contains(body, `data-testid="played-filter"`) {
		t.Error("the history does not offer the played filter to a player")
	}
	_, body, _ = ann.do(http.MethodGet, "/puzzles?played=solved", "")
	if !strings.Contains(body, "1 puzzle you solved") || !strings.Contains(body, fmt.Sprintf("/puzzles/%d", pzs[0].ID)) ||
		strings.Contains(body, fmt.Sprintf("/puzzles/%d\"", pzs[3].ID)) || !strings.Contains(body, "played=solved") {
		t.Errorf("history played=solved does not list exactly puzzle %d:\n%s", pzs[0].ID, body)
	}
}

// walkPlayedAPI pages through /api/puzzles?query one puzzle at a time,
// checking each page's total against wantOf, and returns the ids met,
// sorted.
func walkPlayedAPI(t *testing.T, ann *client, query string, pzs []puzzleJSON) (ids []int64) {
	t.Helper()
	type listJSON struct {
		Puzzles    []puzzleJSON `json:"puzzles"`
		NextCursor *string      `json:"next_cursor"`
		Total      int64        `json:"total"`
	}
	path := "/api/puzzles?limit=1&" + query
	for range 10 {
		var l listJSON
		ann.json(http.MethodGet, path, "", http.StatusOK, &l)
		for _, p := range l.Puzzles {
			ids = append(ids, p.ID)
		}
		if l.Total != int64(len(wantOf(query, pzs))) {
			t.Errorf("GET %s: total %d, want %d", path, l.Total, len(wantOf(query, pzs)))
		}
		if l.NextCursor == nil {
			break
		}
		path = "/api/puzzles?limit=1&" + query + "&cursor=" + *l.NextCursor
	}
	slices.Sort(ids)
	return ids
}

// wantOf is the ids a played query lists in TestListPlayed, sorted.
func wantOf(query string, pzs []puzzleJSON) []int64 {
	var ids []int64
	if strings.Contains(query, "played=solved") {
		ids = []int64{pzs[0].ID}
	} else {
		ids = []int64{pzs[3].ID, pzs[4].ID}
	}
	slices.Sort(ids)
	return ids
}
