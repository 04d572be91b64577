package web

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// TestLoginThrottleWindow: five failures for a name within 15 minutes
// refuse that name, even with the right password, whatever its case; the
// same five failures 16 minutes old refuse nothing; another name is not
// held up.
func TestLoginThrottleWindow(t *testing.T) {
	e := newSecEnv(t, Config{})
	_, password := e.user("zoe", account.RolePlayer)
	_, other := e.user("amy", account.RolePlayer)
	ctx := context.Background()
	now := time.Now()
	for range loginFailures {
		if _, err := e.db.LoginTry(ctx, account.LoginAttempt{NameKey: "zoe", Address: "192.0.2.1", At: now.Add(-loginWindow - time.Minute)}, loginLimits); err != nil {
			t.Fatal(err)
		}
	}
	b := e.browser()
	b.login("ZOE", password) // the old failures are outside the window

	b = e.browser()
	for range loginFailures {
		if _, err := e.db.LoginTry(ctx, account.LoginAttempt{NameKey: "zoe", Address: "192.0.2.1", At: now.Add(-loginWindow + time.Minute)}, loginLimits); err != nil {
			t.Fatal(err)
		}
	}
	status, body, res := b.form("/login", "/login", url.Values{"name": {"Zoe"}, "password": {password}})
	if status != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" || !strings.Contains(body, "too many failed logins") {
		t.Errorf("right password after five failures 14 minutes ago: %d, Retry-After %q", status, res.Header.Get("Retry-After"))
	}
	if _, status := b.me(); status != http.StatusUnauthorized {
		t.Errorf("a refused login left a session: /api/me %d", status)
	}
	e.browser().login("amy", other)
}

// TestLoginThrottleConcurrent: wrong passwords sent all at once for one
// name, existing or not, get at most five answers that checked the
// password; the rest are refused 429 without a check. A throttle that
// counts before it records would let every one of them through.
func TestLoginThrottleConcurrent(t *testing.T) {
	e := newSecEnv(t, Config{})
	_, password := e.user("zoe", account.RolePlayer)
	for _, name := range []string{"zoe", "ghost"} {
		b := e.browser()
		_, page, _ := b.do(http.MethodGet, "/login", "")
		token := formTokenRE.FindStringSubmatch(page)[1]
		const tries = 16
		var wg sync.WaitGroup
		statuses := make(chan int, tries)
		for i := range tries {
			wg.Add(1)
			go func() {
				defer wg.Done()
				form := url.Values{"name": {name}, "password": {fmt.Sprintf("wrong password %d", i)}, "_csrf": {token}}
				status, _, _ := b.do(http.MethodPost, "/login", form.Encode())
				statuses <- status
			}()
		}
		wg.Wait()
		close(statuses)
		counts := map[int]int{}
		for s := range statuses {
			counts[s]++
		}
		if counts[http.StatusUnprocessableEntity] > loginFailures || counts[http.StatusTooManyRequests] < tries-loginFailures {
			t.Errorf("%s: %d concurrent wrong logins answered %v: more than %d checked the password", name, tries, counts, loginFailures)
		}
	}
	if status, _, _ := e.browser().form("/login", "/login", url.Values{"name": {"zoe"}, "password": {password}}); status != http.StatusTooManyRequests {
		t.Errorf("right password after the storm: %d, want 429", status)
	}
}

