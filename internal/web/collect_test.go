package web

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// docOf parses a page's body.
func docOf(t *testing.T, body string) *goquery.Document {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// collectEnv is a server with puzzle 1 archived, ann's collection (its
// id and page) and browsers signed in as ann (its owner), bob (a player
// with no collection) and a moderator, and one with no player.
type collectEnv struct {
	e                *secEnv
	col              string // the collection's id
	ann, bob, mod, x *browser
}

func newCollectEnv(t *testing.T) collectEnv {
	t.Helper()
	e := newSecEnv(t, Config{})
	seedPuzzle(t, e)
	ce := collectEnv{e: e, ann: e.browser(), bob: e.browser(), mod: e.browser(), x: e.browser()}
	for b, name := range map[*browser]string{ce.ann: "ann", ce.bob: "bob"} {
		p, _ := e.user(name, account.RolePlayer)
		b.setCookie(sessionCookie, e.session(p))
	}
	ce.mod.setCookie(sessionCookie, e.session(e.member(account.RoleModerator)))
	status, _, res := ce.ann.form("/collections", "/collections", url.Values{"name": {"Ann's set"}})
	if status != http.StatusSeeOther {
		t.Fatalf("make the collection: %d", status)
	}
	ce.col = strings.TrimPrefix(res.Header.Get("Location"), "/collections/")
	return ce
}

// TestCollectForm: the puzzle page's "Add to collection" form (POST
// /puzzles/{id}/collections) files the puzzle under the owner's
// collection and says so on the page (added, then already in it), which
// lists the collections that hold it; another player is refused 403, a
// visitor without a player goes to /login, a post without the CSRF token
// is refused, an unknown collection and a hidden puzzle are 404. Who has
// no collection is offered a link to make one; anonymous visitors see no
// form; a moderator may add to any collection.
func TestCollectForm(t *testing.T) {
	ce := newCollectEnv(t)
	doc := docOf(t, pageBody(t, ce.ann, "/puzzles/1"))
	if opt := doc.Find(`[data-testid="collect-select"] option`); opt.Length() != 1 || opt.AttrOr("value", "") != ce.col || opt.Text() != "Ann's set" {
		t.Fatalf("ann's select: %q", opt.Text())
	}
	if doc := docOf(t, pageBody(t, ce.bob, "/puzzles/1")); tid(doc, "collect-form").Length() != 0 || tid(doc, "collect-make").Find(`a[href="/collections"]`).Length() != 1 {
		t.Errorf("bob, without a collection, is not offered to make one")
	}
	if doc := docOf(t, pageBody(t, ce.x, "/puzzles/1")); tid(doc, "puzzle-collections").Length() != 0 {
		t.Errorf("an anonymous visitor sees the collections part of a puzzle in none")
	}
	if opt := docOf(t, pageBody(t, ce.mod, "/puzzles/1")).Find(`[data-testid="collect-select"] option`); opt.Text() != "Ann's set" {
		t.Errorf("the moderator may not add to ann's collection: %q", opt.Text())
	}
	add := url.Values{"collection": {ce.col}}
	for _, want := range []string{"Added to Ann's set", "Already in Ann's set"} {
		status, _, res := ce.ann.form("/puzzles/1", "/puzzles/1/collections", add)
		to := res.Header.Get("Location")
		if status != http.StatusSeeOther || !strings.HasPrefix(to, "/puzzles/1?") {
			t.Fatalf("%s: %d to %q", want, status, to)
		}
		doc := docOf(t, pageBody(t, ce.ann, to))
		if got := tid(doc, "collect-done").Text(); got != want {
			t.Errorf("after the post the page says %q, want %q", got, want)
		}
		if in := tid(doc, "puzzle-collection"); in.Text() != "Ann's set" || in.AttrOr("href", "") != "/collections/"+ce.col {
			t.Errorf("the page lists the puzzle in %q", in.Text())
		}
	}
	if doc := docOf(t, pageBody(t, ce.x, "/collections/"+ce.col)); tid(doc, "history-row").Length() != 1 {
		t.Errorf("the collection lists %d puzzles, want 1", tid(doc, "history-row").Length())
	}
	if doc := docOf(t, pageBody(t, ce.x, "/puzzles/1")); tid(doc, "puzzle-collection").Text() != "Ann's set" || tid(doc, "collect-form").Length() != 0 {
		t.Errorf("anonymous: the puzzle's collections %q, or a form", tid(doc, "puzzle-collection").Text())
	}
	checkFormRefusals(t, ce, "/puzzles/1/collections", add)
	if status, body, _ := ce.ann.form("/puzzles/1", "/puzzles/1/collections", url.Values{"collection": {"999"}}); status != http.StatusNotFound || !strings.Contains(body, "Collection 999 not found") {
		t.Errorf("unknown collection: %d %s", status, body)
	}
	if _, err := ce.e.db.HidePuzzle(context.Background(), 1, moderation.CLI(), "test"); err != nil {
		t.Fatal(err)
	}
	if status, _, _ := ce.ann.form("/collections", "/puzzles/1/collections", add); status != http.StatusNotFound {
		t.Errorf("hidden puzzle: %d, want 404", status)
	}
	if doc := docOf(t, pageBody(t, ce.mod, "/puzzles/1")); tid(doc, "collect-form").Length()+tid(doc, "collect-make").Length() != 0 ||
		tid(doc, "puzzle-collection").Text() != "Ann's set" {
		t.Errorf("the moderator's page of the hidden puzzle offers to add it, or does not list its collection")
	}
}

// checkFormRefusals posts fields to action as bob (403), as a visitor
// with no player (303 to /login), both with the login page's token (their
// pages have no such form) and as ann without the CSRF token (403);
// none of them adds a puzzle.
func checkFormRefusals(t *testing.T, ce collectEnv, action string, fields url.Values) {
	t.Helper()
	if status, body, _ := ce.bob.form("/login", action, fields); status != http.StatusForbidden || !strings.Contains(body, "is not yours") {
		t.Errorf("bob: %d %.200s, want 403", status, body)
	}
	if status, _, res := ce.x.form("/login", action, fields); status != http.StatusSeeOther || res.Header.Get("Location") != "/login" {
		t.Errorf("no player: %d %v, want 303 to /login", status, res.Header)
	}
	if status, body, _ := ce.ann.do(http.MethodPost, action, fields.Encode()); status != http.StatusForbidden || !csrfRefused(body) {
		t.Errorf("no CSRF token: %d %.200s", status, body)
	}
}

// get2 gets path with b and returns the body, failing unless 200.
func pageBody(t *testing.T, b *browser, path string) string {
	t.Helper()
	status, body, _ := b.do(http.MethodGet, path, "")
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %.300s", path, status, body)
	}
	return body
}

