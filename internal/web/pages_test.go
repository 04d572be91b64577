package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// page parses an HTML response, failing the test unless it has the wanted
// status and is HTML.
func page(t *testing.T, rec *httptest.ResponseRecorder, status int) *goquery.Document {
	t.Helper()
	if rec.Code != status {
		t.Fatalf("status %d, want %d; body:\n%s", rec.Code, status, rec.Body)
	}
	if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("Content-Type %q, want text/html", ct)
	}
	doc, err := goquery.NewDocumentFromReader(rec.Body)
	if err != nil {
		t.Fatalf("parse HTML: %v", err)
	}
	return doc
}

// tid selects by data-testid.
func tid(doc *goquery.Document, id string) *goquery.Selection {
	return doc.Find(`[data-testid="` + id + `"]`)
}

// csrfPair fetches the submit page as a browser would and returns the CSRF
// cookie it set and the token in the form's hidden field.
func csrfPair(t *testing.T, s *Server) (*http.Cookie, string) {
	t.Helper()
	rec := get(t, s, "/")
	var cookie *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == "_csrf" {
			cookie = c
		}
	}
	if cookie == nil {
		t.Fatalf("GET / set no _csrf cookie; headers %v", rec.Header())
	}
	doc := page(t, rec, http.StatusOK)
	token := doc.Find(`form[data-testid="submit-form"] input[name="_csrf"]`).AttrOr("value", "")
	if token == "" {
		t.Fatal("the submit form has no _csrf token")
	}
	return cookie, token
}

// postForm posts the submit form with a valid CSRF token.
func postForm(t *testing.T, s *Server, puzzle string) *httptest.ResponseRecorder {
	t.Helper()
	cookie, token := csrfPair(t, s)
	return postFormWith(s, url.Values{"puzzle": {puzzle}, "_csrf": {token}}, cookie)
}

func postFormWith(s *Server, form url.Values, cookie *http.Cookie) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, "/puzzles", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if cookie != nil {
		req.AddCookie(cookie)
	}
	return serve(s, req)
}

// seed archives n puzzles with made-up measures: puzzle i (from 1) has one
// given, i*7%n backtracks and is unique unless i is a multiple of 4.
func seed(t *testing.T, f *fakeArchive, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		var g sudoku.Grid
		g[i%81] = uint8(1 + i/81)
		p := record.Puzzle{
			Givens: g, Solution: g, Clues: 1, Solutions: 1, Unique: i%4 != 0,
			Backtracks: int64(i * 7 % n), Guesses: int64(i), SolveNS: int64(i * 1000),
		}
		if !p.Unique {
			p.Solutions = 2
		}
		// Graded 1.0 to 4.9 (easy to fiendish), but for those with
		// several solutions.
		p.GradeVersion, p.Technique = "test", "t"
		if p.Unique {
			p.SetGradeTenths(10 + int64(i*7%n))
		}
		if _, _, err := f.Submit(context.Background(), p); err != nil {
			t.Fatal(err)
		}
	}
}

