package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/sqlitetest"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// archive is the real router over a real SQLite file, served by httptest.
type archive struct {
	t   *testing.T
	db  *store.DB
	url string
}

func newArchive(t *testing.T) *archive {
	return newArchiveWith(t, web.Config{})
}

// newArchiveWith is newArchive with the server configured by cfg.
func newArchiveWith(t *testing.T, cfg web.Config) *archive {
	t.Helper()
	// A copy of an archive migrated once per test process: migrating
	// costs a test 1-3 s under -race (sqlitetest).
	path := sqlitetest.NewFileFrom(t, "archive", func(path string) error {
		db, err := store.Open(context.Background(), path)
		if err != nil {
			return err
		}
		return db.Close()
	})
	db, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Logger = slog.New(slog.DiscardHandler)
	srv := httptest.NewServer(web.New(web.AllParts(db), cfg))
	t.Cleanup(func() {
		srv.Close()
		db.Close()
	})
	return &archive{t: t, db: db, url: srv.URL}
}

// grade runs the graders over every pending puzzle, as a server's do.
func (a *archive) grade() {
	a.t.Helper()
	g := &bulk.Graders{DB: a.db, Grade: logic.GradePuzzle, Workers: 1}
	if _, err := g.Drain(context.Background()); err != nil {
		a.t.Fatal(err)
	}
}

// player is one browser: its own cookie jar.
type player struct {
	a *archive
	c *http.Client
}

func (a *archive) player() *player {
	jar, _ := cookiejar.New(nil)
	return &player{a: a, c: &http.Client{Jar: jar}}
}

// call sends a request (a body as JSON) and returns the status, the body
// and the response.
func (p *player) call(method, path, body string) (int, []byte, *http.Response) {
	p.a.t.Helper()
	req, err := http.NewRequest(method, p.a.url+path, strings.NewReader(body))
	if err != nil {
		p.a.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := p.c.Do(req)
	if err != nil {
		p.a.t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		p.a.t.Fatal(err)
	}
	return res.StatusCode, b, res
}

// json sends a request wanting status and decodes the answer into out.
func (p *player) json(method, path, body string, want int, out any) *http.Response {
	p.a.t.Helper()
	status, b, res := p.call(method, path, body)
	if status != want {
		p.a.t.Fatalf("%s %s %s: %d %s, want %d", method, path, body, status, b, want)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			p.a.t.Fatalf("%s %s: %v in %s", method, path, err, b)
		}
	}
	return res
}

// puzzle is what the tests read of a puzzle object.
type puzzle struct {
	ID            int64    `json:"id"`
	Puzzle        string   `json:"puzzle"`
	Solution      string   `json:"solution"`
	SameAs        *int64   `json:"same_as"`
	Grade         *float64 `json:"grade"`
	Technique     string   `json:"technique"`
	Backtracks    int64    `json:"backtracks"`
	SolveNS       int64    `json:"solve_ns"`
	Clues         int      `json:"clues"`
	Plays         int64    `json:"plays"`
	PlayerSeconds *int64   `json:"player_seconds"`
	// Of GET /api/next only.
	Expected int64 `json:"expected_seconds"`
	Target   int64 `json:"target_seconds"`
}

// submit archives text through the API and returns the stored puzzle.
func (p *player) submit(text string) puzzle {
	p.a.t.Helper()
	var pz puzzle
	status, b, _ := p.call(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, text))
	if status != http.StatusCreated && status != http.StatusOK {
		p.a.t.Fatalf("submit: %d %s", status, b)
	}
	if err := json.Unmarshal(b, &pz); err != nil {
		p.a.t.Fatal(err)
	}
	return pz
}

// play starts an attempt at id and finishes it: solved with the solution,
// or given up.
func (p *player) play(pz puzzle, solved bool) {
	p.a.t.Helper()
	var at struct {
		ID int64 `json:"id"`
	}
	p.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusCreated, &at)
	body := `{"outcome": "gave_up"}`
	if solved {
		body = fmt.Sprintf(`{"outcome": "solved", "grid": %q, "active_seconds": 600}`, pz.Solution)
	}
	p.json(http.MethodPost, fmt.Sprintf("/api/attempts/%d", at.ID), body, http.StatusOK, nil)
}

// mixedPuzzles are real puzzles of several grades: easy Kaggle ones,
// 17-clue ones and Top1465 ones.
func mixedPuzzles(t *testing.T) []string {
	var out []string
	for _, c := range []struct {
		name string
		n    int
	}{{puzzletest.Kaggle, 4}, {puzzletest.SeventeenClue, 4}, {puzzletest.Top1465, 3}} {
		for _, l := range puzzletest.Lines(t, c.name, c.n) {
			out = append(out, l[:81])
		}
	}
	return out
}

