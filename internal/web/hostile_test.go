package web

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// FuzzListQuery sends arbitrary query strings to the listing, as JSON
// (GET /api/puzzles) and as a page (GET /puzzles): the answer is a 200 or a
// 4xx that says what is wrong, never a 5xx or a panic, and a page never
// carries the query back unescaped.
func FuzzListQuery(f *testing.F) {
	for _, seed := range []string{
		"", "sort=clues&order=asc&limit=5", "sort=submitted&cursor=AQMAAg", "limit=0", "limit=101", "limit=-1",
		"limit=99999999999999999999", "sort=%3Cscript%3Ealert(1)%3C/script%3E", "sort=clues;%20DROP%20TABLE%20puzzles;--",
		"cursor=%00%ff", "cursor=" + strings.Repeat("A", 600), "unique=maybe", "around=-5", "around=1&limit=3",
		"order=%E2%80%AE", "sort=clues&sort=difficulty", "%zz", "a=%", "cursor=AQAA%2F%2F",
	} {
		f.Add(seed)
	}
	s, fa := newTestServer(f, Config{})
	for i := range 30 {
		fa.Submit(f.Context(), measured(&testing.T{}, relabel(easy, i)))
	}
	f.Fuzz(func(t *testing.T, query string) {
		req := httptestRequest(http.MethodGet, "/", "")
		for _, path := range []string{"/api/puzzles", "/puzzles"} {
			req.URL = &url.URL{Path: path, RawQuery: query}
			req.RequestURI = req.URL.RequestURI()
			rec := serve(s, req)
			switch {
			case rec.Code >= 500:
				t.Fatalf("%s?%s answered %d: %s", path, query, rec.Code, rec.Body)
			case rec.Code != http.StatusOK && (rec.Code < 400 || rec.Code >= 500):
				t.Fatalf("%s?%s answered %d", path, query, rec.Code)
			case rec.Code >= 400 && path == "/api/puzzles":
				if decode[apiErr](t, rec).Error == "" {
					t.Fatalf("%s?%s: %d without a message", path, query, rec.Code)
				}
			case path == "/puzzles":
				body := rec.Body.String()
				if strings.Contains(body, "<script>alert") || !utf8.ValidString(body) {
					t.Fatalf("%s?%s: page carries raw markup or invalid UTF-8", path, query)
				}
			}
		}
	})
}

// measured needs a *testing.T only to fail; the fuzz seed uses puzzles that
// cannot fail.

// TestFormRejectsBadBytes posts the submit form with bytes no puzzle holds:
// each gets a 422 page that says what and where, with the input kept
// (escaped: no markup of the user's reaches the page), and nothing stored.
// The kept input is echoed byte for byte, so invalid UTF-8 or a NUL the
// user sent is in the page's textarea as sent (browsers show U+FFFD).
func TestFormRejectsBadBytes(t *testing.T) {
	for _, tc := range []struct {
		name, input, want string
	}{
		{"invalid UTF-8", easy[:9] + "\xff" + easy[10:], "invalid UTF-8 at position 10"},
		{"NUL", easy[:4] + "\x00" + easy[5:], "U+0000 at position 5"},
		{"bell", easy[:2] + "\a" + easy[3:], "U+0007 at position 3"},
		{"escape sequence", "\x1b[31m" + easy, "U+001B at position 1"},
		{"right-to-left override", "\u202e" + easy, "at position 1"},
		{"script", "<script>alert(1)</script>" + easy[25:], "'<' at position 1"},
		{"SQL", "'; DROP TABLE puzzles; --" + easy[25:], "at position 1 is not a cell"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, f := newTestServer(t, Config{})
			rec := postForm(t, s, tc.input)
			body := rec.Body.String()
			doc := page(t, rec, http.StatusUnprocessableEntity)
			if msg := tid(doc, "form-error-message").Text(); !strings.Contains(strings.ToLower(msg), strings.ToLower(tc.want)) {
				t.Errorf("message %q, want it to contain %q", msg, tc.want)
			}
			if strings.Contains(body, "<script>alert") {
				t.Error("the user's markup reached the page")
			}
			if i := strings.IndexFunc(body, func(r rune) bool {
				return r == utf8.RuneError && !strings.Contains(body, "\uFFFD") || r == 0 || r == '\a' || r == 0x1b
			}); i >= 0 || !utf8.ValidString(body) {
				t.Errorf("the page echoes a raw control or invalid byte (at %d): %q", i, body[max(i-20, 0):min(i+20, len(body))])
			}
			if got := tid(doc, "paste-box").Text(); tc.name != "script" && tc.name != "SQL" && !strings.ContainsRune(got, utf8.RuneError) && tc.name != "right-to-left override" {
				t.Errorf("the paste box %q does not mark the bad character with U+FFFD", got)
			}
			if len(f.puzzles) != 0 {
				t.Errorf("stored %d puzzles", len(f.puzzles))
			}
		})
	}
}