// TestSessionFixation: a session cookie planted in a browser (a live
// anonymous session the attacker holds, or one the archive never made)
// does not become the account's session when the browser logs in or signs
// up: the session id changes, and the planted one is ended.
func TestSessionFixation(t *testing.T) {
	e := newSecEnv(t, Config{})
	_, password := e.user("zoe", account.RolePlayer)
	ctx := context.Background()
	plant := func() string {
		cookie, hash := e.s.signer.NewSession()
		if _, err := e.db.NewPlayer(ctx, hash, time.Now().Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		return cookie
	}
	unknown, _ := e.s.signer.NewSession() // signed, but no such session
	for _, tc := range []struct {
		name    string
		planted string
		enter   func(b *browser)
	}{
		{"login over a live session", plant(), func(b *browser) { b.login("zoe", password) }},
		{"login over an unknown session", unknown, func(b *browser) { b.login("zoe", password) }},
		{"signup over a live session", plant(), func(b *browser) {
			status, body, _ := b.form("/signup", "/signup", url.Values{"name": {"newcomer"}, "password": {"a long enough password"}})
			if status != http.StatusSeeOther {
				t.Fatalf("signup: %d %.300s", status, body)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.sub(t)
			victim := e.browser()
			victim.setCookie(sessionCookie, tc.planted)
			tc.enter(victim)
			got := victim.cookie(sessionCookie)
			if got == nil || got.Value == tc.planted {
				t.Fatalf("the session id did not change: %v", got)
			}
			if name, _ := victim.me(); name == "" || name == "(anonymous)" {
				t.Errorf("the victim is not logged in: %q", name)
			}
			attacker := e.browser()
			attacker.setCookie(sessionCookie, tc.planted)
			if name, status := attacker.me(); status != http.StatusUnauthorized {
				t.Errorf("the planted cookie still acts as %q (%d)", name, status)
			}
		})
	}
}

// TestLogoutEndsSession: after a logout the old cookie opens nothing, on
// any server sharing the archive (the session row is gone), the browser is
// told to drop it, and a logout without the form's token ends nothing.
func TestLogoutEndsSession(t *testing.T) {
	e := newSecEnv(t, Config{})
	_, password := e.user("zoe", account.RolePlayer)
	b := e.browser()
	b.login("zoe", password)
	other := e.browser() // the same account in another browser
	other.login("zoe", password)
	old := b.cookie(sessionCookie).Value

	if status, _, _ := b.do(http.MethodPost, "/logout", ""); status != http.StatusForbidden {
		t.Errorf("logout without a CSRF token: %d, want 403", status)
	}
	if name, _ := b.me(); name != "zoe" {
		t.Fatalf("a refused logout ended the session: me %q", name)
	}
	status, _, res := b.form("/me", "/logout", url.Values{})
	if status != http.StatusSeeOther {
		t.Fatalf("logout: %d", status)
	}
	var dropped bool
	for _, ck := range res.Cookies() {
		dropped = dropped || ck.Name == sessionCookie && ck.MaxAge < 0
	}
	if !dropped {
		t.Errorf("logout does not delete the cookie: %v", res.Header.Values("Set-Cookie"))
	}
	replay := e.browser()
	replay.setCookie(sessionCookie, old)
	if name, status := replay.me(); status != http.StatusUnauthorized {
		t.Errorf("the old cookie still acts as %q (%d)", name, status)
	}
	hash, err := e.s.signer.Session(old)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.SessionPlayer(context.Background(), hash, time.Now()); err == nil {
		t.Error("the session is still in the database")
	}
	if name, _ := other.me(); name != "zoe" {
		t.Errorf("logging out one browser ended the other's session: me %q", name)
	}
}

// cookieCase is one response that sets the cookie called sets.
type cookieCase struct {
	name, sets string
	do         func(b *browser) *http.Response
}

// cookieCases make every cookie the server sets: the CSRF cookie, an
// anonymous player's session, a signup's, a login's and a logout's
// deletion.
func cookieCases(password string) []cookieCase {
	return []cookieCase{
		{"a page's CSRF cookie", csrfCookie, func(b *browser) *http.Response { _, _, r := b.do(http.MethodGet, "/", ""); return r }},
		{"an anonymous player's session", sessionCookie, func(b *browser) *http.Response {
			_, _, r := b.do(http.MethodPost, "/api/attempts", `{"puzzle_id": 1}`)
			return r
		}},
		{"signup", sessionCookie, func(b *browser) *http.Response {
			_, _, r := b.form("/signup", "/signup", url.Values{"name": {fmt.Sprintf("new%d", time.Now().UnixNano())}, "password": {"a long enough password"}})
			return r
		}},
		{"login", sessionCookie, func(b *browser) *http.Response {
			_, _, r := b.form("/login", "/login", url.Values{"name": {"zoe"}, "password": {password}})
			return r
		}},
		{"logout", sessionCookie, func(b *browser) *http.Response { _, _, r := b.form("/me", "/logout", url.Values{}); return r }},
	}
}

// TestCookieFlags: every cookie the server sets is HttpOnly,
// SameSite=Lax and Path=/; Secure with serve --secure-cookies, over TLS,
// and behind a trusted proxy that says the client came over https, and
// only then.
func TestCookieFlags(t *testing.T) {
	racefree.Only(t)
	for _, tc := range []struct {
		name   string
		cfg    Config
		tls    bool
		header []string
		secure bool
	}{
		{name: "plain HTTP", secure: false},
		{name: "--secure-cookies", cfg: Config{SecureCookies: true}, secure: true},
		{name: "TLS", tls: true, secure: true},
		{name: "trusted proxy, https", cfg: Config{TrustedProxies: loopback}, header: []string{"X-Forwarded-Proto", "https"}, secure: true},
		{name: "untrusted X-Forwarded-Proto", header: []string{"X-Forwarded-Proto", "https"}, secure: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newSecEnv(t, tc.cfg)
			if tc.tls {
				e.srv.Close()
				e.srv = httptestTLS(e.s)
				t.Cleanup(e.srv.Close)
				e.transport = e.srv.Client().Transport
			}
			e.transport = withHeader(e.transport, tc.header)
			_, password := e.user("zoe", account.RolePlayer)
			seedPuzzle(t, e)
			b := e.browser()
			for _, c := range cookieCases(password) {
				res := c.do(b)
				set := false
				for _, ck := range res.Cookies() {
					set = set || ck.Name == c.sets
					path := "/"
					if ck.Name == deviceCookie {
						path = "/login" // the one page that reads it
					}
					if !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode || ck.Path != path || ck.Secure != tc.secure {
						t.Errorf("%s: cookie %s is HttpOnly %v, SameSite %v, Path %q, Secure %v; want HttpOnly, Lax, %s, Secure %v",
							c.name, ck.Name, ck.HttpOnly, ck.SameSite, ck.Path, ck.Secure, path, tc.secure)
					}
				}
				if !set {
					t.Errorf("%s: status %d, no %s cookie set", c.name, res.StatusCode, c.sets)
				}
			}
		})
	}
}

// TestSecretsNotStoredInClear: after a login, an anonymous play and an API
// token in use, the archive's files (database, WAL) hold none of the
// session cookies, session tokens, API tokens or passwords, in text or in
// raw bytes; they hold the tokens' SHA-256, which is how they are found.
func TestSecretsNotStoredInClear(t *testing.T) {
	e := newSecEnv(t, Config{})
	_, password := e.user("zoe", account.RolePlayer)
	seedPuzzle(t, e)
	b := e.browser()
	b.login("zoe", password)
	anon := e.browser()
	if status, body, _ := anon.do(http.MethodPost, "/api/attempts", `{"puzzle_id": 1}`); status != http.StatusCreated {
		t.Fatalf("anonymous play: %d %s", status, body)
	}
	tok := e.token("zoe")
	if status, body, _ := e.browser().do(http.MethodGet, "/api/me", "", "Authorization", "Bearer "+tok); status != http.StatusOK || !strings.Contains(body, `"zoe"`) {
		t.Fatalf("the token does not work: %d %s", status, body)
	}
	secrets := map[string][]byte{"password": []byte(password)}
	add := func(what, token string, raw []byte) {
		secrets[what] = []byte(token)
		secrets[what+" (raw bytes)"] = raw
	}
	for what, ck := range map[string]*http.Cookie{"login session": b.cookie(sessionCookie), "anonymous session": anon.cookie(sessionCookie)} {
		secrets[what+" cookie"] = []byte(ck.Value)
		token, _, _ := strings.Cut(ck.Value, ".")
		raw, err := base64.RawURLEncoding.DecodeString(token)
		if err != nil {
			t.Fatal(err)
		}
		add(what+" token", token, raw)
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(tok, account.TokenPrefix))
	if err != nil {
		t.Fatal(err)
	}
	add("API token", tok, raw)
	secrets["API token without prefix"] = []byte(strings.TrimPrefix(tok, account.TokenPrefix))

	e.srv.Close()
	if err := e.db.Close(); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(e.dir, "*"))
	var all []byte
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, data...)
	}
	for what, s := range secrets {
		if bytes.Contains(all, s) {
			t.Errorf("the archive's files hold the %s in clear", what)
		}
	}
	if !bytes.Contains(all, account.HashToken(tok)) {
		t.Errorf("the API token's hash is not in the files %v: the scan reads nothing", files)
	}
}

