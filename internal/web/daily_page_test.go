package web

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/daily"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestDailyPageSaysSo: the page /daily leads to says it is the puzzle of
// the day, and which day, in the page and its title; the same puzzle
// reached another way, or with another date in the link, does not.
func TestDailyPageSaysSo(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	// The keeper chooses the date (Serve runs it; GETs only read).
	if _, err := s.arch.Dailies().Choose(t.Context(), time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	res := get(t, s, "/daily?date=2026-03-05").Result()
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || loc == "" {
		t.Fatalf("/daily: %d %q", res.StatusCode, loc)
	}
	doc := page(t, get(t, s, loc), http.StatusOK)
	const want = "Puzzle of the day, Thursday, 5 March 2026"
	if got := strings.Join(strings.Fields(tid(doc, "daily-label").Text()), " "); got != want {
		t.Errorf("the daily puzzle's page says %q, want %q", got, want)
	}
	if title := doc.Find("title").Text(); !strings.Contains(title, want) {
		t.Errorf("title %q does not say %q", title, want)
	}
	path, _, _ := strings.Cut(loc, "?")
	for _, other := range []string{path, path + "?daily=2026-03-06", path + "?daily=nonsense"} {
		doc := page(t, get(t, s, other), http.StatusOK)
		if l := tid(doc, "daily-label"); l.Length() != 0 {
			t.Errorf("%s says %q", other, l.Text())
		}
	}
}

// TestDailyTomorrow: a day's puzzle is for nobody but moderators before its
// day begins in UTC (issue 34): a player asking for tomorrow's gets a 404
// that says when it opens, a moderator the puzzle the keeper will choose,
// not archived (id 0); and the 503 page of a date not chosen yet offers to
// try again.
func TestDailyTomorrow(t *testing.T) {
	s, db, tok := collectionsServer(t)
	tomorrow := daily.Today(time.Now()).AddDate(0, 0, 1)
	path := "/api/daily?date=" + daily.Key(tomorrow)
	rec := as(t, s, tok, "bob", "GET", path, "")
	if rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "opens at 00:00 UTC") {
		t.Errorf("a player's tomorrow: %d %s", rec.Code, rec.Body)
	}
	rec = as(t, s, tok, "mod", "GET", path, "")
	secret, err := db.DailySecret(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want, err := daily.Puzzle(t.Context(), secret, tomorrow, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := decode[record.Puzzle](t, rec); rec.Code != http.StatusOK || p.ID != 0 || p.Givens != want.Givens {
		t.Errorf("a moderator's tomorrow: %d id %d %s", rec.Code, p.ID, p.Givens)
	}
	if !strings.Contains(rec.Body.String(), `"id":0,`) {
		t.Errorf("a moderator's tomorrow carries no \"id\": 0: %.80s", rec.Body)
	}
	if st, err := db.Stats(t.Context()); err != nil || st.Total != 0 {
		t.Errorf("the preview archived something: %+v %v", st.Total, err)
	}
	doc := page(t, get(t, s, "/daily"), http.StatusServiceUnavailable)
	if href := tid(doc, "error-retry").AttrOr("href", ""); href != "/daily" {
		t.Errorf("the 503 page's Try again goes to %q", href)
	}
}