// TestFormBodyLimit: the form has the same 64 KiB limit as the API.
func TestFormBodyLimit(t *testing.T) {
	s, f := newTestServer(t, Config{})
	cookie, token := csrfPair(t, s)
	rec := postFormWith(s, url.Values{"puzzle": {strings.Repeat(" ", BodyLimit) + easy}, "_csrf": {token}}, cookie)
	if rec.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413", rec.Code)
	}
	if !strings.Contains(rec.Body.String(), "limit is 64 KiB") {
		t.Errorf("page does not say the limit: %.300s", rec.Body)
	}
	if len(f.puzzles) != 0 {
		t.Error("stored a puzzle")
	}
}

// TestEveryPostFormCarriesCSRFToken walks every page and checks that each
// form that posts carries the token of the cookie the page set.
func TestEveryPostFormCarriesCSRFToken(t *testing.T) {
	s, f := newTestServer(t, Config{})
	seed(t, f, 3)
	posts := 0
	for _, path := range []string{"/", "/puzzles", "/puzzles?sort=clues", "/puzzles/1", "/stats", "/no/such/page"} {
		rec := get(t, s, path)
		doc, err := goquery.NewDocumentFromReader(rec.Body)
		if err != nil {
			t.Fatal(err)
		}
		doc.Find("form").Each(func(_ int, form *goquery.Selection) {
			if !strings.EqualFold(form.AttrOr("method", "get"), "post") {
				return
			}
			posts++
			if form.Find(`input[type="hidden"][name="_csrf"]`).AttrOr("value", "") == "" {
				t.Errorf("%s: form posting to %s has no _csrf token", path, form.AttrOr("action", ""))
			}
		})
	}
	if posts == 0 {
		t.Fatal("found no form that posts")
	}
}

