package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// Look-alike names (issue 45; docs/players.md "Look-alike names") over the
// real router and both stores.

// TestLookalikeSignup: a signup whose name looks like an account's is
// refused (422, like a taken name) with the reason and the name it looks
// like; the account made before keeps logging in.
func TestLookalikeSignup(t *testing.T) {
	eachStore(t, func(t *testing.T, e *secEnv) {
		e.sub(t)
		_, password := e.user("coco", account.RolePlayer)
		e.user("ismail", account.RolePlayer)
		e.user("STRASSE", account.RolePlayer)
		for _, tc := range [][2]string{{"сосо", "coco"}, {"ısmail", "ismail"}, {"straße", "STRASSE"}, {"c0c0", "coco"}} {
			status, body, _ := e.browser().form("/signup", "/signup", url.Values{"name": {tc[0]}, "password": {"another long password"}})
			if status != http.StatusUnprocessableEntity || !strings.Contains(body, "looks like the name") || !strings.Contains(body, tc[1]) {
				t.Errorf("sign up %q beside %q: %d, want 422 saying it looks like %q", tc[0], tc[1], status, tc[1])
			}
		}
		b := e.browser()
		b.login("coco", password)
		if name, _ := b.me(); name != "coco" {
			t.Errorf("coco logged in: /api/me says %q", name)
		}
	})
}

// TestLookalikeCollections: a collection made or renamed to a name that
// looks like another's is a 409 that says so; its own name, edited,
// is not.
func TestLookalikeCollections(t *testing.T) {
	eachStore(t, func(t *testing.T, e *secEnv) {
		e.sub(t)
		p := e.member(account.RolePlayer)
		auth := []string{"Authorization", "Bearer " + e.token(p.Name)}
		b := e.browser()
		status, body, _ := b.do("POST", "/api/collections", `{"name": "Classic"}`, auth...)
		if status != http.StatusCreated {
			t.Fatalf("create Classic: %d %s", status, body)
		}
		status, body, _ = b.do("POST", "/api/collections", `{"name": "\u0421lassic"}`, auth...) // a Cyrillic Es
		if status != http.StatusConflict || !strings.Contains(body, "looks like the name") || !strings.Contains(body, "Classic") {
			t.Errorf("create Сlassic beside Classic: %d %s, want 409 saying it looks like Classic", status, body)
		}
		status, body, _ = b.do("POST", "/api/collections", `{"name": "Other"}`, auth...)
		m := regexp.MustCompile(`"id":(\d+)`).FindStringSubmatch(body)
		if status != http.StatusCreated || m == nil {
			t.Fatalf("create Other: %d %s", status, body)
		}
		status, body, _ = b.do("PATCH", "/api/collections/"+m[1], `{"name": "C1assic"}`, auth...)
		if status != http.StatusConflict || !strings.Contains(body, "looks like the name") {
			t.Errorf("rename Other to C1assic: %d %s, want 409", status, body)
		}
		if status, body, _ = b.do("PATCH", "/api/collections/"+m[1], `{"name": "OTHER", "description": "mine"}`, auth...); status != http.StatusOK {
			t.Errorf("edit Other keeping its name: %d %s, want 200", status, body)
		}
		_, password := e.user("ann", account.RolePlayer)
		ann := e.browser()
		ann.login("ann", password)
		status, body, _ = ann.form("/collections", "/collections", url.Values{"name": {"CLASSIC"}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "exists already") {
			t.Errorf("the form: create CLASSIC beside Classic: %d, want 422 saying it exists", status)
		}
		status, body, _ = ann.form("/collections", "/collections", url.Values{"name": {"\u0421lassic"}})
		if status != http.StatusUnprocessableEntity || !strings.Contains(body, "looks like the name") {
			t.Errorf("the form: create Сlassic beside Classic: %d, want 422 saying it looks like Classic", status)
		}
	})
}

// TestLookalikeSignupsAtOnce: 20 signups at once, from 20 addresses, of
// spellings of one name that look alike make one account; the others are
// told the name is taken or looks like it.
func TestLookalikeSignupsAtOnce(t *testing.T) {
	eachStoreWith(t, Config{TrustedProxies: loopback}, func(t *testing.T, e *secEnv) {
		e.sub(t)
		spellings := []string{"coco", "сосо", "COCO", "c0c0", "Сосо", "ＣＯＣＯ", "Coco", "СОСО", "C0C0", "cOcO"}
		browsers := make([]*browser, 20)
		tokens := make([]string, 20)
		for i := range browsers {
			browsers[i] = e.from(fmt.Sprintf("203.0.113.%d", i+1))
			_, page, _ := browsers[i].do(http.MethodGet, "/signup", "")
			m := formTokenRE.FindStringSubmatch(page)
			if m == nil {
				t.Fatalf("no CSRF token on /signup: %.300s", page)
			}
			tokens[i] = m[1]
		}
		statuses := make([]int, 20)
		bodies := make([]string, 20)
		var wg sync.WaitGroup
		for i, b := range browsers {
			wg.Go(func() {
				fields := url.Values{"_csrf": {tokens[i]}, "name": {spellings[i%len(spellings)]}, "password": {"a long enough password"}}
				statuses[i], bodies[i] = signupAtOnce(b, fields)
			})
		}
		wg.Wait()
		made := 0
		for i, status := range statuses {
			switch {
			case status == http.StatusSeeOther:
				made++
			case status == http.StatusUnprocessableEntity && (strings.Contains(bodies[i], "is taken") || strings.Contains(bodies[i], "looks like")):
			default:
				t.Errorf("sign up %q: %d %.300s", spellings[i%len(spellings)], status, bodies[i])
			}
		}
		us, err := e.db.Users(context.Background())
		if made != 1 || err != nil || len(us) != 1 {
			t.Errorf("%d signups made an account, %d users (%v): want one", made, len(us), err)
		}
	})
}

// signupAtOnce posts fields to /signup from b without failing the test (it runs
// in a goroutine) and returns the status and body; 0 and the error's text
// when the request fails.
func signupAtOnce(b *browser, fields url.Values) (int, string) {
	req, err := http.NewRequest(http.MethodPost, b.e.srv.URL+"/signup", strings.NewReader(fields.Encode()))
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := b.http.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer res.Body.Close()
	text, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err.Error()
	}
	return res.StatusCode, string(text)
}
