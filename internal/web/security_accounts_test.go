package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// The accounts of issue 35 over the real router and both stores: names
// keyed in Go, the login throttle by address and device, tokens listed
// and revoked, the Bearer scheme in any case.

// eachStoreWith is eachStore with a configuration.
func eachStoreWith(t *testing.T, cfg Config, fn func(t *testing.T, e *secEnv)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, newSecEnv(t, cfg)) })
	t.Run("postgres", func(t *testing.T) { fn(t, newSecEnvAt(t, pgArchive(t), "", cfg)) })
}

// from returns a new browser of e whose requests say they are forwarded
// for addr (heeded behind a trusted proxy only).
func (e *secEnv) from(addr string) *browser {
	b := e.browser()
	b.http.Transport = withHeader(e.transport, []string{"X-Forwarded-For", addr})
	return b
}

// failLogin posts a wrong password for name and returns the status and body.
func (b *browser) failLogin(name string) (int, string) {
	status, body, _ := b.form("/login", "/login", url.Values{"name": {name}, "password": {"not the password at all"}})
	return status, body
}

// TestNamesOneKey: ÉMILE is émile at signup and login (never a second
// account, never émile's password for another), and a mixed-script name
// is refused with the reason.
func TestNamesOneKey(t *testing.T) {
	eachStore(t, func(t *testing.T, e *secEnv) {
		e.sub(t)
		_, password := e.user("émile", account.RolePlayer)
		status, body, _ := e.browser().form("/signup", "/signup", url.Values{"name": {"ÉMILE"}, "password": {"another long password"}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "taken") {
			t.Errorf("sign up as ÉMILE beside émile: %d, want 422 taken", status)
		}
		b := e.browser()
		b.login("ÉMILE", password)
		if name, _ := b.me(); name != "émile" {
			t.Errorf("logged in as ÉMILE: /api/me says %q, want émile", name)
		}
		status, body, _ = e.browser().form("/signup", "/signup", url.Values{"name": {"p\u0430ypal"}, "password": {"another long password"}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "one script") {
			t.Errorf("sign up with a Cyrillic а among Latin letters: %d, want 422 naming the scripts", status)
		}
	})
}

// TestLoginThrottleByAddress: one address trying many names (password
// spraying) is refused after twenty failures, across names; behind a
// trusted proxy the address is the forwarded one, so another client of the
// same proxy is not held up.
func TestLoginThrottleByAddress(t *testing.T) {
	eachStoreWith(t, Config{TrustedProxies: loopback}, func(t *testing.T, e *secEnv) {
		e.sub(t)
		sprayer := e.from("203.0.113.7")
		for i := range loginAddressFailures {
			if status, _ := sprayer.failLogin(fmt.Sprintf("victim%d", i)); status != http.StatusUnprocessableEntity {
				t.Fatalf("failure %d: %d, want 422", i+1, status)
			}
		}
		status, body := sprayer.failLogin("victim99")
		if status != http.StatusTooManyRequests || !strings.Contains(body, "network address") {
			t.Errorf("failure %d from one address, a fresh name: %d, want 429 for the address", loginAddressFailures+1, status)
		}
		_, password := e.user("amy", account.RolePlayer)
		e.from("203.0.113.8").login("amy", password)
	})
}

// TestLoginDeviceCookie: failures for a name sent from elsewhere lock the
// name, but not for the browser the owner logged in from before (its
// signed device cookie), whose own failures are limited on their own; the
// cookie is worth nothing for another name or forged.
func TestLoginDeviceCookie(t *testing.T) {
	eachStoreWith(t, Config{TrustedProxies: loopback}, func(t *testing.T, e *secEnv) {
		e.sub(t)
		_, password := e.user("zoe", account.RolePlayer)
		_, amyPassword := e.user("amy", account.RolePlayer)
		owner := e.from("198.51.100.1")
		owner.login("zoe", password)
		if owner.cookie(deviceCookie) == nil {
			t.Fatal("no device cookie after a login")
		}
		attacker := e.from("203.0.113.7")
		for range loginFailures {
			attacker.failLogin("zoe")
		}
		if status, _, _ := attacker.form("/login", "/login", url.Values{"name": {"zoe"}, "password": {password}}); status != http.StatusTooManyRequests {
			t.Errorf("the right password from elsewhere after %d failures: %d, want 429", loginFailures, status)
		}
		owner.login("zoe", password) // the device cookie lets the owner in
		forged := e.from("198.51.100.2")
		forged.setCookie(deviceCookie, strings.Repeat("A", 22)+".AAAAAAAAAAAAAAAAAAAAAA")
		if status, _, _ := forged.form("/login", "/login", url.Values{"name": {"zoe"}, "password": {password}}); status != http.StatusTooManyRequests {
			t.Errorf("a forged device cookie: %d, want 429", status)
		}
		for range loginFailures {
			amyFails := e.from("192.0.2.50")
			amyFails.failLogin("amy")
		}
		other := e.from("198.51.100.3")
		other.setCookie(deviceCookie, owner.cookie(deviceCookie).Value) // zoe's cookie, for amy
		if status, _, _ := other.form("/login", "/login", url.Values{"name": {"amy"}, "password": {amyPassword}}); status != http.StatusTooManyRequests {
			t.Errorf("zoe's device cookie for amy: %d, want 429", status)
		}
		for range loginDeviceFailures {
			owner.failLogin("zoe")
		}
		if status, body := owner.failLogin("zoe"); status != http.StatusTooManyRequests || !strings.Contains(body, "this browser") {
			t.Errorf("failure %d from the owner's browser: %d, want 429 for the device", loginDeviceFailures+1, status)
		}
	})
}

// TestTokensListRevoke: the player lists their tokens (never the tokens
// themselves) by the API and on /me, and revokes one by /me's form (CSRF,
// confirm) and one by DELETE; a revoked token opens nothing; another
// player's token and ids not in plain digits are 404.
func TestTokensListRevoke(t *testing.T) {
	eachStore(t, func(t *testing.T, e *secEnv) {
		e.sub(t)
		zoe, _ := e.user("zoe", account.RolePlayer)
		first, second := e.token("zoe"), e.token("zoe")
		other := e.token(e.member(account.RolePlayer).Name)
		b := e.browser()
		b.setCookie(sessionCookie, e.session(zoe))
		status, body, _ := b.do(http.MethodGet, "/api/me/tokens", "")
		if status != http.StatusOK || strings.Count(body, `"id":`) != 2 || strings.Contains(body, "sdk_") || !strings.Contains(body, `"last_used_at":null`) {
			t.Fatalf("GET /api/me/tokens: %d %s", status, body)
		}
		ids := regexp.MustCompile(`"id":(\d+)`).FindAllStringSubmatch(body, -1)
		_, page, _ := b.do(http.MethodGet, "/me", "")
		if n := strings.Count(page, `data-testid="me-token"`); n != 2 || strings.Contains(page, "sdk_") {
			t.Errorf("/me lists %d tokens, want 2 (and never a token)", n)
		}
		revoke := "/me/tokens/" + ids[0][1] + "/revoke"
		if status, _, _ := b.form("/me", revoke, url.Values{}); status != http.StatusUnprocessableEntity {
			t.Errorf("revoke without the confirm box: %d, want 422", status)
		}
		if status, _, _ := b.do(http.MethodPost, revoke, url.Values{"confirm": {"yes"}}.Encode()); status != http.StatusForbidden {
			t.Errorf("revoke without the CSRF token: %d, want 403", status)
		}
		if status, _, res := b.form("/me", revoke, url.Values{"confirm": {"yes"}}); status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/me?revoked=") {
			t.Errorf("revoke by the form: %d %s", status, res.Header.Get("Location"))
		}
		if status, _, _ := e.browser().do(http.MethodGet, "/api/me", "", "Authorization", "Bearer "+first); status != http.StatusUnauthorized {
			t.Errorf("the revoked token: %d, want 401", status)
		}
		bySecond := func(method, path string) int {
			status, _, _ := e.browser().do(method, path, "", "Authorization", "Bearer "+second)
			return status
		}
		for _, bad := range []string{"0" + ids[1][1], "+" + ids[1][1], ids[1][1] + ".0", ids[0][1]} {
			if status := bySecond(http.MethodDelete, "/api/me/tokens/"+bad); status != http.StatusNotFound {
				t.Errorf("DELETE /api/me/tokens/%s: %d, want 404", bad, status)
			}
		}
		var otherID int64
		fmt.Sscan(ids[1][1], &otherID)
		if status, _, _ := e.browser().do(http.MethodDelete, "/api/me/tokens/"+ids[1][1], "", "Authorization", "Bearer "+other); status != http.StatusNotFound {
			t.Errorf("another player revokes zoe's token: %d, want 404", status)
		}
		if status := bySecond(http.MethodDelete, "/api/me/tokens/"+ids[1][1]); status != http.StatusNoContent {
			t.Errorf("DELETE /api/me/tokens/%s: %d, want 204", ids[1][1], status)
		}
		if status := bySecond(http.MethodGet, "/api/me"); status != http.StatusUnauthorized {
			t.Errorf("the token revoked by DELETE: %d, want 401", status)
		}
		es, err := e.db.Audit(context.Background(), 0, 5)
		if err != nil || len(es) < 2 || es[0].Action != moderation.ActionTokenRevoke || es[1].Action != moderation.ActionTokenRevoke {
			t.Errorf("the revocations are not audited: %+v, %v", es, err)
		}
	})
}

// TestBearerAnyCase: the Authorization scheme's name is case-insensitive
// (RFC 9110); a scheme that is not Bearer is refused.
func TestBearerAnyCase(t *testing.T) {
	eachStore(t, func(t *testing.T, e *secEnv) {
		e.sub(t)
		e.user("zoe", account.RolePlayer)
		token := e.token("zoe")
		for _, scheme := range []string{"Bearer", "bearer", "BEARER", "bEaReR"} {
			if status, _, _ := e.browser().do(http.MethodGet, "/api/me", "", "Authorization", scheme+" "+token); status != http.StatusOK {
				t.Errorf("%s TOKEN: %d, want 200", scheme, status)
			}
		}
		for _, auth := range []string{"Basic " + token, "Bearer", "Bearer ", "Bearertoken"} {
			if status, _, _ := e.browser().do(http.MethodGet, "/api/me", "", "Authorization", auth); status != http.StatusUnauthorized {
				t.Errorf("Authorization %.20q: %d, want 401", auth, status)
			}
		}
	})
}

// TestFinishAnswers: attempt ids in plain digits or 404; the finish
// endpoint's messages name its own fields; an attempt whose puzzle was
// hidden since it opened is 404 at finish and stays open, uncounted.
func TestFinishAnswers(t *testing.T) {
	eachStore(t, func(t *testing.T, e *secEnv) {
		e.sub(t)
		seedPuzzle(t, e)
		b := e.browser()
		status, body, _ := b.do(http.MethodPost, "/api/attempts", `{"puzzle_id": 1}`)
		if status != http.StatusCreated || !strings.Contains(body, `"id":1,`) {
			t.Fatalf("start: %d %s", status, body)
		}
		for _, id := range []string{"01", "+1", "1.0", "0x1", " 1"} {
			if status, _, _ := b.do(http.MethodPost, "/api/attempts/"+url.PathEscape(id), `{"outcome": "gave_up"}`); status != http.StatusNotFound {
				t.Errorf("POST /api/attempts/%s: %d, want 404", id, status)
			}
		}
		for _, tc := range []struct{ body, want string }{
			{`{"outcome": "gave_up", "active_seconds": "NaN"}`, `"active_seconds" must be a number`},
			{`{"outcome": "gave_up", "seconds": 3}`, `"outcome"`},
			{`{"outcome": "gave_up", "hints": [1]}`, `"hints" must be a number`},
			{`{"grid": 5}`, `"grid" must be a string`},
		} {
			status, raw, _ := b.do(http.MethodPost, "/api/attempts/1", tc.body)
			var answer struct{ Error string }
			json.Unmarshal([]byte(raw), &answer)
			if body := answer.Error; status != http.StatusBadRequest || !strings.Contains(body, tc.want) || strings.Contains(body, `"puzzle"`) {
				t.Errorf("finish %s: %d %s, want 400 saying %s", tc.body, status, raw, tc.want)
			}
		}
		if _, err := e.db.HidePuzzle(context.Background(), 1, moderation.CLI(), "test"); err != nil {
			t.Fatal(err)
		}
		if status, body, _ := b.do(http.MethodPost, "/api/attempts/1", `{"outcome": "gave_up"}`); status != http.StatusNotFound {
			t.Errorf("finish on a puzzle hidden since: %d %s, want 404", status, body)
		}
		if err := e.db.RestorePuzzle(context.Background(), 1, moderation.CLI(), "test"); err != nil {
			t.Fatal(err)
		}
		if p, err := e.db.Puzzle(context.Background(), 1); err != nil || p.Plays != 0 {
			t.Errorf("plays after the refused finish: %d, %v; want 0", p.Plays, err)
		}
	})
}
