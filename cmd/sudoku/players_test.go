package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Norvig's first easy puzzle and its solution.
const (
	playEasy     = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
	playSolution = "483921657967345821251876493548132976729564138136798245372689514814253769695417382"
)

// A client is one browser: its own cookie jar, no redirects followed.
type client struct {
	t    testing.TB
	base string
	http *http.Client
}

func newClient(t testing.TB, base string) *client {
	jar, _ := cookiejar.New(nil)
	return &client{t: t, base: base, http: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// do sends a request; a body starting with '{' goes as JSON, any other as
// a form. It returns the status and the body.
func (c *client) do(method, path, body string, header ...string) (int, string, *http.Response) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
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
	res, err := c.http.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res
}

// json sends a request and decodes the answer into out, wanting status.
func (c *client) json(method, path, body string, want int, out any) {
	c.t.Helper()
	status, b, _ := c.do(method, path, body)
	if status != want {
		c.t.Fatalf("%s %s %s: status %d, want %d; body %s", method, path, body, status, want, b)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(b), out); err != nil {
			c.t.Fatalf("%s %s: %v; body %s", method, path, err, b)
		}
	}
}

var csrfRE = regexp.MustCompile(`name="_csrf" value="([^"]+)"`)

// form gets page, then posts fields to action with the page's CSRF token.
func (c *client) form(page, action string, fields url.Values) (int, string, *http.Response) {
	c.t.Helper()
	_, b, _ := c.do(http.MethodGet, page, "")
	m := csrfRE.FindStringSubmatch(b)
	if m == nil {
		c.t.Fatalf("no CSRF token on %s", page)
	}
	fields.Set("_csrf", m[1])
	return c.do(http.MethodPost, action, fields.Encode())
}

func (c *client) sessionCookie() *http.Cookie {
	u, _ := url.Parse(c.base)
	for _, ck := range c.http.Jar.Cookies(u) {
		if ck.Name == "sudoku_session" {
			return ck
		}
	}
	return nil
}

type attemptJSON struct {
	ID         int64   `json:"id"`
	PuzzleID   int64   `json:"puzzle_id"`
	StartedAt  string  `json:"started_at"`
	FinishedAt *string `json:"finished_at"`
	Outcome    string  `json:"outcome"`
	Seconds    int64   `json:"seconds"`
	Hints      int64   `json:"hints"`
	Checks     int64   `json:"checks"`
	Mistakes   int64   `json:"mistakes"`
	First      bool    `json:"first"`
}

type playerJSON struct {
	ID       int64   `json:"id"`
	Name     *string `json:"name"`
	Role     string  `json:"role"`
	Skill    float64 `json:"skill"`
	Solved   int64   `json:"solved"`
	Attempts int64   `json:"attempts"`
	Streak   int     `json:"streak"`
}

func solvedBody(grid string, secs int) string {
	return fmt.Sprintf(`{"outcome": "solved", "grid": %q, "active_seconds": %d, "hints": 1, "checks": 2, "mistakes": 3, "techniques": ["Hidden Single"]}`, grid, secs)
}

// TestPlayersFlow plays as an anonymous player, then signs up, logs out and
// in, over the real server on both databases: the attempts stay the
// player's throughout, and every refusal records nothing.
func TestPlayersFlow(t *testing.T) { eachArchive(t, testPlayersFlow) }

func testPlayersFlow(t *testing.T, db string) {
	srv := startServe(t, db, "--rate-limit", "0")
	ann := newClient(t, srv.url)
	var pz puzzleJSON
	ann.json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasy), http.StatusCreated, &pz)

	// No player yet: /api/me says so.
	ann.json(http.MethodGet, "/api/me", "", http.StatusUnauthorized, nil)
	// The first play makes the player and its cookie.
	var a attemptJSON
	start := fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID)
	status, body, res := ann.do(http.MethodPost, "/api/attempts", start)
	if status != http.StatusCreated {
		t.Fatalf("start: %d %s", status, body)
	}
	json.Unmarshal([]byte(body), &a)
	setCookie := res.Header.Get("Set-Cookie")
	for _, want := range []string{"sudoku_session=", "HttpOnly", "SameSite=Lax"} {
		if !strings.Contains(setCookie, want) {
			t.Errorf("Set-Cookie %q lacks %s", setCookie, want)
		}
	}
	if strings.Contains(setCookie, "Secure") {
		t.Errorf("Set-Cookie %q is Secure on plain HTTP without --secure-cookies", setCookie)
	}
	// A reload continues it.
	var again attemptJSON
	ann.json(http.MethodPost, "/api/attempts", start, http.StatusOK, &again)
	if again.ID != a.ID || again.Outcome != "open" {
		t.Fatalf("reload gave %+v, want attempt %d open", again, a.ID)
	}

	me := checkFinishes(t, srv, ann, pz, a)
	checkForgedCookie(t, srv, ann, pz, a, me)
	checkAccounts(t, srv, ann, me)
	checkPrivacy(t, ann, pz, a)
}

