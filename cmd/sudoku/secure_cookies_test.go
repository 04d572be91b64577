package main

import (
	"fmt"
	"net/http"
	"testing"
)

// TestServeSecureCookies: `serve --secure-cookies` (behind a proxy that
// ends TLS) marks every cookie Secure on plain HTTP: the forms' CSRF
// cookie and the player's session, each HttpOnly and SameSite=Lax too.
func TestServeSecureCookies(t *testing.T) {
	srv := startServe(t, sqliteArchive(t), "--secure-cookies")
	c := newClient(t, srv.url)
	var pz puzzleJSON
	c.json(http.MethodPost, "/api/puzzles", fmt.Sprintf(`{"puzzle": %q}`, playEasy), http.StatusCreated, &pz)
	_, _, page := c.do(http.MethodGet, "/", "")
	_, _, play := c.do(http.MethodPost, "/api/attempts", fmt.Sprintf(`{"puzzle_id": %d}`, pz.ID))
	seen := map[string]bool{}
	for _, res := range []*http.Response{page, play} {
		for _, ck := range res.Cookies() {
			seen[ck.Name] = true
			if !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteLaxMode {
				t.Errorf("cookie %s: Secure %v, HttpOnly %v, SameSite %v; want Secure, HttpOnly, Lax", ck.Name, ck.Secure, ck.HttpOnly, ck.SameSite)
			}
		}
	}
	if !seen["_csrf"] || !seen["sudoku_session"] {
		t.Errorf("cookies set: %v, want _csrf and sudoku_session", seen)
	}
}
