package web

import (
	"net/http"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// TestSignupsClosedHidesSignUp: with sign-up closed (serve
// --signups=false) no page offers "Sign up" (the header, the login page,
// /me, the submit page under --anonymous-writes=false), since /signup only
// says it is closed; with it open, the header offers it as before.
func TestSignupsClosedHidesSignUp(t *testing.T) {
	players := &fakePlayers{fakeArchive: &fakeArchive{}, attempts: map[int64]account.Attempt{}}
	closed := New(partsOf(players), Config{ClosedSignups: true, ClosedWrites: true, NoDaily: true})
	for _, path := range []string{"/", "/login", "/me", "/puzzles", "/generate"} {
		rec := do(t, closed, request{method: http.MethodGet, path: path})
		body := rec.Body.String()
		if rec.Code != http.StatusOK || strings.Contains(body, `href="/signup"`) || strings.Contains(body, "Sign up") {
			t.Errorf("GET %s with sign-up closed: %d, offers sign-up: %v", path, rec.Code, strings.Contains(body, "/signup"))
		}
		if !strings.Contains(body, `href="/login"`) {
			t.Errorf("GET %s with sign-up closed: no Log in", path)
		}
	}
	open := New(partsOf(players), Config{NoDaily: true})
	if rec := do(t, open, request{method: http.MethodGet, path: "/login"}); !strings.Contains(rec.Body.String(), `data-testid="header-signup"`) {
		t.Errorf("GET /login with sign-up open: no Sign up in the header")
	}
}