// measured returns a puzzle measured by the engine.
func measured(t *testing.T, s string) record.Puzzle {
	t.Helper()
	g, err := sudoku.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	p, err := record.Rate(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ids(sel *goquery.Selection) []string {
	var out []string
	sel.Each(func(_ int, s *goquery.Selection) { out = append(out, s.AttrOr("data-id", "?")) })
	return out
}

func TestHomePage(t *testing.T) {
	s, f := newTestServer(t, Config{})
	seed(t, f, 8)
	rec := get(t, s, "/")
	if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("CSP %q", csp)
	}
	doc := page(t, rec, http.StatusOK)
	if n := tid(doc, "grid-editor").Find("input").Length(); n != 81 {
		t.Errorf("grid editor has %d cells", n)
	}
	if tid(doc, "paste-box").AttrOr("name", "") != "puzzle" {
		t.Error("no paste box named puzzle")
	}
	if n := tid(doc, "examples").Find("a[data-example]").Length(); n != len(examples) {
		t.Errorf("%d examples", n)
	}
	var recent []string
	tid(doc, "recent").Find(`[data-testid="puzzle-link"]`).Each(func(_ int, a *goquery.Selection) {
		recent = append(recent, a.AttrOr("href", ""))
	})
	if diff := cmp.Diff([]string{"/puzzles/8", "/puzzles/7", "/puzzles/6", "/puzzles/5", "/puzzles/4"}, recent); diff != "" {
		t.Errorf("recent (-want +got):\n%s", diff)
	}
	// Backtracks are i*7%8: 7 (i=1), 6 (i=2), 5 (i=3), 4 (i=4), 3 (i=5), ...
	var hardest []string
	tid(doc, "hardest").Find(`[data-testid="puzzle-link"]`).Each(func(_ int, a *goquery.Selection) {
		hardest = append(hardest, a.AttrOr("href", ""))
	})
	if diff := cmp.Diff([]string{"/puzzles/1", "/puzzles/2", "/puzzles/3", "/puzzles/4", "/puzzles/5"}, hardest); diff != "" {
		t.Errorf("hardest (-want +got):\n%s", diff)
	}
}

func TestHomePageEmptyArchive(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	doc := page(t, get(t, s, "/"), http.StatusOK)
	if !strings.Contains(tid(doc, "recent").Text(), "Nothing archived yet") {
		t.Error("no empty state in the recent list")
	}
}

func TestHomePageExample(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	doc := page(t, get(t, s, "/?example=5"), http.StatusOK)
	if got := strings.ReplaceAll(tid(doc, "paste-box").Text(), "\n", ""); got != examples[4].Puzzle {
		t.Errorf("paste box %q, want example 5", got)
	}
	if got := tid(doc, "cell-8").AttrOr("value", ""); got != "8" {
		t.Errorf("cell 8 shows %q, want 8", got)
	}
	for _, bad := range []string{"0", "6", "x"} {
		doc := page(t, get(t, s, "/?example="+bad), http.StatusBadRequest)
		if !strings.Contains(tid(doc, "error-message").Text(), "examples are numbered 1 to 5") {
			t.Errorf("example=%s: message %q", bad, tid(doc, "error-message").Text())
		}
	}
}

// Every example really is a puzzle with one solution, and they are listed
// from easy to hard.
func TestExamplesAreRealPuzzles(t *testing.T) {
	for _, ex := range examples {
		p := measured(t, ex.Puzzle)
		if !p.Unique {
			t.Errorf("example %s is not unique", ex.Label)
		}
	}
}

func TestSubmitFormArchivesAndRedirects(t *testing.T) {
	s, f := newTestServer(t, Config{})
	rec := postForm(t, s, easy)
	if rec.Code != http.StatusSeeOther {
		t.Fatalf("status %d, want 303; body %s", rec.Code, rec.Body)
	}
	if loc := rec.Header().Get("Location"); loc != "/puzzles/1?new=1" {
		t.Errorf("Location %q", loc)
	}
	if len(f.puzzles) != 1 || f.puzzles[0].Solution.String() != easySolution {
		t.Fatalf("archive holds %+v", f.puzzles)
	}

	// The same givens drawn as a grid: a duplicate.
	var drawn strings.Builder
	for r := range 9 {
		if r > 0 && r%3 == 0 {
			drawn.WriteString("------+-------+------\n")
		}
		for c := range 9 {
			if c > 0 && c%3 == 0 {
				drawn.WriteString("| ")
			}
			drawn.WriteString(easy[r*9+c:r*9+c+1] + " ")
		}
		drawn.WriteString("\n")
	}
	rec = postForm(t, s, drawn.String())
	if loc := rec.Header().Get("Location"); rec.Code != http.StatusSeeOther || loc != "/puzzles/1?dup=1" {
		t.Fatalf("resubmit: %d %q", rec.Code, loc)
	}
	doc := page(t, get(t, s, "/puzzles/1?dup=1"), http.StatusOK)
	if got := tid(doc, "notice-dup").Text(); !strings.Contains(got, "submitted 2 times") {
		t.Errorf("duplicate notice %q", got)
	}
}

func TestSubmitFormRejects(t *testing.T) {
	html := "<b>55</b>" + strings.Repeat(".", 79)
	for _, tc := range []struct {
		name, input   string
		wantMessage   string
		wantConflicts []string // data-cell of highlighted cells
		wantMark      string
	}{
		{name: "markup", input: html, wantMessage: "'<' at position 1 is not a cell", wantMark: "<"},
		{name: "too short", input: easy[:80], wantMessage: "Expected 81 cells, got 80"},
		{name: "bad character", input: easy[:11] + "x" + easy[12:], wantMessage: "'x' at position 12", wantMark: "x"},
		{name: "conflict", input: conflict, wantMessage: "Row 1 has two 5s", wantConflicts: []string{"0", "4"}},
		{name: "column conflict", input: "7" + strings.Repeat(".", 26) + "7" + strings.Repeat(".", 53), wantMessage: "Column 1 has two 7s", wantConflicts: []string{"0", "27"}},
		{name: "no solution", input: noSolution, wantMessage: "This puzzle has no solution"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, f := newTestServer(t, Config{})
			rec := postForm(t, s, tc.input)
			body := rec.Body.String()
			doc := page(t, rec, http.StatusUnprocessableEntity)
			if got := tid(doc, "paste-box").Text(); got != tc.input {
				t.Errorf("input not kept: %q", got)
			}
			if got := tid(doc, "form-error-message").Text(); !strings.Contains(got, tc.wantMessage) {
				t.Errorf("message %q, want it to contain %q", got, tc.wantMessage)
			}
			var marked []string
			tid(doc, "grid-editor").Find("td.conflict input").Each(func(_ int, s *goquery.Selection) {
				marked = append(marked, s.AttrOr("data-cell", ""))
			})
			if diff := cmp.Diff(tc.wantConflicts, marked); diff != "" {
				t.Errorf("highlighted cells (-want +got):\n%s", diff)
			}
			if got := tid(doc, "error-context").Find("mark").Text(); got != tc.wantMark {
				t.Errorf("marked %q, want %q", got, tc.wantMark)
			}
			if strings.Contains(body, "<b>55") {
				t.Error("user input rendered as markup")
			}
			if tc.input == html && !strings.Contains(body, "&lt;b&gt;55") {
				t.Error("escaped input missing from the page")
			}
			if tid(doc, "submit-form").Find(`input[name="_csrf"]`).AttrOr("value", "") == "" {
				t.Error("re-rendered form has no CSRF token")
			}
			if len(f.puzzles) != 0 {
				t.Errorf("rejected input stored: %+v", f.puzzles)
			}
		})
	}
}