// TestPathologicalPuzzle submits grids that need a huge search (hostile: no
// solution, about 820,000 nodes to prove it, three timed runs) to a server
// whose request timeout is short: they are stopped with 503 and a clear
// message, and the server keeps answering other requests meanwhile.
func TestPathologicalPuzzle(t *testing.T) {
	const hostile = ".5...6.98.....2.17................3...........24..............6........531...9..."
	// Well under the one search the engine needs to find no solution
	// (about 120 ms here, more under the race detector).
	const timeout = 40 * time.Millisecond
	// The engine's own budget, so that the request timeout is what stops
	// the search (TestHostileGridBudget covers the server's budget).
	s, f := newTestServer(t, Config{RequestTimeout: timeout, MaxNodes: sudoku.DefaultMaxNodes})
	var wg sync.WaitGroup
	stop, stopped := make(chan struct{}), make(chan struct{})
	var (
		mu        sync.Mutex
		healthz   []time.Duration
		hostileAt []time.Duration
	)
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			default:
			}
			t0 := time.Now()
			rec := get(t, s, "/healthz")
			mu.Lock()
			healthz = append(healthz, time.Since(t0))
			mu.Unlock()
			if rec.Code != http.StatusOK {
				t.Errorf("healthz during the search: status %d", rec.Code)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}()
	for _, path := range []string{"/api/puzzles", "/api/solve", "/api/puzzles", "/api/solve"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			rec := post(t, s, path, puzzleBody(hostile))
			mu.Lock()
			hostileAt = append(hostileAt, time.Since(t0))
			mu.Unlock()
			if rec.Code != http.StatusServiceUnavailable {
				t.Errorf("%s: status %d, want 503; body %s", path, rec.Code, rec.Body)
				return
			}
			if msg := decode[apiErr](t, rec).Error; msg != msgTimeout {
				t.Errorf("%s: error %q", path, msg)
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-stopped
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(healthz)
	t.Logf("hostile requests stopped after %v (timeout %s); %d healthz answers meanwhile, median %s, max %s",
		hostileAt, timeout, len(healthz), healthz[len(healthz)/2], healthz[len(healthz)-1])
	if len(f.puzzles) != 0 {
		t.Error("stored a puzzle")
	}
}

// TestHostileGridBudget sends the hostile grid with the server's default
// node budget: every path that solves refuses it as too hard (422) long
// before the request timeout, and stores nothing.
func TestHostileGridBudget(t *testing.T) {
	const hostile = ".5...6.98.....2.17................3...........24..............6........531...9..."
	s, f := newTestServer(t, Config{RequestTimeout: time.Minute, Logger: quiet})
	for _, path := range []string{"/api/puzzles", "/api/solve"} {
		rec := post(t, s, path, puzzleBody(hostile))
		if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(decode[apiErr](t, rec).Error, "too hard") {
			t.Errorf("%s: status %d, body %s; want 422 too hard", path, rec.Code, rec.Body)
		}
	}
	// The same grid in a batch is one rejected line, not a failed request.
	req := httptest.NewRequest(http.MethodPost, "/api/puzzles/batch", strings.NewReader(hostile+"\n"))
	req.Header.Set("Content-Type", "text/plain")
	bs := New(partsOf(&bulkFake{fakeArchive: f}), Config{RequestTimeout: time.Minute, Logger: quiet})
	if rec := serve(bs, req); rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"rejected":1`) || !strings.Contains(rec.Body.String(), "too hard") {
		t.Errorf("batch: status %d, body %s; want 200 with the line rejected as too hard", rec.Code, rec.Body)
	}
	if len(f.puzzles) != 0 {
		t.Errorf("stored %d puzzles", len(f.puzzles))
	}
}

// TestEmptyGrid: a grid without givens solves (two or more solutions) but
// is no puzzle to archive: the API and the form refuse it with 422.
func TestEmptyGrid(t *testing.T) {
	empty := strings.Repeat(".", 81)
	s, f := newTestServer(t, Config{})
	rec := post(t, s, "/api/puzzles", puzzleBody(empty))
	if rec.Code != http.StatusUnprocessableEntity || !strings.Contains(decode[apiErr](t, rec).Error, "no givens") {
		t.Errorf("POST /api/puzzles: status %d %s, want 422 no givens", rec.Code, rec.Body)
	}
	rec = post(t, s, "/api/solve", puzzleBody(empty))
	if rec.Code != http.StatusOK || decode[record.Puzzle](t, rec).Solutions != 2 {
		t.Errorf("POST /api/solve: status %d %s, want 200 with 2 solutions", rec.Code, rec.Body)
	}
	doc := page(t, postForm(t, s, empty), http.StatusUnprocessableEntity)
	if msg := tid(doc, "form-error-message").Text(); !strings.Contains(msg, "grid is empty") {
		t.Errorf("form message %q", msg)
	}
	if len(f.puzzles) != 0 {
		t.Errorf("stored %d puzzles", len(f.puzzles))
	}
}