// TestAddPuzzleForm: a collection page's "Add a puzzle" form (POST
// /collections/{id}/puzzles), for its owner only, takes puzzle text (a
// SudokuWiki link here), archiving a new puzzle, or an archived puzzle's
// number; it says what it did on the page (added, already there); text the
// engine refuses comes back 422 with the input kept; another player 403,
// no player /login, no CSRF token 403, an unknown collection, an unknown
// or hidden puzzle 404.
func TestAddPuzzleForm(t *testing.T) {
	ce := newCollectEnv(t)
	at := "/collections/" + ce.col
	action := at + "/puzzles"
	if tid(docOf(t, pageBody(t, ce.bob, at)), "add-puzzle-form").Length() != 0 || tid(docOf(t, pageBody(t, ce.x, at)), "add-puzzle-form").Length() != 0 {
		t.Errorf("the form is offered to others than the owner")
	}
	g, err := sudoku.Parse(colOther)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ input, want string }{
		{sudoku.SudokuWikiURL(g), "Puzzle #2 added."},
		{"#1", "Puzzle #1 added."},
		{" 2 ", "Puzzle #2 was in this collection already."},
	} {
		status, _, res := ce.ann.form(at, action, url.Values{"puzzle": {tc.input}})
		to := res.Header.Get("Location")
		if status != http.StatusSeeOther || !strings.HasPrefix(to, at+"?") {
			t.Fatalf("%q: %d to %q", tc.input, status, to)
		}
		if got := strings.Join(strings.Fields(tid(docOf(t, pageBody(t, ce.ann, to)), "add-puzzle-done").Text()), " "); got != tc.want {
			t.Errorf("%q: the page says %q, want %q", tc.input, got, tc.want)
		}
	}
	doc := docOf(t, pageBody(t, ce.x, at))
	if rows := tid(doc, "history-row"); rows.Length() != 2 {
		t.Fatalf("the collection lists %d puzzles, want 2", rows.Length())
	}
	if p := storedPuzzle(t, ce, 2); p.Givens.String() != g.String() {
		t.Errorf("puzzle 2 is %s, want the link's %s", p.Givens, g)
	}
	status, body, _ := ce.ann.form(at, action, url.Values{"puzzle": {conflict}})
	if doc := docOf(t, body); status != http.StatusUnprocessableEntity || tid(doc, "form-error-message").Text() == "" ||
		tid(doc, "add-puzzle-input").AttrOr("value", "") != conflict {
		t.Errorf("refused text: %d, error %q", status, tid(doc, "form-error-message").Text())
	}
	checkFormRefusals(t, ce, action, url.Values{"puzzle": {"1"}})
	if status, _, _ := ce.ann.form(at, "/collections/999/puzzles", url.Values{"puzzle": {"1"}}); status != http.StatusNotFound {
		t.Errorf("unknown collection: %d, want 404", status)
	}
	// An unknown number is a message on the collection's page (issue 34:
	// it was a bare 404), and so is a hidden puzzle's, in the same words.
	if status, body, _ := ce.ann.form(at, action, url.Values{"puzzle": {"#99"}}); status != http.StatusUnprocessableEntity ||
		!strings.Contains(tid(docOf(t, body), "form-error-message").Text(), "There is no puzzle #99 in the archive") {
		t.Errorf("#99: %d, want 422 with the message", status)
	}
	if _, err := ce.e.db.HidePuzzle(context.Background(), 1, moderation.CLI(), "test"); err != nil {
		t.Fatal(err)
	}
	if status, body, _ := ce.ann.form(at, action, url.Values{"puzzle": {"1"}}); status != http.StatusUnprocessableEntity ||
		!strings.Contains(tid(docOf(t, body), "form-error-message").Text(), "There is no puzzle 1 in the archive") {
		t.Errorf("hidden puzzle: %d, want 422 saying there is no such puzzle", status)
	}
	if n := tid(docOf(t, pageBody(t, ce.x, at)), "history-row").Length(); n != 1 {
		t.Errorf("after the refusals the collection lists %d puzzles, want 1 (puzzle 1 hidden)", n)
	}
}

// storedPuzzle reads puzzle id from the archive.
func storedPuzzle(t *testing.T, ce collectEnv, id int64) record.Puzzle {
	t.Helper()
	p, err := ce.e.db.Puzzle(context.Background(), id)
	if err != nil {
		t.Fatalf("puzzle %d: %v", id, err)
	}
	return p
}
