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

// TestDeleteAsksToConfirm: "Delete me and my history" deletes nothing
// until the account's name is typed again (issue 34).
func TestDeleteAsksToConfirm(t *testing.T) {
	e := newSecEnv(t, Config{})
	_, password := e.user("Zoé", account.RolePlayer)
	b := e.browser()
	b.login("Zoé", password)
	for _, typed := range []string{"", "zoe", "delete"} {
		status, _, res := b.form("/me", "/me/delete", url.Values{"confirm": {typed}})
		if status != http.StatusSeeOther || res.Header.Get("Location") != "/me?delete=unconfirmed#delete" {
			t.Errorf("confirm %q: %d %s", typed, status, res.Header.Get("Location"))
		}
		if name, _ := b.me(); name != "Zoé" {
			t.Fatalf("confirm %q deleted the account", typed)
		}
	}
	if _, text, _ := b.do(http.MethodGet, "/me?delete=unconfirmed", ""); !strings.Contains(text, "Nothing was deleted") || !strings.Contains(text, "your name, “Zoé”") {
		t.Error("/me does not say what to type")
	}
	status, _, res := b.form("/me", "/me/delete", url.Values{"confirm": {" ZOÉ "}})
	if status != http.StatusSeeOther || res.Header.Get("Location") != "/me?deleted=1" {
		t.Errorf("confirmed: %d %s", status, res.Header.Get("Location"))
	}
}

// TestReportTwiceSaysSoPlainly: reporting a puzzle twice answers a
// sentence written for the reader, not the store's "flag puzzle N: …"
// (issue 34).
func TestReportTwiceSaysSoPlainly(t *testing.T) {
	e := newSecEnv(t, Config{})
	b := e.browser()
	id := seedNew(t, e)
	reportPuzzle(t, b, id, "other", "", http.StatusSeeOther)
	body := reportPuzzle(t, b, id, "wrong", "again", http.StatusConflict)
	if !strings.Contains(body, "You have reported this puzzle already") || strings.Contains(body, "flag puzzle") {
		t.Errorf("the second report says: %.500s", body)
	}
}

// TestPlayerTimeSortSaysWhy: the history sorted by player time, with no
// player time anywhere, says why every row shows "–" (issue 34).
func TestPlayerTimeSortSaysWhy(t *testing.T) {
	e := newSecEnv(t, Config{})
	seedNew(t, e)
	_, text, _ := e.browser().do(http.MethodGet, "/puzzles?sort=player_time", "")
	if !strings.Contains(text, `data-testid="no-player-times"`) {
		t.Error("sorted by player time with none, the history says nothing")
	}
	if _, text, _ = e.browser().do(http.MethodGet, "/puzzles?sort=grade", ""); strings.Contains(text, `data-testid="no-player-times"`) {
		t.Error("the note shows for another sort")
	}
}
