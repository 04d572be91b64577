package web

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/static"
)

// rateLimitPeer is the client of TestRateLimit's POSTs.
const rateLimitPeer = "192.0.2.1:1234"

func TestRateLimit(t *testing.T) {
	t.Run("burst of three times the rate, then 429", testRateBurst)
	t.Run("slow rate waits longer", testRateSlow)
	t.Run("forged X-Forwarded-For does not escape the limit", testRateForgedXFF)
	t.Run("trusted proxy: each forwarded client has its own limit", testRateTrustedProxy)
	t.Run("0 turns it off", testRateOff)
}

// postSolveFrom POSTs a puzzle to /api/solve from remote, with xff as its
// X-Forwarded-For header unless empty.
func postSolveFrom(t *testing.T, s *Server, remote string, xff string) *httptest.ResponseRecorder {
	t.Helper()
	h := http.Header{}
	if xff != "" {
		h.Set("X-Forwarded-For", xff)
	}
	return do(t, s, request{method: http.MethodPost, path: "/api/solve", body: puzzleBody(easy), remoteAddr: remote, header: h})
}

// testRateBurst: a burst of three times the rate passes, the next POST is refused with
// 429 and Retry-After; another client and reads are not held back.
func testRateBurst(t *testing.T) {
	s, _ := newTestServer(t, Config{RateLimit: 1})
	for i := range 3 {
		if rec := postSolveFrom(t, s, rateLimitPeer, ""); rec.Code != http.StatusOK {
			t.Fatalf("POST %d: status %d, body %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := postSolveFrom(t, s, rateLimitPeer, "")
	if rec.Code != http.StatusTooManyRequests {
		t.Fatalf("POST 4: status %d, want 429", rec.Code)
	}
	if got := rec.Header().Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1", got)
	}
	if msg := decode[apiErr](t, rec).Error; !strings.Contains(msg, "too many") {
		t.Errorf("error %q", msg)
	}
	// Another client is not held back, and reads are never limited.
	if rec := postSolveFrom(t, s, "192.0.2.2:1234", ""); rec.Code != http.StatusOK {
		t.Errorf("other client: status %d", rec.Code)
	}
	for i := range 20 {
		rec := do(t, s, request{method: http.MethodGet, path: "/api/puzzles", remoteAddr: rateLimitPeer})
		if rec.Code != http.StatusOK {
			t.Fatalf("GET %d: status %d", i, rec.Code)
		}
	}
}

// testRateSlow: a slower rate asks to wait longer.
func testRateSlow(t *testing.T) {
	s, _ := newTestServer(t, Config{RateLimit: 0.25})
	postSolveFrom(t, s, rateLimitPeer, "")
	rec := postSolveFrom(t, s, rateLimitPeer, "")
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "4" {
		t.Errorf("status %d, Retry-After %q; want 429, 4", rec.Code, rec.Header().Get("Retry-After"))
	}
}

// testRateForgedXFF: a forged X-Forwarded-For does not escape the limit.
func testRateForgedXFF(t *testing.T) {
	s, _ := newTestServer(t, Config{RateLimit: 1})
	var codes []int
	for i := range 4 {
		codes = append(codes, postSolveFrom(t, s, rateLimitPeer, fmt.Sprintf("198.51.100.%d", i)).Code)
	}
	if codes[3] != http.StatusTooManyRequests {
		t.Errorf("statuses %v: the 4th should be 429", codes)
	}
}

// testRateTrustedProxy: behind a trusted proxy each forwarded client has its own limit; a
// peer outside the trusted network cannot pick its address.
func testRateTrustedProxy(t *testing.T) {
	s, _ := newTestServer(t, Config{RateLimit: 1, TrustedProxies: []netip.Prefix{netip.MustParsePrefix("10.0.0.0/8")}})
	for i := range 6 {
		if rec := postSolveFrom(t, s, "10.1.2.3:5555", fmt.Sprintf("198.51.100.%d", i)); rec.Code != http.StatusOK {
			t.Fatalf("client %d: status %d", i, rec.Code)
		}
	}
	for range 3 {
		postSolveFrom(t, s, "10.1.2.3:5555", "198.51.100.200")
	}
	if rec := postSolveFrom(t, s, "10.1.2.3:5555", "198.51.100.200"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("same forwarded client, 4th POST: status %d, want 429", rec.Code)
	}
	// A peer outside the trusted network cannot pick its address.
	for range 3 {
		postSolveFrom(t, s, rateLimitPeer, "198.51.100.1")
	}
	if rec := postSolveFrom(t, s, rateLimitPeer, "198.51.100.77"); rec.Code != http.StatusTooManyRequests {
		t.Errorf("untrusted peer with forged header: status %d, want 429", rec.Code)
	}
}

// testRateOff: a rate of 0 turns the limit off.
func testRateOff(t *testing.T) {
	s, _ := newTestServer(t, Config{RateLimit: 0})
	for i := range 30 {
		if rec := postSolveFrom(t, s, rateLimitPeer, ""); rec.Code != http.StatusOK {
			t.Fatalf("POST %d: status %d", i+1, rec.Code)
		}
	}
}

func TestCSRF(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	form := "puzzle=" + url.QueryEscape(easy)

	t.Run("form post without token", func(t *testing.T) {
		rec := do(t, s, request{method: http.MethodPost, path: "/puzzles", body: form, contentType: "application/x-www-form-urlencoded"})
		if rec.Code != http.StatusForbidden {
			t.Fatalf("status %d, want 403; body %s", rec.Code, rec.Body)
		}
	})
	t.Run("form post with a token that does not match the cookie", func(t *testing.T) {
		h := http.Header{"Cookie": {"_csrf=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}
		rec := do(t, s, request{method: http.MethodPost, path: "/puzzles", body: form + "&_csrf=bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
			contentType: "application/x-www-form-urlencoded", header: h})
		if rec.Code != http.StatusForbidden {
			t.Fatalf("status %d, want 403; body %s", rec.Code, rec.Body)
		}
	})
	t.Run("cross-site form post", func(t *testing.T) {
		h := http.Header{"Sec-Fetch-Site": {"cross-site"}, "Origin": {"https://evil.example"}}
		rec := do(t, s, request{method: http.MethodPost, path: "/puzzles", body: form, contentType: "application/x-www-form-urlencoded", header: h})
		if rec.Code != http.StatusForbidden {
			t.Fatalf("status %d, want 403; body %s", rec.Code, rec.Body)
		}
	})
	t.Run("pages set the token cookie", func(t *testing.T) {
		rec := get(t, s, "/stats")
		var csrf *http.Cookie
		for _, c := range rec.Result().Cookies() {
			if c.Name == "_csrf" {
				csrf = c
			}
		}
		if csrf == nil {
			t.Fatalf("no _csrf cookie; headers %v", rec.Header())
		}
		if !csrf.HttpOnly || csrf.SameSite != http.SameSiteLaxMode || csrf.Path != "/" || len(csrf.Value) < 32 {
			t.Errorf("cookie %+v: want HttpOnly, SameSite=Lax, Path=/, a 32-char token", csrf)
		}
	})
	t.Run("the JSON API needs no token", func(t *testing.T) {
		if rec := post(t, s, "/api/puzzles", puzzleBody(easy)); rec.Code != http.StatusCreated {
			t.Fatalf("status %d, body %s", rec.Code, rec.Body)
		}
	})
}

func TestSecurityHeaders(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	for _, r := range []request{
		{method: http.MethodGet, path: "/api/puzzles"},
		{method: http.MethodPost, path: "/api/puzzles", body: puzzleBody(conflict)},
		{method: http.MethodGet, path: "/static/css/app.css"},
		{method: http.MethodGet, path: "/healthz"},
		{method: http.MethodGet, path: "/no/such/page"},
	} {
		t.Run(r.method+" "+r.path, func(t *testing.T) {
			h := do(t, s, r).Header()
			for name, want := range map[string]string{
				"Content-Security-Policy": contentSecurityPolicy,
				"X-Content-Type-Options":  "nosniff",
				"X-Frame-Options":         "DENY",
				"Referrer-Policy":         "same-origin",
			} {
				if got := h.Get(name); got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			if csp := h.Get("Content-Security-Policy"); strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "script-src 'self'") {
				t.Errorf("CSP %q allows inline script", csp)
			}
		})
	}
}

func TestStatic(t *testing.T) {
	s, _ := newTestServer(t, Config{})
	rec := get(t, s, "/static/css/app.css")
	if rec.Code != http.StatusOK {
		t.Fatalf("status %d", rec.Code)
	}
	h := rec.Header()
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "text/css") {
		t.Errorf("Content-Type %q", ct)
	}
	// The stylesheet is its parts joined in order, the last one whole.
	css, err := static.Stylesheet()
	if err != nil {
		t.Fatal(err)
	}
	last, _ := static.FS.ReadFile("css/" + static.Stylesheets[len(static.Stylesheets)-1])
	if rec.Body.String() != string(css) || !bytes.HasSuffix(rec.Body.Bytes(), last) {
		t.Errorf("/static/css/app.css is not the parts joined (%d bytes, want %d)", rec.Body.Len(), len(css))
	}
	if h.Get("Cache-Control") != assetCacheControl || h.Get("ETag") == "" {
		t.Errorf("Cache-Control %q, ETag %q", h.Get("Cache-Control"), h.Get("ETag"))
	}
	again := do(t, s, request{method: http.MethodGet, path: "/static/css/app.css", header: http.Header{"If-None-Match": {h.Get("ETag")}}})
	if again.Code != http.StatusNotModified {
		t.Errorf("revalidation: status %d, want 304", again.Code)
	}
	if rec := get(t, s, "/static/js/app.js"); rec.Code != http.StatusOK {
		t.Errorf("app.js: status %d", rec.Code)
	}

	for _, path := range []string{"/static/", "/static/css/", "/static/css", "/static/../go.mod", "/static/css/../../go.mod",
		"/static/%2e%2e/go.mod", "/static/..%2fgo.mod", "/static//css/app.css", "/static/./css/app.css", "/static/static.go", "/static/nope.css"} {
		t.Run(path, func(t *testing.T) {
			req := httptestRequest(http.MethodGet, "/", "")
			req.URL = &url.URL{Path: path, RawPath: path}
			req.RequestURI = path
			if u, err := url.ParseRequestURI(path); err == nil {
				req.URL = u
			}
			rec := serve(s, req)
			if rec.Code != http.StatusNotFound {
				t.Errorf("status %d, want 404; body %.200s", rec.Code, rec.Body)
			}
		})
	}
}

func TestHealthz(t *testing.T) {
	s, f := newTestServer(t, Config{})
	if rec := get(t, s, "/healthz"); rec.Code != http.StatusOK || rec.Body.String() != "ok" {
		t.Errorf("status %d, body %q; want 200 ok", rec.Code, rec.Body)
	}
	f.pingErr = errors.New("disk I/O error")
	rec := get(t, s, "/healthz")
	if rec.Code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", rec.Code)
	}
	if msg := decode[apiErr](t, rec).Error; msg != "database unavailable" {
		t.Errorf("error %q", msg)
	}
}

// brokenArchive fails or blocks in the ways a real store can.
type brokenArchive struct {
	fakeArchive
	submitErr error
	block     bool // Submit waits for its context
	panics    bool // Puzzle panics
}

func (b *brokenArchive) Submit(ctx context.Context, p record.Puzzle) (record.Puzzle, bool, error) {
	if b.block {
		<-ctx.Done()
		return record.Puzzle{}, false, fmt.Errorf("commit: %w", ctx.Err())
	}
	if b.submitErr != nil {
		return record.Puzzle{}, false, b.submitErr
	}
	return b.fakeArchive.Submit(ctx, p)
}

func (b *brokenArchive) Puzzle(ctx context.Context, id int64) (record.Puzzle, error) {
	if b.panics {
		panic("corrupt row")
	}
	return b.fakeArchive.Puzzle(ctx, id)
}

// unavailable stands in for the store's unavailable errors (ErrFull,
// ErrBusy, ErrClosed): web knows them by their kind (record.Classified)
// and their RetryAfter method, never by their text.
type unavailable struct {
	msg   string
	retry time.Duration
	kind  record.Kind
}

func (u *unavailable) Error() string             { return u.msg }
func (u *unavailable) RetryAfter() time.Duration { return u.retry }
func (u *unavailable) Kind() record.Kind         { return u.kind }

// errFull and errBusy stand in for store.ErrFull and store.ErrBusy. Their
// texts are not the store's: the answer must not depend on them.
var (
	errFull = &unavailable{"no room", time.Minute, record.KindFull}
	errBusy = &unavailable{"held by another", 2 * time.Second, record.KindBusy}
)

func TestArchiveFailures(t *testing.T) {
	var logs strings.Builder
	var mu sync.Mutex
	logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
		mu.Lock()
		defer mu.Unlock()
		return logs.Write(p)
	}), nil))

	for _, tc := range []struct {
		name    string
		archive *brokenArchive
		cfg     Config
		path    string
		status  int
		msg     string
	}{
		{"store full", &brokenArchive{submitErr: fmt.Errorf("insert: %w", errFull)}, Config{},
			"/api/puzzles", 503, msgFull},
		{"unknown store error", &brokenArchive{submitErr: errors.New("SQL logic error near SELECT")}, Config{},
			"/api/puzzles", 500, msgInternal},
		{"request timeout", &brokenArchive{block: true}, Config{RequestTimeout: 20 * time.Millisecond},
			"/api/puzzles", 503, msgTimeout},
		{"panic", &brokenArchive{panics: true}, Config{}, "/api/puzzles/1", 500, msgInternal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Logger = logger
			s := New(partsOf(tc.archive), tc.cfg)
			var rec *httptest.ResponseRecorder
			if strings.HasSuffix(tc.path, "/1") {
				rec = get(t, s, tc.path)
			} else {
				rec = post(t, s, tc.path, puzzleBody(easy))
			}
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tc.status, rec.Body)
			}
			if msg := decode[apiErr](t, rec).Error; msg != tc.msg {
				t.Errorf("error %q, want %q", msg, tc.msg)
			}
			if strings.Contains(rec.Body.String(), "SQL") {
				t.Errorf("internal detail leaked: %s", rec.Body)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(logs.String(), "SQL logic error") || !strings.Contains(logs.String(), "corrupt row") {
		t.Errorf("5xx causes not logged:\n%s", logs.String())
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		err    error
		status int
	}{
		{&sudoku.ParseError{Got: 3}, 400},
		{fmt.Errorf("rate: %w", &sudoku.ConflictError{}), 422},
		{sudoku.ErrNoSolution, 422},
		{fmt.Errorf("rate: %w", sudoku.ErrBudget), 422},
		{fmt.Errorf("load puzzle 3: %w", record.ErrNotFound), 404},
		{fmt.Errorf("list: %w", record.ErrInvalidCursor), 400},
		{fmt.Errorf("commit: %w", context.DeadlineExceeded), 503},
		{context.Canceled, 503},
		{sudoku.ErrCanceled, 503},
		{fmt.Errorf("submit: %w", errBusy), 503},
		{fmt.Errorf("submit: %w", errFull), 503},
		{errOverloaded, 503},
		{errors.New("boom"), 500},
	} {
		if a := classify(tc.err); a.status != tc.status || a.body.Error == "" {
			t.Errorf("classify(%v) = %d %q, want %d and a message", tc.err, a.status, a.body.Error, tc.status)
		}
	}
	if a := classify(sudoku.ErrBudget); !strings.Contains(a.body.Error, "too hard") {
		t.Errorf("budget message %q", a.body.Error)
	}
}