// checkFinishes refuses every bad finish of a, recording nothing, then
// finishes it, and returns the player's object.
func checkFinishes(t *testing.T, srv *server, ann *client, pz puzzleJSON, a attemptJSON) playerJSON {
	start := fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID)
	bob := newClient(t, srv.url)
	var b attemptJSON
	bob.json(http.MethodPost, "/api/attempts", start, http.StatusCreated, &b)
	wrong := []byte(playSolution)
	wrong[0], wrong[1] = wrong[1], wrong[0]
	path := fmt.Sprintf("/api/attempts/%d", a.ID)
	for _, tc := range []struct {
		who    *client
		path   string
		body   string
		status int
	}{
		{bob, path, `{"outcome": "gave_up"}`, http.StatusNotFound},                     // another player's
		{ann, "/api/attempts/999999", `{"outcome": "gave_up"}`, http.StatusNotFound},   // unknown
		{ann, "/api/attempts/x", `{"outcome": "gave_up"}`, http.StatusNotFound},        // not an id
		{ann, path, solvedBody(string(wrong), 10), http.StatusUnprocessableEntity},     // wrong grid
		{ann, path, solvedBody(playSolution[:80], 10), http.StatusUnprocessableEntity}, // short grid
		{ann, path, `{"outcome": "gave_up", "active_seconds": 1e12}`, http.StatusUnprocessableEntity},
		{ann, path, `{"outcome": "gave_up", "active_seconds": -5}`, http.StatusUnprocessableEntity},
		{ann, path, `{"outcome": "gave_up", "hints": 1.5}`, http.StatusUnprocessableEntity},
		{ann, path, `{"outcome": "won"}`, http.StatusUnprocessableEntity},
		{ann, path, `{"outcome": "gave_up", "extra": 1}`, http.StatusBadRequest},
		{ann, path, `{"outcome": "gave_up"`, http.StatusBadRequest},
		{ann, "/api/attempts", `{"puzzle_id": 999999}`, http.StatusNotFound},
		{ann, "/api/attempts", `{}`, http.StatusBadRequest},
	} {
		if status, body, _ := tc.who.do(http.MethodPost, tc.path, tc.body); status != tc.status || !strings.Contains(body, `"error"`) {
			t.Errorf("POST %s %s: %d %s, want %d with an error", tc.path, tc.body, status, body, tc.status)
		}
	}
	// The real finish.
	var done attemptJSON
	ann.json(http.MethodPost, path, solvedBody(playSolution, 100000), http.StatusOK, &done)
	if done.Outcome != "solved" || !done.First || done.Hints != 1 || done.Checks != 2 || done.Mistakes != 3 || done.FinishedAt == nil || done.Seconds > 60 {
		t.Errorf("finished %+v: want solved, first, counts 1/2/3, seconds capped by the server's clock", done)
	}
	ann.json(http.MethodPost, path, `{"outcome": "gave_up"}`, http.StatusConflict, nil)

	var me playerJSON
	ann.json(http.MethodGet, "/api/me", "", http.StatusOK, &me)
	if me.Name != nil || me.Solved != 1 || me.Attempts != 1 || me.Role != "player" || me.Skill <= 1 {
		// A solve in well under the prior's minutes makes the player
		// faster than typical: skill above 1.
		t.Errorf("anonymous me = %+v: want unnamed, 1 solved of 1 attempt, a player, skill above 1", me)
	}
	return me
}

// checkForgedCookie: a forged cookie gets a fresh player, never someone
// else's.
func checkForgedCookie(t *testing.T, srv *server, ann *client, pz puzzleJSON, a attemptJSON, me playerJSON) {
	start := fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID)
	eve := newClient(t, srv.url)
	u, _ := url.Parse(srv.url)
	forged := *ann.sessionCookie()
	last := "A"
	if strings.HasSuffix(forged.Value, last) {
		last = "B"
	}
	forged.Value = forged.Value[:len(forged.Value)-1] + last // the signature no longer matches
	eve.http.Jar.SetCookies(u, []*http.Cookie{&forged})
	eve.json(http.MethodGet, "/api/me", "", http.StatusUnauthorized, nil)
	var e attemptJSON
	eve.json(http.MethodPost, "/api/attempts", start, http.StatusCreated, &e)
	var eveMe playerJSON
	eve.json(http.MethodGet, "/api/me", "", http.StatusOK, &eveMe)
	if eveMe.ID == me.ID || e.ID == a.ID || eveMe.Solved != 0 {
		t.Errorf("forged cookie acted as player %d (ann is %d)", eveMe.ID, me.ID)
	}
}

