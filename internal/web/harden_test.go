package web

// Tests of issue 18, "Hardening, second pass": one per broken promise and
// per risk. Each failed before its fix.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

var fullSize = flag.Bool("harden.full", false, "issue 18 tests at full size (e.g. two uploads of 1 MiB each) instead of their short form")

// slowArchive is a fake whose export hands rows with a pause between
// chunks, or fails part way, as a large archive or a broken one would.
type slowArchive struct {
	fakeArchive
	rows   int
	pause  time.Duration // after every 100 rows
	failAt int           // 0: never
}

func (a *slowArchive) Export(ctx context.Context, _ record.ListQuery, fn func(record.Puzzle) error) error {
	g, _ := sudoku.Parse(easy)
	sol, _ := sudoku.Parse(easySolution)
	for i := range a.rows {
		if a.failAt > 0 && i == a.failAt {
			return errors.New("disk I/O error")
		}
		if i%100 == 99 {
			select {
			case <-time.After(a.pause):
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		if err := fn(record.Puzzle{ID: int64(i + 1), Givens: g, Solution: sol, Solutions: 1, Unique: true}); err != nil {
			return err
		}
	}
	return nil
}

// logSink collects what a server logs.
type logSink struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logSink) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func (l *logSink) logger() *slog.Logger { return slog.New(slog.NewTextHandler(l, nil)) }

// TestExportOutlivesRequestTimeout (promise 1): an export that takes longer
// than the request timeout still delivers every row; one that fails part
// way ends the connection without the final chunk, and is logged.
func TestExportOutlivesRequestTimeout(t *testing.T) {
	var logs logSink
	a := &slowArchive{rows: 1000, pause: 30 * time.Millisecond}
	s := New(partsOf(a), Config{Logger: logs.logger(), RequestTimeout: 100 * time.Millisecond})
	ts := httptest.NewServer(s)
	defer ts.Close()

	res, err := http.Get(ts.URL + "/api/export")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("export: status %d, %v", res.StatusCode, err)
	}
	if n := bytes.Count(body, []byte("\n")); n != a.rows {
		t.Errorf("export outliving the request timeout: %d rows, want %d", n, a.rows)
	}

	// Past the first 64 KiB (the export's buffer), so the status and some
	// rows have gone out when it fails.
	a.rows, a.failAt, a.pause = 3000, 2000, 0
	res, err = http.Get(ts.URL + "/api/export")
	if err != nil {
		t.Fatal(err)
	}
	body, err = io.ReadAll(res.Body)
	res.Body.Close()
	if err == nil {
		t.Errorf("export failing at row %d: the client read %d rows and a clean end, want a broken download", a.failAt, bytes.Count(body, []byte("\n")))
	}
	// The log line is written as the handler ends, after the client saw
	// the broken download: wait for it (an event), up to a generous bound.
	logged := func(l string) bool {
		return strings.Contains(l, "level=ERROR") && strings.Contains(l, "disk I/O error")
	}
	for deadline := time.Now().Add(20 * time.Second); !logged(logs.String()) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if l := logs.String(); !logged(l) {
		t.Errorf("failed export not logged as an error:\n%s", l)
	}
}