func TestSubmitFormNeedsCSRFToken(t *testing.T) {
	s, f := newTestServer(t, Config{})
	cookie, token := csrfPair(t, s)
	for _, tc := range []struct {
		name   string
		form   url.Values
		cookie *http.Cookie
	}{
		{"no token, no cookie", url.Values{"puzzle": {easy}}, nil},
		{"cookie but no token", url.Values{"puzzle": {easy}}, cookie},
		{"token but no cookie", url.Values{"puzzle": {easy}, "_csrf": {token}}, nil},
		{"wrong token", url.Values{"puzzle": {easy}, "_csrf": {token + "x"}}, cookie},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := postFormWith(s, tc.form, tc.cookie)
			if rec.Code != http.StatusForbidden && rec.Code != http.StatusBadRequest {
				t.Fatalf("status %d, want 403 (or 400 for a missing token)", rec.Code)
			}
			doc := page(t, rec, rec.Code)
			if tid(doc, "error-page").Length() != 1 {
				t.Error("no error page")
			}
		})
	}
	if len(f.puzzles) != 0 {
		t.Fatalf("a forged form stored %d puzzles", len(f.puzzles))
	}
	if rec := postFormWith(s, url.Values{"puzzle": {easy}, "_csrf": {token}}, cookie); rec.Code != http.StatusSeeOther {
		t.Fatalf("valid token: status %d", rec.Code)
	}
}

// recordingArchive remembers the last listing asked of it.
type recordingArchive struct {
	*fakeArchive
	mu   sync.Mutex
	last record.ListQuery
}

func (r *recordingArchive) List(ctx context.Context, q record.ListQuery) (record.Page, error) {
	r.mu.Lock()
	r.last = q
	r.mu.Unlock()
	return r.fakeArchive.List(ctx, q)
}