// checkAccounts signs the anonymous player ann up, logs out and logs in:
// the same player throughout, a new session id each time.
func checkAccounts(t *testing.T, srv *server, ann *client, me playerJSON) {
	u, _ := url.Parse(srv.url)
	bob := newClient(t, srv.url)
	before := ann.sessionCookie().Value
	status, body, _ := ann.form("/signup", "/signup", url.Values{"name": {"ann"}, "password": {"short"}})
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, "at least 10") {
		t.Errorf("short password: %d", status)
	}
	status, _, res := ann.form("/signup", "/signup", url.Values{"name": {"ann"}, "password": {"correct horse battery"}})
	if status != http.StatusSeeOther || res.Header.Get("Location") != "/me" {
		t.Fatalf("sign up: %d %s", status, res.Header.Get("Location"))
	}
	if ann.sessionCookie().Value == before {
		t.Error("the session id did not change at sign-up")
	}
	var named playerJSON
	ann.json(http.MethodGet, "/api/me", "", http.StatusOK, &named)
	if named.ID != me.ID || named.Name == nil || *named.Name != "ann" || named.Solved != 1 {
		t.Errorf("after sign-up me = %+v, want player %d named ann with 1 solved", named, me.ID)
	}
	status, body, _ = bob.form("/signup", "/signup", url.Values{"name": {"ANN"}, "password": {"another password"}})
	if status != http.StatusUnprocessableEntity || !strings.Contains(body, "taken") {
		t.Errorf("a taken name: %d", status)
	}

	// Log out: the session ends on the server too.
	old := *ann.sessionCookie()
	if status, _, _ := ann.form("/me", "/logout", url.Values{}); status != http.StatusSeeOther {
		t.Fatalf("logout: %d", status)
	}
	replay := newClient(t, srv.url)
	replay.http.Jar.SetCookies(u, []*http.Cookie{&old})
	replay.json(http.MethodGet, "/api/me", "", http.StatusUnauthorized, nil)

	// Log in: a wrong password and an unknown name read the same.
	_, wrongPass, _ := ann.form("/login", "/login", url.Values{"name": {"ann"}, "password": {"wrong password!"}})
	_, unknown, _ := ann.form("/login", "/login", url.Values{"name": {"nobody"}, "password": {"wrong password!"}})
	if !strings.Contains(wrongPass, "wrong name or password") || !strings.Contains(unknown, "wrong name or password") {
		t.Error("a wrong password and an unknown name are told apart")
	}
	status, _, _ = ann.form("/login", "/login", url.Values{"name": {"Ann"}, "password": {"correct horse battery"}})
	if status != http.StatusSeeOther {
		t.Fatalf("login: %d", status)
	}
	if ann.sessionCookie().Value == old.Value {
		t.Error("the session id did not change at login")
	}
	var back playerJSON
	ann.json(http.MethodGet, "/api/me", "", http.StatusOK, &back)
	if back.ID != me.ID || back.Solved != 1 {
		t.Errorf("after login me = %+v, want player %d with its solve", back, me.ID)
	}
}

// checkPrivacy pages ann's attempts, exports and deletes ann.
func checkPrivacy(t *testing.T, ann *client, pz puzzleJSON, a attemptJSON) {
	_, page, _ := ann.do(http.MethodGet, "/me", "")
	if !strings.Contains(page, `data-testid="me-solved">1<`) || !strings.Contains(page, "#"+fmt.Sprint(pz.ID)) {
		t.Errorf("/me does not show the solve")
	}
	var page1 struct {
		Attempts   []attemptJSON `json:"attempts"`
		NextCursor *string       `json:"next_cursor"`
	}
	ann.json(http.MethodGet, "/api/me/attempts?limit=1", "", http.StatusOK, &page1)
	if len(page1.Attempts) != 1 || page1.Attempts[0].ID != a.ID || page1.NextCursor != nil {
		t.Errorf("attempts page = %+v", page1)
	}
	ann.json(http.MethodGet, "/api/me/attempts?limit=0", "", http.StatusBadRequest, nil)
	ann.json(http.MethodGet, "/api/me/attempts?cursor=x", "", http.StatusBadRequest, nil)
	var export map[string]json.RawMessage
	ann.json(http.MethodGet, "/api/me/export", "", http.StatusOK, &export)
	for _, k := range []string{"player", "sessions", "tokens", "attempts"} {
		if _, ok := export[k]; !ok {
			t.Errorf("export lacks %q: %v", k, export)
		}
	}
	ann.json(http.MethodDelete, "/api/me", "", http.StatusNoContent, nil)
	ann.json(http.MethodGet, "/api/me", "", http.StatusUnauthorized, nil)
	var still puzzleJSON
	ann.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", pz.ID), "", http.StatusOK, &still)
}