// TestExportStalledClientIsCut: a client that stops reading holds an
// export no longer than ExportStall; the failure is logged.
func TestExportStalledClientIsCut(t *testing.T) {
	var logs logSink
	a := &slowArchive{rows: 200_000}
	s := New(partsOf(a), Config{Logger: logs.logger(), ExportStall: 200 * time.Millisecond})
	ts := httptest.NewServer(s)
	defer ts.Close()
	conn, err := net.Dial("tcp", ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /api/export HTTP/1.1\r\nHost: x\r\n\r\n")
	// Read nothing: the server's writes fill the socket buffers and stall.
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(logs.String(), "export failed") && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(logs.String(), "export failed") {
		t.Fatalf("a client that reads nothing still holds its export:\n%s", logs.String())
	}
}

// TestCrossSiteWritesRefused (promise 2): every unsafe request a page of
// another site can make a browser send is refused, on every route that
// takes one; programs (no browser headers) and this site's pages are not.
func TestCrossSiteWritesRefused(t *testing.T) {
	s, a := newTestServer(t, Config{})
	cross := []http.Header{
		{"Sec-Fetch-Site": {"cross-site"}},
		{"Sec-Fetch-Site": {"same-site"}},
		{"Origin": {"https://evil.example"}},
		{"Origin": {"null"}},
	}
	bodies := map[string]request{
		"/api/puzzles":       {body: puzzleBody(easy)},
		"/api/solve":         {body: puzzleBody(easy)},
		"/api/puzzles/batch": {body: easy + "\n", contentType: "text/plain"},
		"/puzzles":           {body: "puzzle=" + url.QueryEscape(easy), contentType: "application/x-www-form-urlencoded"},
	}
	for _, r := range s.echo.Routes() {
		if r.Method != http.MethodPost {
			continue
		}
		for _, h := range cross {
			req := bodies[r.Path]
			req.method, req.path, req.header = http.MethodPost, r.Path, h
			if req.body == "" {
				req.body, req.contentType = "x", "text/plain"
			}
			if rec := do(t, s, req); rec.Code != http.StatusForbidden {
				t.Errorf("POST %s with %v: status %d, want 403", r.Path, h, rec.Code)
			}
		}
	}
	if len(a.puzzles) != 0 {
		t.Errorf("%d puzzles stored by cross-site requests", len(a.puzzles))
	}
	for _, h := range []http.Header{nil, {"Sec-Fetch-Site": {"same-origin"}}, {"Origin": {"http://example.com"}}} {
		rec := do(t, s, request{method: http.MethodPost, path: "/api/puzzles/batch", body: easy + "\n", contentType: "text/plain", header: h})
		if rec.Code != http.StatusOK {
			t.Errorf("batch with %v: status %d, want 200; %s", h, rec.Code, rec.Body)
		}
	}
}

// TestBusyArchive (promise 3): an archive whose database is locked by
// another process answers 503 with Retry-After, logged as a warning, not
// as the ERROR of a bug.
func TestBusyArchive(t *testing.T) {
	var logs logSink
	s := New(partsOf(&brokenArchive{submitErr: fmt.Errorf("submit puzzle: %w", errBusy)}), Config{Logger: logs.logger()})
	rec := post(t, s, "/api/puzzles", puzzleBody(easy))
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "2" {
		t.Errorf("status %d, Retry-After %q; want 503 and 2", rec.Code, rec.Header().Get("Retry-After"))
	}
	if msg := decode[apiErr](t, rec).Error; msg != msgBusy {
		t.Errorf("message %q, want %q", msg, msgBusy)
	}
	if l := logs.String(); strings.Contains(l, "level=ERROR") || !strings.Contains(l, "level=WARN") {
		t.Errorf("busy archive logged as a bug:\n%s", l)
	}
}

// TestHeadLikeGet (promise 5): every GET route answers HEAD with the
// status and headers of GET and no body.
func TestHeadLikeGet(t *testing.T) {
	s, a := newTestServer(t, Config{})
	a.Submit(t.Context(), measured(t, easy))
	ts := httptest.NewServer(s)
	defer ts.Close()
	params := strings.NewReplacer(":id", "1", "*", "css/app.css")
	for _, r := range s.echo.Routes() {
		if r.Method != http.MethodGet {
			continue
		}
		path := params.Replace(r.Path)
		g, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		g.Body.Close()
		h, err := http.Head(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		h.Body.Close()
		if h.StatusCode != g.StatusCode || (g.StatusCode == 200 && h.Header.Get("Content-Type") != g.Header.Get("Content-Type")) {
			t.Errorf("HEAD %s: %d %q; GET: %d %q", path, h.StatusCode, h.Header.Get("Content-Type"), g.StatusCode, g.Header.Get("Content-Type"))
		}
	}
}

// TestBodyLimitIsKiB (promise 6): the limit is 64 KiB, 65,536 bytes, as
// the 413 says.
func TestBodyLimitIsKiB(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	body := func(n int) string { // a valid request padded with spaces
		b := puzzleBody(easy)
		return b[:len(b)-1] + strings.Repeat(" ", n-len(b)) + "}"
	}
	if rec := post(t, s, "/api/solve", body(BodyLimit)); rec.Code != http.StatusOK {
		t.Errorf("body of %d bytes: status %d, want 200; %s", BodyLimit, rec.Code, rec.Body)
	}
	for _, chunked := range []bool{false, true} {
		req := httptestRequest(http.MethodPost, "/api/solve", body(BodyLimit+1))
		if chunked {
			req.ContentLength = -1
		}
		rec := serve(s, req)
		if rec.Code != http.StatusRequestEntityTooLarge || !strings.Contains(decode[apiErr](t, rec).Error, "64 KiB (65536 bytes)") {
			t.Errorf("body of %d bytes (chunked %v): status %d %s, want 413 naming 64 KiB", BodyLimit+1, chunked, rec.Code, rec.Body)
		}
	}
}

// TestTraceCachedAndCompressed (memory risk): a trace is sent compressed
// to clients that take gzip, decompressed to others, the same JSON, and
// many clients at once share one computation.
func TestTraceCachedAndCompressed(t *testing.T) {
	s, a := newTestServer(t, Config{})
	hard := "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
	a.Submit(t.Context(), measured(t, hard))
	plain := get(t, s, "/api/puzzles/1/trace")
	if plain.Code != 200 || plain.Header().Get("Content-Encoding") != "" {
		t.Fatalf("plain trace: %d %v", plain.Code, plain.Header())
	}
	tr := decode[traceResponse](t, plain)
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			rec := do(t, s, request{method: http.MethodGet, path: "/api/puzzles/1/trace", header: http.Header{"Accept-Encoding": {"gzip"}}})
			if rec.Header().Get("Content-Encoding") != "gzip" {
				t.Errorf("gzip trace: Content-Encoding %q", rec.Header().Get("Content-Encoding"))
				return
			}
			zr, err := gzip.NewReader(rec.Body)
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(zr)
			if !bytes.Equal(b, plain.Body.Bytes()) {
				t.Errorf("gzip trace differs from the plain one")
			}
		})
	}
	wg.Wait()
	n, size := s.arch.TraceCacheSize()
	t.Logf("trace of %d steps: %d bytes of JSON, %d compressed", len(tr.Steps), plain.Body.Len(), size)
	if n != 1 || size <= 0 || size >= plain.Body.Len() {
		t.Errorf("trace cache holds %d entries of %d bytes, want one, smaller than the JSON", n, size)
	}
}

