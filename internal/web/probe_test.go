package web

import (
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/daily"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestGenerateFormRefusesNaN: a grade range of NaN is refused with a 400
// that says why before any search starts. Before, NaN passed every range
// check and the form held a search slot for its whole budget: here, with
// the only slot taken, it waited for it and answered 503.
func TestGenerateFormRefusesNaN(t *testing.T) {
	s, f := newTestServer(t, Config{SearchSlots: 1, SearchQueueTimeout: 2 * time.Second})
	cookie, token := csrfPair(t, s)
	if err := s.arch.SearchGate().Enter(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer s.arch.SearchGate().Leave()
	for _, tc := range [][2]string{{"NaN", "NaN"}, {"nan", "8"}, {"2", "Inf"}, {"-Inf", "3"}, {"1e0", "2"}, {"2", "20"}} {
		v := url.Values{"kind": {"grade"}, "min": {tc[0]}, "max": {tc[1]}, "_csrf": {token}}
		req := httptestRequest(http.MethodPost, "/generate", v.Encode())
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(cookie)
		rec := serve(s, req)
		doc := page(t, rec, http.StatusBadRequest)
		if msg := tid(doc, "error-message").Text() + doc.Text(); !strings.Contains(msg, "grades run from 1.0 to 12.0") {
			t.Errorf("%v: the page does not say why", tc)
		}
	}
	if len(f.puzzles) != 0 {
		t.Errorf("%d puzzles archived", len(f.puzzles))
	}
}

// TestLongValuesCutInErrors: a refused value is repeated in the message
// only up to a short prefix, marked with an ellipsis; before, a 4 KiB sort
// came back whole.
func TestLongValuesCutInErrors(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	long := strings.Repeat("x", 4000)
	for _, path := range []string{
		"/api/puzzles?sort=" + long, "/api/puzzles?order=" + long, "/api/puzzles?band=" + long,
		"/api/puzzles?limit=" + long, "/api/puzzles?grade_min=" + long, "/api/puzzles?unique=" + long,
		"/api/daily?date=" + long, "/api/export?format=" + long,
	} {
		rec := get(t, s, path)
		msg := decode[apiErr](t, rec).Error
		if rec.Code != http.StatusBadRequest || len(msg) > 300 || !strings.Contains(msg, "…") {
			t.Errorf("%.40s…: status %d, message of %d bytes: %.100s", path, rec.Code, len(msg), msg)
		}
	}
	rec := do(t, s, request{method: http.MethodPost, path: "/api/solve", body: "{}", contentType: "text/" + long})
	if msg := decode[apiErr](t, rec).Error; rec.Code != http.StatusUnsupportedMediaType || len(msg) > 300 {
		t.Errorf("long Content-Type: status %d, message of %d bytes", rec.Code, len(msg))
	}
}

// TestHintListsAreArrays: a hint's step has "eliminations": [] (and
// "cells", "placements") like the explain path's steps, never null.
func TestHintListsAreArrays(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rec := post(t, s, "/api/hint", `{"puzzle": "`+easy+`"}`)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d: %s", rec.Code, rec.Body)
	}
	body := rec.Body.String()
	if strings.Contains(body, "null") || !strings.Contains(body, `"eliminations":[`) || !strings.Contains(body, `"cells":[`) {
		t.Errorf("hint: %s", body)
	}
}

// TestShareLinkTakesSearchTurns: a share link of a puzzle not archived
// runs the solver, so it takes a turn like every search: a GET's, in the
// read lane (issue 45), where before it searched anyway. With the read
// lane busy it waits and then answers 503 with Retry-After; with the
// writes' search gate busy it still answers.
func TestShareLinkTakesSearchTurns(t *testing.T) {
	s, _ := newTestServer(t, Config{SearchSlots: 1, SearchQueueTimeout: 50 * time.Millisecond})
	if rec := get(t, s, "/p/"+shareEasy); rec.Code != http.StatusOK {
		t.Fatalf("free gate: status %d", rec.Code)
	}
	if err := s.arch.SearchGate().Enter(t.Context()); err != nil {
		t.Fatal(err)
	}
	if rec := get(t, s, "/p/"+shareEasy); rec.Code != http.StatusOK {
		t.Errorf("writes' gate busy: status %d, want 200 from the read lane", rec.Code)
	}
	s.arch.SearchGate().Leave()
	if err := s.arch.ReadGate().Enter(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer s.arch.ReadGate().Leave()
	if rec := get(t, s, "/p/"+shareEasy); rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
		t.Errorf("busy read lane: status %d, Retry-After %q", rec.Code, rec.Header().Get("Retry-After"))
	}
}

// TestShareLinkRateLimited: share links count against the same per-client
// limit as POSTs; other reads do not.
func TestShareLinkRateLimited(t *testing.T) {
	s, _ := newTestServer(t, Config{RateLimit: 1}) // burst 3
	codes := []int{}
	for range 5 {
		codes = append(codes, get(t, s, "/p/"+shareEasy).Code)
	}
	if codes[0] != http.StatusOK || codes[4] != http.StatusTooManyRequests {
		t.Errorf("five share links in a row: %v, want 200 first and 429 last", codes)
	}
	for range 5 {
		if rec := get(t, s, "/api/puzzles"); rec.Code != http.StatusOK {
			t.Fatalf("a listing was limited: %d", rec.Code)
		}
	}
}

// TestForwardedProtoOnlyFromTrustedProxy: the absolute links of the share
// and puzzle pages take X-Forwarded-Proto only from a --trusted-proxy
// peer; before, any client could make the page link to https (or worse).
func TestForwardedProtoOnlyFromTrustedProxy(t *testing.T) {
	s, _ := newTestServer(t, Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	for _, tc := range []struct {
		peer, proto, want string
	}{
		{"192.0.2.1:1234", "https", "http://example.com/p/"},
		{"192.168.1.5:1234", "https", "http://example.com/p/"},
		{"127.0.0.1:1234", "https", "http://example.com/p/"},
		{"192.0.2.1:1234", "", "http://example.com/p/"},
		{"10.1.2.3:1234", "https", "https://example.com/p/"},
		{"10.1.2.3:1234", "javascript", "http://example.com/p/"},
	} {
		req := httptestRequest(http.MethodGet, "/p/"+shareEasy, "")
		req.RemoteAddr = tc.peer
		if tc.proto != "" {
			req.Header.Set("X-Forwarded-Proto", tc.proto)
		}
		doc := page(t, serve(s, req), http.StatusOK)
		if got := tid(doc, "share-link").AttrOr("value", ""); got != tc.want+shareEasy {
			t.Errorf("peer %s, X-Forwarded-Proto %q: share link %q, want %s…", tc.peer, tc.proto, got, tc.want)
		}
	}
	// Without --trusted-proxy no peer is trusted, loopback included.
	direct, _ := newTestServer(t, Config{})
	req := httptestRequest(http.MethodGet, "/p/"+shareEasy, "")
	req.RemoteAddr = "127.0.0.1:1234"
	req.Header.Set("X-Forwarded-Proto", "https")
	if got := tid(page(t, serve(direct, req), http.StatusOK), "share-link").AttrOr("value", ""); got != "http://example.com/p/"+shareEasy {
		t.Errorf("no trusted proxy, loopback peer says https: share link %q", got)
	}
}

// TestDailyGetNeverWrites: GET /daily and /api/daily only read. A date not
// chosen yet is a 503 with Retry-After (today, no keeper running to wait
// for), a 404 (an earlier date no keeper chose; tomorrow, whose day has
// not begun), and nothing is archived
// or recorded; before, the GET generated, archived and recorded the
// puzzle, so any site could make a visitor's browser write.
func TestDailyGetNeverWrites(t *testing.T) {
	s, f := newTestServer(t, Config{})
	today := daily.Today(time.Now())
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/api/daily", http.StatusServiceUnavailable},
		{"/daily", http.StatusServiceUnavailable},
		{"/api/daily?date=" + daily.Key(today.AddDate(0, 0, 1)), http.StatusNotFound},
		{"/daily?date=" + daily.Key(today.AddDate(0, 0, 1)), http.StatusNotFound},
		{"/api/daily?date=2026-03-05", http.StatusNotFound},
		{"/daily?date=2026-03-05", http.StatusNotFound},
	} {
		rec := get(t, s, tc.path)
		if rec.Code != tc.status {
			t.Errorf("%s: status %d, want %d: %.200s", tc.path, rec.Code, tc.status, rec.Body)
		}
		if tc.status == http.StatusServiceUnavailable && rec.Header().Get("Retry-After") == "" {
			t.Errorf("%s: 503 without Retry-After", tc.path)
		}
	}
	if len(f.puzzles) != 0 || len(f.daily) != 0 {
		t.Errorf("GETs wrote: %d puzzles, %d dates recorded", len(f.puzzles), len(f.daily))
	}
	if msg := decode[apiErr](t, get(t, s, "/api/daily?date=2026-03-05")).Error; !strings.Contains(msg, "no puzzle of the day was chosen") {
		t.Errorf("404 message %q", msg)
	}
}

// TestDailyReadsDuringGeneration: reading a recorded date never waits on
// choosing another. With the search gate held (generation busy) and a
// request for an unrecorded date in flight, a flood of reads of the
// recorded date all answer; before, the first request held a process-wide
// lock while it waited for a search slot, and every read queued behind it.
func TestDailyReadsDuringGeneration(t *testing.T) {
	s, _ := newTestServer(t, Config{SearchSlots: 1, SearchQueueTimeout: time.Minute})
	stored := daily.Today(time.Now())
	if _, err := s.arch.Dailies().Choose(t.Context(), stored); err != nil {
		t.Fatal(err)
	}
	if err := s.arch.SearchGate().Enter(t.Context()); err != nil {
		t.Fatal(err)
	}
	released := false
	release := func() {
		if !released {
			released = true
			s.arch.SearchGate().Leave()
		}
	}
	defer release()
	// The keeper choosing yesterday waits for the gate meanwhile.
	go s.arch.Dailies().Choose(t.Context(), stored.AddDate(0, 0, -1)) //nolint:errcheck // it waits; the test reads meanwhile
	other := "/api/daily?date=" + daily.Key(stored.AddDate(0, 0, -1))
	go get(t, s, other)
	done := make(chan int, 64)
	for range 64 {
		go func() { done <- get(t, s, "/api/daily?date="+daily.Key(stored)).Code }()
	}
	deadline := time.After(30 * time.Second) // liveness, not speed: blocked reads wait the full minute
	for range 64 {
		select {
		case code := <-done:
			if code != http.StatusOK {
				t.Fatalf("read of the recorded date: status %d", code)
			}
		case <-deadline:
			t.Fatal("reads of a recorded date wait on the generation of another")
		}
	}
	release()
}

// TestHistorySortLabels: the history's sort control names every sort of
// record.SortTable; before, grade had a blank label (a hand-typed map
// that drifted from the list of sorts).
func TestHistorySortLabels(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	doc := page(t, get(t, s, "/puzzles"), http.StatusOK)
	for _, info := range record.SortTable {
		opt := doc.Find(`option[value="` + string(info.Sort) + `"]`)
		if opt.Length() == 0 || strings.TrimSpace(opt.First().Text()) != info.Label {
			t.Errorf("sort %s: option %q, want %q", info.Sort, opt.First().Text(), info.Label)
		}
	}
}

// BenchmarkDailyReadDuringGeneration reads today's recorded puzzle of the
// day while the search gate is held and the keeper waits on it to choose
// yesterday's: the read's cost does not include any generation (the issue
// measured 9.9 s for it under load, when the read shared the generator's
// lock).
func BenchmarkDailyReadDuringGeneration(b *testing.B) {
	s, _ := newTestServer(b, Config{SearchSlots: 1, SearchQueueTimeout: time.Hour})
	today := daily.Today(time.Now())
	if _, err := s.arch.Dailies().Choose(b.Context(), today); err != nil {
		b.Fatal(err)
	}
	if err := s.arch.SearchGate().Enter(b.Context()); err != nil {
		b.Fatal(err)
	}
	defer s.arch.SearchGate().Leave()
	go s.arch.Dailies().Choose(b.Context(), today.AddDate(0, 0, -1)) //nolint:errcheck // waits for the gate all along
	path := "/api/daily?date=" + daily.Key(today)
	for b.Loop() {
		if rec := get(b, s, path); rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