func TestHistoryPage(t *testing.T) {
	s, f := newTestServer(t, Config{})
	seed(t, f, 25)

	doc := page(t, get(t, s, "/puzzles?sort=backtracks&order=desc"), http.StatusOK)
	if got := tid(doc, "total").Text(); got != "25 puzzles, most backtracks first." {
		t.Errorf("summary %q", got)
	}
	var backtracks []int
	tid(doc, "col-backtracks").Each(func(_ int, s *goquery.Selection) {
		n, _ := strconv.Atoi(s.Text())
		backtracks = append(backtracks, n)
	})
	if len(backtracks) != 20 || backtracks[0] != 24 || backtracks[19] != 5 {
		t.Errorf("backtracks column %v, want 24 down to 5", backtracks)
	}
	th := tid(doc, "th-backtracks")
	if th.AttrOr("aria-sort", "") != "descending" || th.Find(".arrow").Text() != "↓" {
		t.Errorf("backtracks header: aria-sort %q arrow %q", th.AttrOr("aria-sort", ""), th.Find(".arrow").Text())
	}
	if href := tid(doc, "sort-backtracks").AttrOr("href", ""); href != "/puzzles?order=asc&sort=backtracks" {
		t.Errorf("flip link %q", href)
	}
	next := tid(doc, "next").AttrOr("href", "")
	if next == "" || tid(doc, "prev").Length() != 0 {
		t.Fatalf("first page: next %q, prev shown %v", next, tid(doc, "prev").Length() != 0)
	}

	doc = page(t, get(t, s, next), http.StatusOK)
	if n := tid(doc, "history-row").Length(); n != 5 {
		t.Errorf("second page has %d rows, want 5", n)
	}
	if tid(doc, "next").Length() != 0 {
		t.Error("next link on the last page")
	}
	prev := tid(doc, "prev").AttrOr("href", "")
	doc = page(t, get(t, s, prev), http.StatusOK)
	// Backtracks are i*7%25, so 24 backtracks is puzzle 7.
	if got := ids(tid(doc, "history-row")); len(got) != 20 || got[0] != "7" {
		t.Errorf("back on page 1: rows %v", got)
	}

	// Ascending, unique only (no multiple of 4): 0, 1 and 2 backtracks are
	// puzzles 25, 18 and 11.
	doc = page(t, get(t, s, "/puzzles?sort=backtracks&order=asc&unique=1&limit=3"), http.StatusOK)
	if got := tid(doc, "total").Text(); got != "19 puzzles with one solution, fewest backtracks first." {
		t.Errorf("summary %q", got)
	}
	if diff := cmp.Diff([]string{"25", "18", "11"}, ids(tid(doc, "history-row"))); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if !tid(doc, "unique-filter").Is("[checked]") {
		t.Error("unique filter not shown checked")
	}
	if next := tid(doc, "next").AttrOr("href", ""); next != "/puzzles?cursor=3&limit=3&order=asc&sort=backtracks&unique=1" {
		t.Errorf("next keeps the view: %q", next)
	}
}

func TestHistoryAround(t *testing.T) {
	f := &recordingArchive{fakeArchive: &fakeArchive{}}
	seed(t, f.fakeArchive, 5)
	s := New(partsOf(f), Config{})
	doc := page(t, get(t, s, "/puzzles?sort=difficulty&order=desc&around=3"), http.StatusOK)
	if f.last.Around != 3 || f.last.Sort != record.SortDifficulty || !f.last.Desc {
		t.Errorf("archive asked for %+v", f.last)
	}
	if got := ids(doc.Find("tr.highlight")); len(got) != 1 || got[0] != "3" {
		t.Errorf("highlighted rows %v, want [3]", got)
	}
	// A cursor takes over from around: paging on from the neighbourhood.
	page(t, get(t, s, "/puzzles?around=3&cursor=2"), http.StatusOK)
	if f.last.Around != 0 {
		t.Errorf("around sent along with a cursor: %+v", f.last)
	}
}