// TestCompression: JSON, HTML, CSS and JS are compressed for clients that
// take gzip.
func TestCompression(t *testing.T) {
	s, a := newTestServer(t, Config{})
	for i := range 30 {
		a.Submit(t.Context(), measured(t, relabel(easy, i)))
	}
	for _, path := range []string{"/api/puzzles", "/puzzles", "/static/css/app.css", "/static/js/app.js"} {
		rec := do(t, s, request{method: http.MethodGet, path: path, header: http.Header{"Accept-Encoding": {"gzip"}}})
		if rec.Code != 200 || rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("GET %s: status %d, Content-Encoding %q, want gzip", path, rec.Code, rec.Header().Get("Content-Encoding"))
		}
	}
}

// TestSearchGate (CPU risk): searches wait for a turn of the search gate,
// at most SearchQueueTimeout, then get 503 with Retry-After; reads do not
// wait for it.
func TestSearchGate(t *testing.T) {
	s, a := newTestServer(t, Config{SearchSlots: 1, SearchQueueTimeout: 50 * time.Millisecond})
	a.Submit(t.Context(), measured(t, easy))
	if err := s.arch.SearchGate().Enter(t.Context()); err != nil { // every slot taken
		t.Fatal(err)
	}
	for _, path := range []string{"/api/solve", "/api/puzzles"} {
		rec := post(t, s, path, puzzleBody(relabel(easy, 7)))
		if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") == "" {
			t.Errorf("POST %s with no free slot: status %d, Retry-After %q; want 503 and one", path, rec.Code, rec.Header().Get("Retry-After"))
		}
	}
	for _, path := range []string{"/api/puzzles", "/api/puzzles/1", "/puzzles", "/healthz"} {
		if rec := get(t, s, path); rec.Code != http.StatusOK {
			t.Errorf("GET %s with no free search slot: %d", path, rec.Code)
		}
	}
	s.arch.SearchGate().Leave()
	if rec := post(t, s, "/api/solve", puzzleBody(easy)); rec.Code != http.StatusOK {
		t.Errorf("solve with a free slot: %d", rec.Code)
	}
}

// TestBatchRepeatsRatedOnce (CPU risk): a batch that repeats one line is
// rated once, not once per line: three times as many copies of a hard
// puzzle as can be rated within the bulk timeout go through within it.
func TestBatchRepeatsRatedOnce(t *testing.T) {
	line := puzzletest.Lines(t, puzzletest.Forum1106, 1)[0][:81]
	const timeout = time.Second
	s, _ := newTestServer(t, Config{BulkTimeout: timeout})
	g, _ := sudoku.Parse(line)
	start := time.Now()
	_, err := record.Rate(g, sudoku.Options{})
	one := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	n := min(MaxBatchBody/83, max(3, int(3*timeout/one)+1))
	body := strings.Repeat(line+"\r\n", n)
	rec := do(t, s, request{method: http.MethodPost, path: batchPath, body: body, contentType: "text/plain"})
	t.Logf("%d copies of a puzzle rated in %v", n, one)
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d %s", rec.Code, rec.Body)
	}
	if r := decode[batchResult](t, rec); r.Imported != 1 || r.Duplicates != int64(n-1) {
		t.Errorf("imported %d, duplicates %d; want 1 and %d", r.Imported, r.Duplicates, n-1)
	}
}