// TestAPITokens: a Bearer token acts as its user; anything else in the
// Authorization header is refused 401, never taken as anonymous: an unknown
// token, one character changed, another case, no token, another scheme, a
// token of a deleted player.
func TestAPITokens(t *testing.T) {
	e := newSecEnv(t, Config{})
	p, _ := e.user("zoe", account.RolePlayer)
	gone, _ := e.user("gone", account.RolePlayer)
	tok := e.token("zoe")
	goneTok := e.token("gone")
	if err := e.db.DeletePlayer(context.Background(), gone.ID, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	b := e.browser()
	if status, body, _ := b.do(http.MethodGet, "/api/me", "", "Authorization", "Bearer "+tok); status != http.StatusOK || !strings.Contains(body, fmt.Sprintf(`"id":%d`, p.ID)) {
		t.Fatalf("Bearer token: %d %s", status, body)
	}
	changed := tok[:len(tok)-1] + "A"
	if changed == tok {
		changed = tok[:len(tok)-1] + "B"
	}
	unknown, _ := account.NewAPIToken()
	for what, auth := range map[string]string{
		"unknown token":        "Bearer " + unknown,
		"one character off":    "Bearer " + changed,
		"upper case":           "Bearer " + strings.ToUpper(tok),
		"no token":             "Bearer ",
		"another scheme":       "Basic " + tok,
		"deleted player":       "Bearer " + goneTok,
		"the session's cookie": "Bearer " + e.session(p),
	} {
		if status, _, _ := b.do(http.MethodGet, "/api/me", "", "Authorization", auth); status != http.StatusUnauthorized {
			t.Errorf("%s: %d, want 401", what, status)
		}
	}
}
