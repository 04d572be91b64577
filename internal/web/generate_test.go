package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/daily"
	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/templates"
)

func TestAPIGenerate(t *testing.T) {
	racefree.Only(t)
	s, f := newTestServer(t, Config{})
	for _, tc := range []struct {
		body string
		band sudoku.Band
		min  float64
		max  float64
		sym  bool
	}{
		{body: `{"band": "hard"}`, band: sudoku.BandHard},
		{body: `{"grade": [2, 4], "symmetric": true}`, min: 2, max: 4, sym: true},
	} {
		rec := post(t, s, "/api/generate", tc.body)
		if rec.Code != http.StatusCreated {
			t.Fatalf("%s: status %d: %s", tc.body, rec.Code, rec.Body)
		}
		p := decode[record.Puzzle](t, rec)
		if rec.Header().Get("Location") != templates.PuzzleURL(p.ID) || p.ID == 0 {
			t.Errorf("%s: Location %q, id %d", tc.body, rec.Header().Get("Location"), p.ID)
		}
		if !p.Unique || !sudoku.Minimal(p.Givens, sudoku.Options{}) {
			t.Errorf("%s: %s is not unique and minimal", tc.body, p.Givens)
		}
		if tc.band != "" && p.Band != tc.band {
			t.Errorf("%s: band %s", tc.body, p.Band)
		}
		if tc.band == "" && (p.Grade == nil || *p.Grade < tc.min || *p.Grade > tc.max) {
			t.Errorf("%s: grade %v", tc.body, p.Grade)
		}
		if tc.sym {
			for i := range 81 {
				if (p.Givens[i] == 0) != (p.Givens[80-i] == 0) {
					t.Fatalf("%s: %s is not symmetric", tc.body, p.Givens)
				}
			}
		}
		if _, err := f.Puzzle(t.Context(), p.ID); err != nil {
			t.Errorf("%s: not archived: %v", tc.body, err)
		}
	}
}

func TestAPIGenerateBad(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, body := range []string{
		`{}`, `{"band": "brutal"}`, `{"band": "hard", "grade": [1, 2]}`, `{"grade": [5, 3]}`,
		`{"grade": [3]}`, `{"grade": [0, 20]}`, `{"band": "hard", "x": 1}`, `not json`,
	} {
		if rec := post(t, s, "/api/generate", body); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400: %s", body, rec.Code, rec.Body)
		}
	}
}

// TestAPIGenerateMiss: a target not met within GenerateBudget is a 422
// that says so. Symmetric extreme puzzles take far longer than the budget.
func TestAPIGenerateMiss(t *testing.T) {
	if testing.Short() {
		t.Skip("takes GenerateBudget")
	}
	s, _ := newTestServer(t, Config{})
	// A grade above any the generator reaches: since bands follow the
	// grade, an extreme symmetric puzzle is found within the budget.
	rec := post(t, s, "/api/generate", `{"grade": [11.5, 12], "symmetric": true}`)
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(rec.Body.String(), "within the budget") {
		t.Errorf("status %d: %s", rec.Code, rec.Body)
	}
}

func TestGenerateForm(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	doc := page(t, get(t, s, "/generate"), http.StatusOK)
	if tid(doc, "generate-form").Length() != 1 || tid(doc, "nav-New puzzle").AttrOr("aria-current", "") != "page" {
		t.Fatal("no generate form, or the nav does not mark it")
	}
	cookie, token := csrfPair(t, s)
	postGen := func(v url.Values) *http.Response {
		v.Set("_csrf", token)
		req := httptestRequest(http.MethodPost, "/generate", v.Encode())
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(cookie)
		return serve(s, req).Result()
	}
	res := postGen(url.Values{"kind": {"band"}, "band": {"medium"}})
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/puzzles/") {
		t.Errorf("status %d, Location %q", res.StatusCode, res.Header.Get("Location"))
	}
	res = postGen(url.Values{"kind": {"grade"}, "min": {"6"}, "max": {"3"}})
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Errorf("min > max: status %d", res.StatusCode)
	}
	// Without the token: refused like every other form.
	req := httptestRequest(http.MethodPost, "/generate", "kind=band&band=easy")
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if rec := serve(s, req); rec.Code != http.StatusForbidden {
		t.Errorf("no CSRF token: status %d", rec.Code)
	}
}

func TestDaily(t *testing.T) {
	s, f := newTestServer(t, Config{})
	day := "2026-03-05"
	d, _ := time.Parse(time.DateOnly, day)
	chosen, err := s.arch.Dailies().Choose(t.Context(), d)
	if err != nil {
		t.Fatal(err)
	}
	rec := get(t, s, "/api/daily?date="+day)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	p := decode[record.Puzzle](t, rec)
	if p.ID != chosen.ID || p.Band != daily.Band(d) || !p.Unique {
		t.Errorf("id %d band %s, want the chosen %d of band %s", p.ID, p.Band, chosen.ID, daily.Band(d))
	}
	// Choosing again, by this server or another over the same archive,
	// keeps the date's puzzle.
	if again, err := s.arch.Dailies().Choose(t.Context(), d); err != nil || again.ID != p.ID || len(f.puzzles) != 1 {
		t.Errorf("chosen twice: ids %d and %d (%v), %d archived", p.ID, again.ID, err, len(f.puzzles))
	}
	res := get(t, s, "/daily?date="+day).Result()
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), templates.PuzzleURL(p.ID)) {
		t.Errorf("/daily: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	for _, bad := range []string{"2026-13-01", "yesterday", "2025-12-31", daily.Today(time.Now()).AddDate(0, 0, 2).Format(time.DateOnly)} {
		if rec := get(t, s, "/api/daily?date="+bad); rec.Code != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", bad, rec.Code)
		}
	}
	home := page(t, get(t, s, "/"), http.StatusOK)
	if tid(home, "daily-today").Length() != 1 || tid(home, "daily-yesterday").Length() != 1 {
		t.Error("the home page does not link today's and yesterday's puzzles")
	}
}

func TestGenerateBudgetText(t *testing.T) {
	if templates.GenerateBudgetText != "3 seconds" || GenerateBudget != 3*time.Second {
		t.Error("the page's budget text and GenerateBudget disagree")
	}
}