// TestServeShutsDownGracefully starts the real listener, holds a submission
// in flight, asks the server to stop, and checks that the submission still
// completes while new connections are refused.
func TestServeShutsDownGracefully(t *testing.T) {
	gate := make(chan struct{})
	arch := &gatedArchive{gate: gate, entered: make(chan struct{}, 1)}
	// No keeper of the puzzle of the day: its Submit would pass the gate.
	s := New(partsOf(arch), Config{Logger: slog.New(slog.DiscardHandler), NoDaily: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx, ln) }()

	type result struct {
		status int
		err    error
	}
	inflight := make(chan result, 1)
	go func() {
		res, err := http.Post("http://"+addr+"/api/puzzles", "application/json", strings.NewReader(puzzleBody(easy)))
		if err != nil {
			inflight <- result{err: err}
			return
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		inflight <- result{status: res.StatusCode}
	}()
	<-arch.entered // the submission is inside the archive
	cancel()
	// Wait until the listener is closed, then let the submission finish.
	deadline := time.Now().Add(5 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err != nil {
			break
		}
		c.Close()
		if time.Now().After(deadline) {
			t.Fatal("server still accepts connections after shutdown began")
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(gate)
	if r := <-inflight; r.err != nil || r.status != http.StatusCreated {
		t.Errorf("in-flight submission: status %d, err %v; want 201", r.status, r.err)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve returned %v", err)
	}
}

// gatedArchive holds Submit until gate is closed.
type gatedArchive struct {
	fakeArchive
	gate    chan struct{}
	entered chan struct{}
}

func (g *gatedArchive) Submit(ctx context.Context, p record.Puzzle) (record.Puzzle, bool, error) {
	g.entered <- struct{}{}
	<-g.gate
	return g.fakeArchive.Submit(ctx, p)
}

// TestSlowClientCutOff opens a connection that never finishes its request
// headers: the server must hang up after ReadHeaderTimeout.
func TestSlowClientCutOff(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for the 5 s header timeout")
	}
	s, _ := newTestServer(t, Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Serve(ctx, ln)

	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, "GET /api/puzzles HTTP/1.1\r\nHost: x\r\n") // and then nothing
	start := time.Now()
	c.SetReadDeadline(time.Now().Add(readHeaderTimeout + 5*time.Second))
	_, err = bufio.NewReader(c).ReadString('\n')
	if err == nil {
		// The server may answer 408 before closing; then it must close.
		_, err = io.ReadAll(c)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("connection still open after %s", time.Since(start))
	}
	if waited := time.Since(start); waited > readHeaderTimeout+2*time.Second {
		t.Errorf("cut off after %s, want about %s", waited, readHeaderTimeout)
	}
}

// writerFunc adapts a function to io.Writer.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestRequestLog(t *testing.T) {
	var logs strings.Builder
	s := New(partsOf(&fakeArchive{}), Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	do(t, s, request{method: http.MethodPost, path: "/api/puzzles", body: puzzleBody(conflict), remoteAddr: "192.0.2.9:4444"})
	line := logs.String()
	for _, want := range []string{"msg=request", "method=POST", "path=/api/puzzles", "status=422", "remote_ip=192.0.2.9", "duration_ms=", "bytes="} {
		if !strings.Contains(line, want) {
			t.Errorf("request log %q lacks %q", line, want)
		}
	}
}