func TestHistoryBadParameters(t *testing.T) {
	s, f := newTestServer(t, Config{})
	seed(t, f, 3)
	for _, q := range []string{"sort=hardness", "order=up", "limit=0", "limit=101", "unique=maybe", "around=x", "around=-1", "cursor=nonsense"} {
		t.Run(q, func(t *testing.T) {
			doc := page(t, get(t, s, "/puzzles?"+q), http.StatusBadRequest)
			msg := tid(doc, "error-message").Text()
			name := q[:strings.Index(q, "=")]
			if !strings.Contains(msg, name) {
				t.Errorf("message %q does not name %q", msg, name)
			}
			if doc.Find(`a[href="/"]`).Length() == 0 {
				t.Error("error page has no way home")
			}
		})
	}
}

func TestHistoryEmptyArchive(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	doc := page(t, get(t, s, "/puzzles"), http.StatusOK)
	if tid(doc, "history-empty").Length() != 1 {
		t.Error("no empty state")
	}
}

func TestPuzzlePage(t *testing.T) {
	s, f := newTestServer(t, Config{})
	p := measured(t, easy)
	if _, _, err := f.Submit(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	doc := page(t, get(t, s, "/puzzles/1?new=1"), http.StatusOK)
	if got := tid(doc, "board").AttrOr("data-solution", ""); got != easySolution {
		t.Errorf("board solution %q", got)
	}
	if tid(doc, "notice-new").Length() != 1 {
		t.Error("no notice after a fresh submit")
	}
	if got := tid(doc, "measure-backtracks").Find(".measure-value").Text(); got != strconv.FormatInt(p.Backtracks, 10) {
		t.Errorf("backtracks %q, want %d", got, p.Backtracks)
	}
	if got := tid(doc, "history-link").AttrOr("href", ""); got != "/puzzles?sort=human&order=desc&around=1" {
		t.Errorf("history link %q", got)
	}
	if got := tid(doc, "json-link").AttrOr("href", ""); got != "/api/puzzles/1" {
		t.Errorf("json link %q", got)
	}
	if got := doc.Find("title").Text(); got != "Puzzle #1 · Sudoku Archive" {
		t.Errorf("title %q", got)
	}
}

func TestPuzzlePageNotFound(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, path := range []string{"/puzzles/999", "/puzzles/abc", "/puzzles/0", "/no/such/page"} {
		t.Run(path, func(t *testing.T) {
			doc := page(t, get(t, s, path), http.StatusNotFound)
			if got := tid(doc, "error-status").Text(); got != "404" {
				t.Errorf("status shown %q", got)
			}
			if got := tid(doc, "error-message").Text(); !strings.HasPrefix(got, "There is no") {
				t.Errorf("message %q", got)
			}
			if doc.Find(`nav a[href="/puzzles"]`).Length() != 1 || doc.Find(`nav a[href="/"]`).Length() != 1 {
				t.Error("error page lacks the site's navigation")
			}
		})
	}
}

func TestStatsPage(t *testing.T) {
	s, f := newTestServer(t, Config{})
	doc := page(t, get(t, s, "/stats"), http.StatusOK)
	if got := tid(doc, "stat-total").Text(); got != "0" || tid(doc, "stats-empty").Length() != 1 {
		t.Errorf("empty archive: total %q, empty state %d", got, tid(doc, "stats-empty").Length())
	}
	seed(t, f, 10)
	doc = page(t, get(t, s, "/stats"), http.StatusOK)
	for id, want := range map[string]string{"stat-total": "10", "stat-unique": "8", "stat-not-unique": "2"} {
		if got := tid(doc, id).Text(); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
}

func TestPagesServeStaticAssets(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	doc := page(t, get(t, s, "/"), http.StatusOK)
	var refs []string
	doc.Find(`link[rel="stylesheet"], link[rel="icon"], script[src]`).Each(func(_ int, sel *goquery.Selection) {
		refs = append(refs, sel.AttrOr("href", sel.AttrOr("src", "")))
	})
	if len(refs) != 3 {
		t.Fatalf("asset references %v", refs)
	}
	for _, ref := range refs {
		if rec := get(t, s, ref); rec.Code != http.StatusOK || rec.Body.Len() == 0 {
			t.Errorf("GET %s: %d, %d bytes", ref, rec.Code, rec.Body.Len())
		}
	}
}