// TestBatchLineEndings (line endings risk): "\r", "\n" and "\r\n" files
// import the same, through the API and the upload form.
func TestBatchLineEndings(t *testing.T) {
	lines := puzzletest.Lines(t, puzzletest.Norvig, 20)
	lines = append(lines, "nope", lines[0])
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		s, _ := newTestServer(t, Config{})
		body := strings.Join(lines, eol) + eol
		rec := do(t, s, request{method: http.MethodPost, path: batchPath, body: body, contentType: "text/plain"})
		r := decode[batchResult](t, rec)
		if r.Imported != 20 || r.Duplicates != 1 || r.Rejected != 1 || len(r.Errors) != 1 || r.Errors[0].Line != 21 {
			t.Errorf("%q endings: %+v, want 20 imported, 1 duplicate, line 21 rejected", eol, r)
		}
		s, a := newBulkServer(t, Config{})
		cookie, token := csrfPair(t, s)
		up := serve(s, upload{file: []byte(body), token: token, cookie: cookie}.request(t))
		if up.Code != http.StatusOK || len(a.puzzles) != 20 || !strings.Contains(up.Body.String(), ">nope<") {
			t.Errorf("%q endings, upload: status %d, %d archived, want 200, 20 and the rejected line shown", eol, up.Code, len(a.puzzles))
		}
	}
}

// TestLargeUploadsConcurrently (large uploads risk): two large batches of
// hard puzzles at once, sharing one search slot, both succeed whole.
// Short form: 300 puzzles each; -harden.full: 12,000 each (984,000 bytes,
// the size of the 1 MiB files), from the forum's hardest list.
func TestLargeUploadsConcurrently(t *testing.T) {
	n := 300
	if *fullSize {
		n = 12_000
	}
	lines := puzzletest.Lines(t, puzzletest.Forum1905, 2*n)
	for i := range lines {
		lines[i] = lines[i][:81]
	}
	s, a := newTestServer(t, Config{SearchSlots: 1})
	ts := httptest.NewServer(s)
	defer ts.Close()
	var wg sync.WaitGroup
	start := time.Now()
	for i := range 2 {
		wg.Go(func() {
			body := strings.Join(lines[i*n:(i+1)*n], "\n") + "\n"
			// On a loaded machine the second upload may wait past the
			// search slot's queue and be told 503 with Retry-After,
			// having archived nothing: a client then sends it again.
			for try := 1; ; try++ {
				res, err := http.Post(ts.URL+batchPath, "text/plain", strings.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode == http.StatusServiceUnavailable && res.Header.Get("Retry-After") != "" && try < 20 {
					t.Logf("upload %d: 503, Retry-After %s (try %d)", i, res.Header.Get("Retry-After"), try)
					time.Sleep(time.Second)
					continue
				}
				if res.StatusCode != 200 {
					t.Errorf("upload %d of %d bytes: status %d %s", i, len(body), res.StatusCode, b)
				}
				return
			}
		})
	}
	wg.Wait()
	t.Logf("two uploads of %d puzzles at once took %v", n, time.Since(start).Round(time.Millisecond))
	if len(a.puzzles) != 2*n {
		t.Errorf("%d puzzles archived, want %d", len(a.puzzles), 2*n)
	}
}

// TestCSRFTokenSigned (CSRF risk): a cookie and field that match but were
// not made by this server are refused, and the token is not read from the
// query string.
func TestCSRFTokenSigned(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	form := "puzzle=" + url.QueryEscape(easy)
	chosen := "attacker-chosen-token-attacker-chosen-token-xxxx"
	rec := do(t, s, request{method: http.MethodPost, path: "/puzzles", body: form + "&_csrf=" + chosen,
		contentType: "application/x-www-form-urlencoded", header: http.Header{"Cookie": {"_csrf=" + chosen}}})
	if rec.Code != http.StatusForbidden {
		t.Errorf("planted token pair: status %d, want 403", rec.Code)
	}
	cookie, token := csrfPair(t, s)
	req := httptest.NewRequest(http.MethodPost, "/puzzles?_csrf="+url.QueryEscape(token), strings.NewReader(form))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.AddCookie(cookie)
	if rec := serve(s, req); rec.Code != http.StatusForbidden {
		t.Errorf("token in the query string: status %d, want 403", rec.Code)
	}
	if rec := postFormWith(s, url.Values{"puzzle": {easy}, "_csrf": {token}}, cookie); rec.Code != http.StatusSeeOther {
		t.Errorf("signed token: status %d, want 303", rec.Code)
	}
}

// TestSmallerAnswers: the smaller wrong answers of issue 18.
func TestSmallerAnswers(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	cookie, token := csrfPair(t, s)
	t.Run("malformed multipart upload is 400", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, importPath, strings.NewReader("--x\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n"+token+"\r\n--x\r\nbroken"))
		req.Header.Set("Content-Type", "multipart/form-data; boundary=x")
		req.AddCookie(cookie)
		if rec := serve(s, req); rec.Code != http.StatusBadRequest {
			t.Errorf("status %d, want 400", rec.Code)
		}
	})
	t.Run("DELETE / is 405", func(t *testing.T) {
		if rec := do(t, s, request{method: http.MethodDelete, path: "/"}); rec.Code != http.StatusMethodNotAllowed {
			t.Errorf("status %d, want 405", rec.Code)
		}
	})
	for _, path := range []string{batchPath, importPath} {
		t.Run("GET "+path+" is 405", func(t *testing.T) {
			rec := get(t, s, path)
			if rec.Code != http.StatusMethodNotAllowed || rec.Header().Get("Allow") != "POST" {
				t.Errorf("status %d, Allow %q; want 405 and POST", rec.Code, rec.Header().Get("Allow"))
			}
		})
	}
	t.Run("Expect: 100-continue with an oversize length is refused before the body", func(t *testing.T) {
		ts := httptest.NewServer(s)
		defer ts.Close()
		for _, path := range []string{"/api/puzzles", batchPath, importPath} {
			conn, err := net.Dial("tcp", ts.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 50000000\r\nExpect: 100-continue\r\n\r\n", path)
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			status, _ := bufio.NewReader(conn).ReadString('\n')
			conn.Close()
			if !strings.Contains(status, "413") {
				t.Errorf("POST %s: first answer %q, want 413 (not 100 Continue)", path, status)
			}
		}
	})
}