// TestPlayersLoginThrottle: five failures for a name within 15 minutes
// answer 429 for that name, existing or not, even with the right password.
func TestPlayersLoginThrottle(t *testing.T) {
	db := sqliteArchive(t)
	srv := startServe(t, db, "--rate-limit", "0")
	c := newClient(t, srv.url)
	if status, _, _ := c.form("/signup", "/signup", url.Values{"name": {"zoe"}, "password": {"right password"}}); status != http.StatusSeeOther {
		t.Fatalf("sign up: %d", status)
	}
	for _, name := range []string{"zoe", "ghost"} {
		for i := range 5 {
			if status, _, _ := c.form("/login", "/login", url.Values{"name": {name}, "password": {"wrong password"}}); status != http.StatusUnprocessableEntity {
				t.Fatalf("%s failure %d: %d", name, i+1, status)
			}
		}
		status, body, res := c.form("/login", "/login", url.Values{"name": {strings.ToUpper(name)}, "password": {"right password"}})
		if status != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" || !strings.Contains(body, "too many failed logins") {
			t.Errorf("%s after five failures: %d, Retry-After %q", name, status, res.Header.Get("Retry-After"))
		}
	}
	other := newClient(t, srv.url)
	if status, _, _ := other.form("/signup", "/signup", url.Values{"name": {"amy"}, "password": {"right password"}}); status != http.StatusSeeOther {
		t.Fatalf("sign up: %d", status)
	}
	other.form("/me", "/logout", url.Values{})
	if status, _, _ := other.form("/login", "/login", url.Values{"name": {"amy"}, "password": {"right password"}}); status != http.StatusSeeOther {
		t.Errorf("another name is throttled too: %d", status)
	}
}

// TestPlayersConcurrentFinishes: many players finish at once through the
// server; every finish is recorded once.
func TestPlayersConcurrentFinishes(t *testing.T) {
	db := sqliteArchive(t)
	srv := startServe(t, db, "--rate-limit", "0")
	var pz puzzleJSON
	newClient(t, srv.url).json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasy), http.StatusCreated, &pz)
	const players = 32
	var wg sync.WaitGroup
	for range players {
		wg.Go(func() {
			c := newClient(t, srv.url)
			var a attemptJSON
			c.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusCreated, &a)
			var done attemptJSON
			c.json(http.MethodPost, fmt.Sprintf("/api/attempts/%d", a.ID), solvedBody(playSolution, 1), http.StatusOK, &done)
			if !done.First {
				t.Errorf("player's only attempt is not first: %+v", done)
			}
			var me playerJSON
			c.json(http.MethodGet, "/api/me", "", http.StatusOK, &me)
			if me.Solved != 1 {
				t.Errorf("me = %+v, want 1 solved", me)
			}
		})
	}
	wg.Wait()
}

