package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// The security tests run the real router over a real SQLite archive in a
// temporary directory (the store the server is given in production), over
// real HTTP where cookies matter, so that what they show holds for
// `sudoku serve` and not for a fake.

// secEnv is one server over a real archive.
type secEnv struct {
	t       *testing.T
	db      *store.DB
	dir     string
	s       *Server
	srv     *httptest.Server
	admins  int      // accounts made by member()
	seeded  int      // puzzles archived by seedNew()
	puzzles []string // seedNew's puzzles, distinct
	// transport carries the browsers' requests (nil: the default).
	transport http.RoundTripper
}

// newSecEnv opens a fresh SQLite archive and serves it with cfg.
func newSecEnv(t *testing.T, cfg Config) *secEnv {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "sudoku.db")
	sqliteArchiveAt(t, path)
	return newSecEnvAt(t, path, dir, cfg)
}

// newSecEnvAt opens a fresh archive at dsn (a SQLite file in dir, or a
// PostgreSQL database) and serves it with cfg.
func newSecEnvAt(t *testing.T, dsn, dir string, cfg Config) *secEnv {
	t.Helper()
	db, err := store.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if cfg.Logger == nil {
		cfg.Logger = quiet
	}
	if cfg.CSRFSecret, err = db.Secret(context.Background()); err != nil {
		t.Fatal(err)
	}
	s := New(AllParts(db), cfg)
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return &secEnv{t: t, db: db, dir: dir, s: s, srv: srv}
}

// eachStore runs fn on a server over a fresh SQLite archive and over a
// fresh PostgreSQL database on the package's shared cluster (skipped,
// saying why, where PostgreSQL's binaries are missing; failed under
// CI=true).
func eachStore(t *testing.T, fn func(t *testing.T, e *secEnv)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, newSecEnv(t, Config{})) })
	t.Run("postgres", func(t *testing.T) {
		fn(t, newSecEnvAt(t, pgArchive(t), "", Config{}))
	})
}

// sub makes t, a subtest's, the test e's helpers fail, until t ends: a
// helper must not end the parent test from a subtest.
func (e *secEnv) sub(t *testing.T) {
	parent := e.t
	e.t = t
	t.Cleanup(func() { e.t = parent })
}

// user makes an account called name with role and returns its password.
func (e *secEnv) user(name string, role account.Role) (account.Player, string) {
	e.t.Helper()
	password := "password of " + name
	hash, err := account.HashPassword(password)
	if err != nil {
		e.t.Fatal(err)
	}
	p, err := e.db.AddUser(context.Background(), name, hash, role, moderation.CLI())
	if err != nil {
		e.t.Fatal(err)
	}
	return p, password
}

// admin makes an admin without a password (no hashing: the tests that use
// it start its sessions themselves).
func (e *secEnv) admin() account.Player { return e.member(account.RoleAdmin) }

// session starts a session of p as a login would and returns its cookie
// value (no password check: the tests that need one log in by the form).
func (e *secEnv) session(p account.Player) string {
	e.t.Helper()
	cookie, hash := e.s.signer.NewSession()
	if err := e.db.StartSession(context.Background(), p.ID, nil, hash, time.Now().Add(time.Hour)); err != nil {
		e.t.Fatal(err)
	}
	return cookie
}