// TestEchoAnswersPinned pins what echo v4 answers through the real router
// and our error handler, so that a move to echo v5 that changes any of it
// shows here.
func TestEchoAnswersPinned(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, tc := range []struct {
		name         string
		r            request
		status       int
		contentType  string
		body         string // in the body
		header, want string // a header and its value
	}{
		{"API 404", request{method: "GET", path: "/api/nope"}, 404, "application/json", `{"error":"not found"}`, "", ""},
		{"page 404", request{method: "GET", path: "/nope"}, 404, "text/html", "There is nothing at this address", "", ""},
		{"puzzle 404", request{method: "GET", path: "/puzzles/99"}, 404, "text/html", "There is no puzzle with that number", "", ""},
		{"API puzzle 404", request{method: "GET", path: "/api/puzzles/99"}, 404, "application/json", `{"error":"puzzle not found"}`, "", ""},
		{"API 405", request{method: "DELETE", path: "/api/puzzles"}, 405, "application/json", `{"error":"method not allowed"}`, "Allow", ""},
		{"page 405", request{method: "PUT", path: "/stats"}, 405, "text/html", "does not take that kind of request", "", ""},
		{"413", request{method: "POST", path: "/api/puzzles", body: strings.Repeat(" ", BodyLimit+1)}, 413, "application/json", "64 KiB", "", ""},
		{"415", request{method: "POST", path: "/api/puzzles", body: "x", contentType: "text/plain"}, 415, "application/json", "application/json", "", ""},
		{"handler error 400", request{method: "GET", path: "/api/puzzles?sort=x"}, 400, "application/json", `invalid \"sort\"`, "", ""},
		{"handler error 422", request{method: "POST", path: "/api/solve", body: puzzleBody(conflict)}, 422, "application/json", `"cells":[0,4]`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := do(t, s, tc.r)
			if rec.Code != tc.status || !strings.HasPrefix(rec.Header().Get("Content-Type"), tc.contentType) || !strings.Contains(rec.Body.String(), tc.body) {
				t.Errorf("%s %s: %d %q %s; want %d %q containing %s", tc.r.method, tc.r.path, rec.Code, rec.Header().Get("Content-Type"), truncate(rec.Body.String(), 300), tc.status, tc.contentType, tc.body)
			}
			if tc.header != "" && rec.Header().Get(tc.header) == "" && tc.want == "" {
				t.Logf("%s: no %s header", tc.name, tc.header)
			}
		})
	}
	_ = echo.ErrNotFound
}
