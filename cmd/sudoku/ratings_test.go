package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/store"
)

var attemptsSummaryRE = regexp.MustCompile(`^imported (\d+) attempts, players (\d+), puzzles (\d+), rejected (\d+) in \d+\.\d\ds\n$`)

// TestAttemptsImportCommand: good lines are recorded in `at` order (the
// later line's attempt is not the player's first), bad ones reported with
// their number and reason, the summary line is docs/ratings.md's; the
// puzzle's figures follow; a refit prints its summary and keeps them.
func TestAttemptsImportCommand(t *testing.T) { eachArchive(t, testAttemptsImportCommand) }

func testAttemptsImportCommand(t *testing.T, db string) {
	file := filepath.Join(t.TempDir(), "plays.jsonl")
	line := func(player, puzzle string, seconds int, outcome, at string) string {
		b, _ := json.Marshal(map[string]any{"player": player, "puzzle": puzzle, "seconds": seconds, "outcome": outcome, "hints": 0, "at": at})
		return string(b)
	}
	in := strings.Join([]string{
		line("ann", easy, 300, "solved", "2026-01-02T10:00:00Z"),
		line("ann", easy, 100, "solved", "2026-01-01T10:00:00Z"), // earlier: ann's first
		line("bob", strings.ReplaceAll(easy, ".", "0"), 600, "gave_up", "2026-01-03T10:00:00Z"),
		line("cy", easy, 200, "solved", "2026-01-04T10:00:00Z"),
		`{"player": "dee", "puzzle": "` + easy + `", "seconds": 5, "outcome": "won", "at": "2026-01-01T00:00:00Z"}`,
		`not json`,
		"",
		line("x", easy, 5, "solved", "2026-01-01T00:00:00Z"),
		line("eve", "55"+easy[2:], 5, "solved", "2026-01-01T00:00:00Z"),
		`{"player": "fay", "puzzle": "` + easy + `", "seconds": 5, "outcome": "solved", "at": "yesterday"}`,
	}, "\n") + "\n"
	if err := os.WriteFile(file, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, err := runCmd(t, "", "attempts", "import", "--create", "--db", db, file)
	if err != nil {
		t.Fatalf("attempts import: %v (stderr %q)", err, errOut)
	}
	m := attemptsSummaryRE.FindStringSubmatch(out)
	if m == nil || strings.Join(m[1:], " ") != "4 3 1 5" {
		t.Fatalf("summary %q, want 4 attempts, 3 players, 1 puzzle, 5 rejected", out)
	}
	for _, want := range []string{
		file + `:5: invalid attempt: outcome "won"`,
		file + ":6: invalid attempt: not a JSON object",
		file + ":8: invalid attempt: player \"x\"",
		file + ":9: invalid attempt: puzzle: row 1 has two 5s",
		file + `:10: invalid attempt: at "yesterday"`,
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	p := exportedPuzzle(t, db, 1)
	if p["plays"] != 3.0 || p["median_seconds"] != 150.0 || p["player_seconds"] == nil || p["solve_rate"] != 0.6667 {
		t.Errorf("the puzzle after the import: plays %v, median %v, player_seconds %v, solve_rate %v; want 3, 150, a time, 0.6667",
			p["plays"], p["median_seconds"], p["player_seconds"], p["solve_rate"])
	}
	out, errOut, err = runCmd(t, "", "ratings", "refit", "--db", db)
	if err != nil || !regexp.MustCompile(`^refit 3 attempts, classes 1, players 3 \(default prior; rounds \d+\+0\) in \d+\.\d\ds\n$`).MatchString(out) {
		t.Fatalf("refit: %q, %v (stderr %q)", out, err, errOut)
	}
	if q := exportedPuzzle(t, db, 1); q["plays"] != 3.0 || q["median_seconds"] != 150.0 {
		t.Errorf("after the refit: %v", q)
	}
	if _, _, err := runCmd(t, "", "ratings", "refresh", "--db", db); exitCode(err) != 2 {
		t.Errorf("ratings refresh: %v, want a usage error", err)
	}
}

// exportedPuzzle reads puzzle id of the archive at db as the API's JSON
// object.
func exportedPuzzle(t *testing.T, db string, id int64) map[string]any {
	t.Helper()
	d, err := store.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	p, err := d.Puzzle(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRatingsServe plays one puzzle as several players through the real
// server: the counted finishes show on the puzzle object (plays,
// solve_rate, median_seconds, player_seconds), a practice finish does not
// count, and sort=player_time lists the played puzzle before the others
// in both orders.
func TestRatingsServe(t *testing.T) { eachArchive(t, testRatingsServe) }

func testRatingsServe(t *testing.T, db string) {
	srv := startServe(t, db, "--rate-limit", "0")
	owner := newClient(t, srv.url)
	var pz, other puzzleJSON
	owner.json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasy), http.StatusCreated, &pz)
	owner.json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, easy), http.StatusCreated, &other)
	finish := func(body string) {
		c := newClient(t, srv.url)
		var a attemptJSON
		c.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusCreated, &a)
		c.json(http.MethodPost, fmt.Sprintf("/api/attempts/%d", a.ID), body, http.StatusOK, &a)
	}
	for range 3 {
		finish(solvedBody(playSolution, 30))
	}
	finish(`{"outcome": "gave_up", "practice": true}`)
	var got struct {
		Plays         int64    `json:"plays"`
		SolveRate     *float64 `json:"solve_rate"`
		MedianSeconds *int64   `json:"median_seconds"`
		PlayerSeconds *int64   `json:"player_seconds"`
	}
	owner.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", pz.ID), "", http.StatusOK, &got)
	if got.Plays != 3 || got.SolveRate == nil || *got.SolveRate != 1 || got.MedianSeconds == nil || got.PlayerSeconds == nil {
		t.Errorf("the played puzzle: %+v; want 3 plays, solve_rate 1, a median and player_seconds", got)
	}
	owner.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", other.ID), "", http.StatusOK, &got)
	if got.Plays != 0 || got.SolveRate != nil || got.MedianSeconds != nil || got.PlayerSeconds != nil {
		t.Errorf("the unplayed puzzle: %+v; want 0 plays and nulls", got)
	}
	for _, order := range []string{"asc", "desc"} {
		var page struct {
			Puzzles []puzzleJSON `json:"puzzles"`
		}
		owner.json(http.MethodGet, "/api/puzzles?sort=player_time&order="+order, "", http.StatusOK, &page)
		if len(page.Puzzles) != 2 || page.Puzzles[0].ID != pz.ID {
			t.Errorf("sort=player_time&order=%s: %+v; want the played puzzle first", order, page.Puzzles)
		}
	}
}