// token issues an API token for the user called name, as `sudoku user
// token` does, and returns it.
func (e *secEnv) token(name string) string {
	e.t.Helper()
	tok, hash := account.NewAPIToken()
	if _, err := e.db.AddToken(context.Background(), name, hash, moderation.CLI()); err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// browser is one browser on e: its own cookie jar, no redirects followed.
type browser struct {
	e    *secEnv
	http *http.Client
}

func (e *secEnv) browser() *browser {
	jar := &hostJar{m: map[string]*http.Cookie{}}
	return &browser{e: e, http: &http.Client{Jar: jar, Transport: e.transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request: a body starting with '{' goes as JSON, any other as
// a form; header holds name, value pairs. It returns the status, the body
// and the response.
func (b *browser) do(method, path, body string, header ...string) (int, string, *http.Response) {
	t := b.e.t
	t.Helper()
	req, err := http.NewRequest(method, b.e.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case strings.HasPrefix(body, "{"):
		req.Header.Set("Content-Type", "application/json")
	case body != "":
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := b.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	text, _ := io.ReadAll(res.Body)
	checkAPIResponse(t, req, res.StatusCode, res.Header, text)
	return res.StatusCode, string(text), res
}

var formTokenRE = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// form gets page, then posts fields to action with the page's CSRF token.
func (b *browser) form(page, action string, fields url.Values) (int, string, *http.Response) {
	t := b.e.t
	t.Helper()
	_, body, _ := b.do(http.MethodGet, page, "")
	m := formTokenRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("no CSRF token on %s", page)
	}
	fields.Set("_csrf", m[1])
	return b.do(http.MethodPost, action, fields.Encode())
}

// hostJar is the cookie jar of a browser that talks to one server: it
// keeps every cookie by name and sends them all, Secure ones over plain
// HTTP too (the server behind a proxy that ends TLS, as with
// --secure-cookies), and drops those a Set-Cookie deletes.
type hostJar struct {
	mu sync.Mutex
	m  map[string]*http.Cookie
}

func (j *hostJar) SetCookies(_ *url.URL, cks []*http.Cookie) {
	j.mu.Lock()
	defer j.mu.Unlock()
	for _, ck := range cks {
		if ck.MaxAge < 0 {
			delete(j.m, ck.Name)
			continue
		}
		j.m[ck.Name] = ck
	}
}

func (j *hostJar) Cookies(*url.URL) []*http.Cookie {
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []*http.Cookie
	for _, ck := range j.m {
		out = append(out, &http.Cookie{Name: ck.Name, Value: ck.Value})
	}
	return out
}

// cookie returns the browser's cookie called name, or nil.
func (b *browser) cookie(name string) *http.Cookie {
	for _, ck := range b.http.Jar.Cookies(nil) {
		if ck.Name == name {
			return ck
		}
	}
	return nil
}

// setCookie gives the browser a cookie, as a planting attacker would.
func (b *browser) setCookie(name, value string) {
	b.http.Jar.SetCookies(nil, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
}

// login posts the login form and wants a 303.
func (b *browser) login(name, password string) {
	b.e.t.Helper()
	status, body, _ := b.form("/login", "/login", url.Values{"name": {name}, "password": {password}})
	if status != http.StatusSeeOther {
		b.e.t.Fatalf("login as %s: %d %.300s", name, status, body)
	}
}

// me returns the name /api/me gives the browser's player, or "" with the
// status when there is none.
func (b *browser) me() (string, int) {
	status, body, _ := b.do(http.MethodGet, "/api/me", "")
	if status != http.StatusOK {
		return "", status
	}
	m := regexp.MustCompile(`"name":\s*"([^"]*)"`).FindStringSubmatch(body)
	if m == nil {
		return "(anonymous)", status
	}
	return m[1], status
}

// loopback trusts the test's own address as a reverse proxy.
var loopback = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8"), netip.MustParsePrefix("::1/128")}

// httptestTLS serves s over TLS, with a certificate the server's Client
// trusts.
func httptestTLS(s *Server) *httptest.Server { return httptest.NewTLSServer(s) }

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	next   http.RoundTripper
	header []string
}

func (h headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for i := 0; i+1 < len(h.header); i += 2 {
		r.Header.Set(h.header[i], h.header[i+1])
	}
	return h.next.RoundTrip(r)
}

// withHeader returns next (the default transport when nil) adding header,
// name and value pairs, to every request.
func withHeader(next http.RoundTripper, header []string) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	if len(header) == 0 {
		return next
	}
	return headerTransport{next: next, header: header}
}

// seedPuzzle archives Norvig's easy puzzle through the API: puzzle 1.
func seedPuzzle(t *testing.T, e *secEnv) {
	t.Helper()
	status, body, _ := e.browser().do(http.MethodPost, "/api/puzzles", puzzleBody(easy))
	if status != http.StatusCreated || !strings.Contains(body, `"id":1,`) {
		t.Fatalf("seed: %d %s", status, body)
	}
}

// drop forgets the cookie called name.
func (j *hostJar) drop(name string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	delete(j.m, name)
}
