package web

import (
	"bytes"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// formRoutes returns the path of every form route in the route table: each
// POST that is not the JSON API, with its parameters filled in (":id" as 1).
func formRoutes(t *testing.T, s *Server) []string {
	t.Helper()
	param := regexp.MustCompile(`:\w+`)
	var paths []string
	for _, r := range s.echo.Routes() {
		if r.Method != http.MethodPost || isAPIPath(r.Path) || strings.Contains(r.Name, "methodNotAllowed") {
			continue
		}
		paths = append(paths, param.ReplaceAllString(r.Path, "1"))
	}
	if len(paths) < 7 {
		t.Fatalf("the route table has %d form routes: is it built?", len(paths))
	}
	return paths
}

// TestCSRFEveryFormRoute walks every form route of the route table as a
// logged-in admin (so no role check answers first) and posts without the
// form's token, with a wrong one, with another valid token than the
// cookie's, with a planted pair the server did not sign, and from another
// site: each is refused 403 with the CSRF message, and the session is still
// live (a refused logout or delete did nothing). The same post with the
// page's token gets past the check. A form route added later is walked
// too.
// Like TestRoleMatrix, a walk of the route table one request at a time:
// make test runs it without -race (internal/racefree). The check keeps no
// state but its signing key (csrfSigner), and the form tests still post
// through it under -race.
func TestCSRFEveryFormRoute(t *testing.T) {
	racefree.Only(t)
	e := newSecEnv(t, Config{})
	seedPuzzle(t, e)
	admin, _ := e.user("root", account.RoleAdmin)
	planted := strings.Repeat("A", 48)
	for _, path := range formRoutes(t, e.s) {
		t.Run(path, func(t *testing.T) {
			e.sub(t)
			other := e.s.csrf.token()
			for _, tc := range []struct {
				name   string
				cookie string // the _csrf cookie: "page" is the page's own
				field  string // the _csrf field: "page" is the page's token
				header []string
			}{
				{name: "no token, no cookie"},
				{name: "no token", cookie: "page"},
				{name: "wrong token", cookie: "page", field: "not-a-token"},
				{name: "another valid token", cookie: "page", field: other},
				{name: "header with another token", cookie: "page", header: []string{echo.HeaderXCSRFToken, other}},
				{name: "a planted pair the server did not sign", cookie: planted, field: planted},
				{name: "from another site", cookie: "page", field: "page", header: []string{"Sec-Fetch-Site", "cross-site", "Origin", "https://evil.example"}},
			} {
				b := e.browser()
				b.setCookie(sessionCookie, e.session(admin))
				token := pageToken(t, b)
				if tc.cookie != "page" {
					b.setCookie(csrfCookie, tc.cookie)
				}
				if tc.cookie == "" {
					b.http.Jar.(*hostJar).drop(csrfCookie)
				}
				form := url.Values{"name": {"x"}}
				switch tc.field {
				case "":
				case "page":
					form.Set(csrfField, token)
				default:
					form.Set(csrfField, tc.field)
				}
				data, ct := formBody(t, path, form)
				status, body, _ := b.do(http.MethodPost, path, data, append([]string{"Content-Type", ct}, tc.header...)...)
				if status != http.StatusForbidden || !csrfRefused(body) {
					t.Errorf("%s: %d, want 403 for the token; body %.300s", tc.name, status, body)
				}
				if name, _ := b.me(); name != "root" {
					t.Errorf("%s: after the refused post the session is gone (me %q)", tc.name, name)
				}
			}
			// A fresh admin: the post may delete its player or end its session.
			b := e.browser()
			b.setCookie(sessionCookie, e.session(e.admin()))
			data, ct := formBody(t, path, url.Values{csrfField: {pageToken(t, b)}, "name": {"x"}})
			status, body, _ := b.do(http.MethodPost, path, data, "Content-Type", ct)
			if csrfRefused(body) {
				t.Errorf("with the page's token: %d %.200s", status, body)
			}
		})
	}
}

// pageToken opens /login in b and returns its form's token.
func pageToken(t *testing.T, b *browser) string {
	t.Helper()
	_, body, _ := b.do(http.MethodGet, "/login", "")
	m := formTokenRE.FindStringSubmatch(body)
	if m == nil {
		t.Fatal("no CSRF token on /login")
	}
	return m[1]
}

// csrfRefused reports whether a page says its form was refused for its
// token or its origin.
func csrfRefused(body string) bool {
	body = strings.ToLower(body)
	return strings.Contains(body, "this form has expired") || strings.Contains(body, "cross-site request refused")
}

// formBody encodes form as the page's form for path sends it: multipart
// with a file of one puzzle for the upload, urlencoded for every other.
func formBody(t *testing.T, path string, form url.Values) (body, contentType string) {
	t.Helper()
	if path != importPath {
		return form.Encode(), "application/x-www-form-urlencoded"
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vs := range form {
		for _, v := range vs {
			if err := mw.WriteField(k, v); err != nil {
				t.Fatal(err)
			}
		}
	}
	w, err := mw.CreateFormFile("file", "puzzles.txt")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, easy+"\n")
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.String(), mw.FormDataContentType()
}
