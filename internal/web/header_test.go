package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// TestHeaderAccount: the header offers Log in and Sign up to a visitor,
// and the name and Log out to an account on every page; logging out there
// lands on the login page, which says so (issue 34).
func TestHeaderAccount(t *testing.T) {
	e := newSecEnv(t, Config{})
	_, password := e.user("zoe", account.RolePlayer)
	b := e.browser()
	for _, path := range []string{"/", "/puzzles", "/stats", "/collections", "/nowhere"} {
		_, text, _ := b.do(http.MethodGet, path, "")
		if !strings.Contains(text, `data-testid="header-login"`) || !strings.Contains(text, `data-testid="header-signup"`) {
			t.Errorf("%s: a visitor is not offered Log in and Sign up", path)
		}
	}
	b.login("zoe", password)
	for _, path := range []string{"/", "/puzzles", "/techniques"} {
		_, text, _ := b.do(http.MethodGet, path, "")
		if !strings.Contains(text, `data-testid="account-name"`) || !strings.Contains(text, ">zoe</a>") || !strings.Contains(text, `data-testid="header-logout"`) {
			t.Errorf("%s: the header does not name the account with Log out", path)
		}
		if strings.Contains(text, `data-testid="header-login"`) {
			t.Errorf("%s: an account is offered Log in", path)
		}
	}
	status, _, res := b.form("/puzzles", "/logout", url.Values{})
	if loc := res.Header.Get("Location"); status != http.StatusSeeOther || loc != "/login?logged_out=1" {
		t.Fatalf("logout: %d to %q", status, loc)
	}
	if _, text, _ := b.do(http.MethodGet, "/login?logged_out=1", ""); !strings.Contains(text, "You are logged out") {
		t.Error("the login page does not say the visitor logged out")
	}
}
