package web

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestDailyPageSaysSo: the page /daily leads to says it is the puzzle of
// the day, and which day, in the page and its title; the same puzzle
// reached another way, or with another date in the link, does not.
func TestDailyPageSaysSo(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	// The keeper chooses the date (Serve runs it; GETs only read).
	if _, err := s.dailies.Choose(t.Context(), time.Date(2026, 3, 5, 0, 0, 0, 0, time.UTC)); err != nil {
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