// TestUserCommands: sudoku user add, passwd, role, list, token; the token
// acts as its user on the JSON API, with a rate limit of its own.
func TestUserCommands(t *testing.T) {
	db := sqliteArchive(t)
	user := func(stdin string, args ...string) (string, string, error) {
		return runCmd(t, stdin, append([]string{"user", "--db", db}, args...)...)
	}
	if _, _, err := user("long enough password\n", "--create", "add", "root", "--role", "admin"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{"short\n", []string{"add", "amy"}},
		{"", []string{"add", "amy"}},
		{"long enough password\n", []string{"add", "amy", "--role", "king"}},
		{"long enough password\n", []string{"add", "a b"}},
		{"", []string{"role", "root", "king"}},
		{"", []string{"frobnicate"}},
		{"", []string{"token"}},
	} {
		if _, _, err := user(tc.stdin, tc.args...); exitCode(err) != 2 {
			t.Errorf("user %v: %v, want a usage error (exit 2)", tc.args, err)
		}
	}
	if _, _, err := user("long enough password\n", "add", "ROOT"); err == nil || !strings.Contains(err.Error(), "taken") {
		t.Errorf("add a taken name: %v", err)
	}
	if _, _, err := user("", "token", "nobody"); err == nil || exitCode(err) != 1 {
		t.Errorf("token of nobody: %v", err)
	}
	if _, _, err := user("", "role", "root", "moderator"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := user("another long password\n", "passwd", "root"); err != nil {
		t.Fatal(err)
	}
	out, _, err := user("", "list")
	if err != nil || !strings.Contains(out, "root") || !strings.Contains(out, "moderator") {
		t.Errorf("list: %q, %v", out, err)
	}
	token, _, err := user("", "token", "root")
	token = strings.TrimSpace(token)
	if err != nil || !strings.HasPrefix(token, "sdk_") {
		t.Fatalf("token: %q, %v", token, err)
	}
	raw := openRaw(t, db)
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM tokens WHERE token_hash = ?", []byte(token)).Scan(&n); err != nil || n != 0 {
		t.Errorf("the token is stored as it is (%d rows, %v)", n, err)
	}

	srv := startServe(t, db, "--rate-limit", "1")
	bearer := func(tok, method, path, body string) (int, string) {
		c := newClient(t, srv.url)
		status, b, _ := c.do(method, path, body, "Authorization", "Bearer "+tok)
		return status, b
	}
	status, body := bearer(token, http.MethodGet, "/api/me", "")
	if status != http.StatusOK || !strings.Contains(body, `"name":"root"`) || !strings.Contains(body, `"role":"moderator"`) {
		t.Errorf("GET /api/me with the token: %d %s", status, body)
	}
	if status, _ := bearer("sdk_forged", http.MethodGet, "/api/me", ""); status != http.StatusUnauthorized {
		t.Errorf("a forged token: %d, want 401", status)
	}
	// The token's writes have their own budget (rate 1/s, burst 3): the
	// fourth in a row is refused, while a browser on the same address
	// still writes.
	var limited bool
	for range 6 {
		if status, _ := bearer(token, http.MethodPost, "/api/attempts", `{"puzzle_id": 1}`); status == http.StatusTooManyRequests {
			limited = true
		}
	}
	if !limited {
		t.Error("the token's writes were never limited")
	}
	if status, _, _ := newClient(t, srv.url).do(http.MethodPost, "/api/attempts", `{"puzzle_id": 1}`); status == http.StatusTooManyRequests {
		t.Error("the token's writes used up the address's budget")
	}
}

// TestPlayersDeleteForm deletes a player with the form on /me: its
// attempts and session go, the puzzle stays.
func TestPlayersDeleteForm(t *testing.T) {
	srv := startServe(t, sqliteArchive(t), "--rate-limit", "0")
	c := newClient(t, srv.url)
	var pz puzzleJSON
	c.json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasy), http.StatusCreated, &pz)
	var a attemptJSON
	c.json(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID), http.StatusCreated, &a)
	old := *c.sessionCookie()
	_, page, _ := c.do(http.MethodGet, "/me", "")
	if !strings.Contains(page, "Delete me") || !strings.Contains(page, "keep what your attempts added, but no longer say who") {
		t.Error("/me does not say plainly what deleting does")
	}
	// Nothing is deleted unless the word is typed again (issue 34).
	status, _, res := c.form("/me", "/me/delete", url.Values{})
	if status != http.StatusSeeOther || res.Header.Get("Location") != "/me?delete=unconfirmed#delete" {
		t.Fatalf("delete form without confirming: %d %s", status, res.Header.Get("Location"))
	}
	c.json(http.MethodGet, "/api/me", "", http.StatusOK, nil)
	status, _, res = c.form("/me", "/me/delete", url.Values{"confirm": {"delete"}})
	if status != http.StatusSeeOther || res.Header.Get("Location") != "/me?deleted=1" {
		t.Fatalf("delete form: %d %s", status, res.Header.Get("Location"))
	}
	again := newClient(t, srv.url)
	u, _ := url.Parse(srv.url)
	again.http.Jar.SetCookies(u, []*http.Cookie{&old})
	again.json(http.MethodGet, "/api/me", "", http.StatusUnauthorized, nil)
	if status, _, _ := again.do(http.MethodPost, fmt.Sprintf("/api/attempts/%d", a.ID), `{"outcome": "gave_up"}`); status != http.StatusUnauthorized {
		t.Errorf("finishing a deleted player's attempt with its old cookie: %d, want 401", status)
	}
	again.json(http.MethodGet, fmt.Sprintf("/api/puzzles/%d", pz.ID), "", http.StatusOK, nil)
}