// nearest is the puzzle of ps (not in played) whose difficulty, the
// default prior of its grade (no class here has a counted play of
// anyone else), is nearest the difficulty that gives a player of skill
// the time target; ties go to the lower id.
func nearest(ps []puzzle, played map[int64]bool, target, skill float64) puzzle {
	b := math.Log(target) + math.Log(skill)
	var best puzzle
	bestD := math.Inf(1)
	for _, p := range ps {
		if played[p.ID] || p.SameAs != nil || p.Grade == nil {
			continue
		}
		d := math.Abs(ratings.DefaultPrior.Of(userinput.Tenths(*p.Grade)) - b)
		if d < bestD || d == bestD && p.ID < best.ID {
			best, bestD = p, d
		}
	}
	return best
}

// TestNextAPI: GET /api/next on an empty archive, for a newcomer (no
// player, no cookie made), harder and easier, bad parameters, and for a
// player who plays what it is given (any way of writing a puzzle counts
// as played, an open attempt too) until nothing is left.
func TestNextAPI(t *testing.T) {
	racefree.Only(t)
	a := newArchive(t)
	anon := a.player()
	status, b, _ := anon.call(http.MethodGet, "/api/next", "")
	if status != http.StatusNotFound || !strings.Contains(string(b), "no graded puzzle") {
		t.Fatalf("empty archive: %d %s, want 404 saying there is no puzzle", status, b)
	}
	var ps []puzzle
	for _, s := range mixedPuzzles(t) {
		ps = append(ps, anon.submit(s))
	}
	a.grade()
	for i := range ps {
		anon.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", ps[i].ID), "", http.StatusOK, &ps[i])
	}

	// A newcomer: the puzzle nearest five minutes for a typical player.
	for _, tc := range []struct {
		query  string
		target float64
	}{{"", web.NewPlayerSeconds}, {"?harder=1", web.NewPlayerSeconds * web.NextStep}, {"?easier=true", web.NewPlayerSeconds / web.NextStep}} {
		var got puzzle
		res := anon.json(http.MethodGet, "/api/next"+tc.query, "", http.StatusOK, &got)
		want := nearest(ps, nil, tc.target, 1)
		if got.ID != want.ID || got.Target != int64(math.Round(tc.target)) {
			t.Errorf("next%s = #%d (target %d s), want #%d (target %.0f s)", tc.query, got.ID, got.Target, want.ID, tc.target)
		}
		if loc := res.Header.Get("Location"); loc != fmt.Sprintf("/puzzles/%d", got.ID) {
			t.Errorf("next%s: Location %q", tc.query, loc)
		}
		if res.Header.Get("Set-Cookie") != "" {
			t.Errorf("next%s made a player: %s", tc.query, res.Header.Get("Set-Cookie"))
		}
	}
	for _, q := range []string{"?harder=1&easier=1", "?harder=yes", "?easier=2"} {
		if status, b, _ := anon.call(http.MethodGet, "/api/next"+q, ""); status != http.StatusBadRequest || !strings.Contains(string(b), `"error"`) {
			t.Errorf("next%s: %d %s, want 400", q, status, b)
		}
	}
	playUntilNothing(t, a, ps)
}

// playUntilNothing: a player plays each puzzle GET /api/next gives, and
// gets each class once, never one it played another way of writing, nor
// one with its attempt still open, until a 404 says it played them all.
func playUntilNothing(t *testing.T, a *archive, ps []puzzle) {
	p := a.player()
	played := map[int64]bool{}
	// The first puzzle written another way, played that way: its class is
	// played.
	other := p.submit(relabel(ps[0].Puzzle))
	a.grade()
	p.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", other.ID), "", http.StatusOK, &other)
	if other.SameAs == nil || *other.SameAs != ps[0].ID {
		t.Fatalf("the relabelled puzzle is not filed under #%d: %+v", ps[0].ID, other)
	}
	p.play(other, true)
	played[ps[0].ID] = true
	// An open attempt counts as played too.
	var at struct{ ID int64 }
	p.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, ps[1].ID), http.StatusCreated, &at)
	played[ps[1].ID] = true
	for i := 0; ; i++ {
		status, b, _ := p.call(http.MethodGet, "/api/next", "")
		if status == http.StatusNotFound {
			if !strings.Contains(string(b), "you have played every") {
				t.Errorf("the end: %s, want a 404 saying everything is played", b)
			}
			break
		}
		var got puzzle
		if err := json.Unmarshal(b, &got); status != http.StatusOK || err != nil {
			t.Fatalf("next: %d %s", status, b)
		}
		if played[got.ID] {
			t.Fatalf("next gave #%d, played already", got.ID)
		}
		var me struct{ Skill float64 }
		p.json(http.MethodGet, "/api/me", "", http.StatusOK, &me)
		if want := nearest(ps, played, float64(got.Target), me.Skill); got.ID != want.ID {
			t.Errorf("next gave #%d (target %d s, skill %.3f), want #%d", got.ID, got.Target, me.Skill, want.ID)
		}
		played[got.ID] = true
		p.play(got, i%3 != 2)
	}
	for _, pz := range ps {
		if pz.Grade != nil && !played[pz.ID] {
			t.Errorf("#%d (grade %v) was never offered", pz.ID, *pz.Grade)
		}
	}
}

// relabel writes p another way: its digits swapped 1 for 2.
func relabel(p string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '1':
			return '2'
		case '2':
			return '1'
		}
		return r
	}, p)
}
