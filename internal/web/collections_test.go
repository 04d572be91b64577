package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// realServer is the real router over a real SQLite archive in a temporary
// directory, with accounts: tokens["ann"] (owner of what she makes),
// tokens["bob"] (another player) and tokens["mod"] (a moderator).
func collectionsServer(t *testing.T) (*Server, *store.DB, map[string]string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, sqliteArchive(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	tokens := map[string]string{}
	for name, role := range map[string]account.Role{"ann": account.RolePlayer, "bob": account.RolePlayer, "mod": account.RoleModerator} {
		if _, err := db.AddUser(ctx, name, "", role, moderation.CLI()); err != nil {
			t.Fatal(err)
		}
		tokens[name] = "token-of-" + name
		if _, err := db.AddToken(ctx, name, account.HashToken(tokens[name]), moderation.CLI()); err != nil {
			t.Fatal(err)
		}
	}
	return New(AllParts(db), Config{Logger: quiet}), db, tokens
}

// as sends a JSON request with who's token ("" for none).
func as(t *testing.T, s *Server, who map[string]string, name, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	h := http.Header{}
	if name != "" {
		h.Set("Authorization", "Bearer "+who[name])
	}
	return do(t, s, request{method: method, path: path, body: body, header: h})
}

const (
	colEasy  = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
	colOther = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
)

func TestCollectionsAPI(t *testing.T) {
	s, _, tok := collectionsServer(t)
	// No account: 401 with the reason.
	rec := as(t, s, tok, "", "POST", "/api/collections", `{"name": "Best"}`)
	if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), "collections need an account") {
		t.Fatalf("without an account: %d %s", rec.Code, rec.Body)
	}
	rec = as(t, s, tok, "ann", "POST", "/api/collections", `{"name": "Best", "author": "Ann", "source": "her book", "licence": "CC BY 4.0", "description": "d"}`)
	if rec.Code != http.StatusCreated {
		t.Fatalf("create: %d %s", rec.Code, rec.Body)
	}
	col := decode[record.Collection](t, rec)
	if col.Name != "Best" || col.Author != "Ann" || col.Licence != "CC BY 4.0" || col.Owner == nil || *col.Owner != "ann" || rec.Header().Get("Location") != fmt.Sprintf("/collections/%d", col.ID) {
		t.Fatalf("created %+v, Location %q", col, rec.Header().Get("Location"))
	}
	for _, tc := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"duplicate name", `{"name": "best"}`, http.StatusConflict, `best\" exists already`},
		{"no name", `{"author": "x"}`, http.StatusBadRequest, `a collection needs a name`},
		{"unknown field", `{"name": "x", "owner": 1}`, http.StatusBadRequest, `owner`},
		{"long name", `{"name": "` + strings.Repeat("n", 101) + `"}`, http.StatusBadRequest, `at most 100`},
	} {
		rec := as(t, s, tok, "bob", "POST", "/api/collections", tc.body)
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%s: %d %s; want %d with %q", tc.name, rec.Code, rec.Body, tc.status, tc.want)
		}
	}

	testCollectionsAdd(t, s, tok, col)
}

// testCollectionsAdd files puzzles under Ann's collection col as its
// owner and as a moderator, refuses the others with the reason, then
// reads the collection back, paged.
func testCollectionsAdd(t *testing.T, s *Server, tok map[string]string, col record.Collection) {
	path := fmt.Sprintf("/api/collections/%d/puzzles", col.ID)
	// A new puzzle, archived as Ann's submission and filed.
	rec := as(t, s, tok, "ann", "POST", path, puzzleBody(colEasy))
	if rec.Code != http.StatusCreated {
		t.Fatalf("add new puzzle: %d %s", rec.Code, rec.Body)
	}
	p := decode[record.Puzzle](t, rec)
	if p.Collections != record.IDsOf(col.ID) || p.SubmittedBy == nil || *p.SubmittedBy != "ann" {
		t.Fatalf("added %+v", p)
	}
	// The same again: 200, filed once.
	if rec := as(t, s, tok, "ann", "POST", path, fmt.Sprintf(`{"id": %d}`, p.ID)); rec.Code != http.StatusOK {
		t.Fatalf("add again: %d %s", rec.Code, rec.Body)
	}
	// A puzzle archived by someone else, by id, by a moderator.
	other := decode[submitResponse](t, post(t, s, "/api/puzzles", puzzleBody(colOther)))
	if other.SubmittedBy != nil {
		t.Fatalf("anonymous submission names %q", *other.SubmittedBy)
	}
	if rec := as(t, s, tok, "mod", "POST", path, fmt.Sprintf(`{"id": %d}`, other.ID)); rec.Code != http.StatusCreated {
		t.Fatalf("moderator adds: %d %s", rec.Code, rec.Body)
	}
	for _, tc := range []struct {
		name, who, path, body string
		status                int
		want                  string
	}{
		{"not the owner", "bob", path, fmt.Sprintf(`{"id": %d}`, p.ID), http.StatusForbidden, "is not yours"},
		{"no account", "", path, fmt.Sprintf(`{"id": %d}`, p.ID), http.StatusUnauthorized, "collections need an account"},
		{"unknown collection", "ann", "/api/collections/999/puzzles", fmt.Sprintf(`{"id": %d}`, p.ID), http.StatusNotFound, "collection 999 not found"},
		{"unknown puzzle", "ann", path, `{"id": 999}`, http.StatusNotFound, "puzzle not found"},
		{"both", "ann", path, fmt.Sprintf(`{"id": 1, "puzzle": %q}`, colEasy), http.StatusBadRequest, "not both"},
		{"neither", "ann", path, `{}`, http.StatusBadRequest, "an archived puzzle"},
		{"bad text", "ann", path, puzzleBody("12x"), http.StatusBadRequest, "'x' at position 3"},
	} {
		rec := as(t, s, tok, tc.who, "POST", tc.path, tc.body)
		if rec.Code != tc.status || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("%s: %d %s; want %d with %q", tc.name, rec.Code, rec.Body, tc.status, tc.want)
		}
	}

	testCollectionRead(t, s, col, p.ID, other.ID)
}

// testCollectionRead reads collection col, holding first and second (in
// that order), paged like the history.
func testCollectionRead(t *testing.T, s *Server, col record.Collection, first, second int64) {
	// The collection and its puzzles, paged like the history.
	type page struct {
		Collection record.Collection `json:"collection"`
		Puzzles    []record.Puzzle   `json:"puzzles"`
		Next       *string           `json:"next_cursor"`
		Total      int64             `json:"total"`
	}
	got := decode[page](t, get(t, s, fmt.Sprintf("/api/collections/%d?sort=submitted&order=asc&limit=1", col.ID)))
	if got.Collection.Puzzles != 2 || got.Total != 2 || len(got.Puzzles) != 1 || got.Puzzles[0].ID != first || got.Next == nil {
		t.Fatalf("first page: %+v", got)
	}
	got = decode[page](t, get(t, s, fmt.Sprintf("/api/collections/%d?sort=submitted&order=asc&limit=1&cursor=%s", col.ID, *got.Next)))
	if len(got.Puzzles) != 1 || got.Puzzles[0].ID != second || got.Next != nil {
		t.Fatalf("second page: %+v", got)
	}
	for _, path := range []string{"/api/collections/999", "/api/collections/01", "/api/collections/x"} {
		if rec := get(t, s, path); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "not found") {
			t.Errorf("%s: %d %s", path, rec.Code, rec.Body)
		}
	}
	if rec := get(t, s, fmt.Sprintf("/api/collections/%d?sort=hardest", col.ID)); rec.Code != http.StatusBadRequest {
		t.Errorf("bad sort: %d", rec.Code)
	}
	list := decode[map[string][]record.Collection](t, get(t, s, "/api/collections"))
	if len(list["collections"]) != 1 || list["collections"][0].Puzzles != 2 {
		t.Fatalf("collections: %+v", list)
	}
	// The puzzle object lists the collection.
	if q := decode[record.Puzzle](t, get(t, s, fmt.Sprintf("/api/puzzles/%d", second))); q.Collections != record.IDsOf(col.ID) {
		t.Fatalf("puzzle %d lists %q", second, q.Collections)
	}
}

// TestSubmittedByAPI: a submission with a token names its account; a
// SudokuWiki link reads as its puzzle.
func TestSubmittedByAPI(t *testing.T) {
	s, _, tok := collectionsServer(t)
	link := "https://www.sudokuwiki.org/sudoku.htm?bd=" + strings.ReplaceAll(colEasy, ".", "0")
	rec := as(t, s, tok, "bob", "POST", "/api/puzzles", puzzleBody(link))
	if rec.Code != http.StatusCreated {
		t.Fatalf("submit: %d %s", rec.Code, rec.Body)
	}
	p := decode[record.Puzzle](t, rec)
	if p.Givens.String() != colEasy || p.SubmittedBy == nil || *p.SubmittedBy != "bob" || p.Collections != "" {
		t.Fatalf("submitted %+v", p)
	}
	if !strings.Contains(rec.Body.String(), `"collections":[]`) {
		t.Errorf("no collections is not []: %s", rec.Body)
	}
}

// TestCollectionPages: the list, the form (CSRF, account), a collection's
// page with its credits and puzzles.
func TestCollectionPages(t *testing.T) {
	s, _, tok := collectionsServer(t)
	bearer := http.Header{"Authorization": {"Bearer " + tok["ann"]}}
	rec := do(t, s, request{method: "GET", path: "/collections", header: bearer})
	doc := page(t, rec, http.StatusOK)
	token := doc.Find(`form[data-testid="collection-form"] input[name="_csrf"]`).AttrOr("value", "")
	var cookie *http.Cookie
	for _, c := range rec.Result().Cookies() {
		if c.Name == "_csrf" {
			cookie = c
		}
	}
	if token == "" || cookie == nil {
		t.Fatal("the collection form has no CSRF token")
	}
	postCollection := func(who string, form url.Values) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/collections", strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.AddCookie(cookie)
		if who != "" {
			req.Header.Set("Authorization", "Bearer "+tok[who])
		}
		return serve(s, req)
	}
	form := url.Values{"_csrf": {token}, "name": {"Ann's <b>set</b>"}, "author": {"Ann"}, "licence": {"CC0"}, "source": {"her notebook"}}
	rec = postCollection("ann", form)
	if rec.Code != http.StatusSeeOther || !strings.HasPrefix(rec.Header().Get("Location"), "/collections/") {
		t.Fatalf("create: %d %s", rec.Code, rec.Header())
	}
	at := rec.Header().Get("Location")
	rec = postCollection("ann", form)
	if doc := page(t, rec, http.StatusUnprocessableEntity); !strings.Contains(tid(doc, "form-error-message").Text(), "exists already") {
		t.Fatalf("duplicate: %s", rec.Body)
	}
	if rec := postCollection("", form); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/login" {
		t.Fatalf("without an account: %d %v, want 303 to /login", rec.Code, rec.Header())
	}
	form.Set("_csrf", "forged")
	if rec := postCollection("ann", form); rec.Code != http.StatusForbidden {
		t.Fatalf("without a valid CSRF token: %d", rec.Code)
	}

	id := strings.TrimPrefix(at, "/collections/")
	if rec := as(t, s, tok, "ann", "POST", "/api/collections/"+id+"/puzzles", puzzleBody(colEasy)); rec.Code != http.StatusCreated {
		t.Fatalf("add: %d %s", rec.Code, rec.Body)
	}
	doc = page(t, get(t, s, at), http.StatusOK)
	if h := tid(doc, "collection-head"); !strings.Contains(h.Find("h1").Text(), "Ann's <b>set</b>") ||
		tid(doc, "collection-licence").Text() != "CC0" || tid(doc, "collection-author").Text() != "Ann" {
		t.Fatalf("collection head: %q", h.Text())
	}
	if n := tid(doc, "history-row").Length(); n != 1 {
		t.Fatalf("%d rows, want 1", n)
	}
	if href := doc.Find(`th a`).First().AttrOr("href", ""); !strings.HasPrefix(href, at+"?") {
		t.Fatalf("sort links go to %q, not the collection", href)
	}
	checkCollectionTechnique(t, s, at, doc)
	doc = page(t, get(t, s, "/collections"), http.StatusOK)
	if tid(doc, "collection-row").Length() != 1 || tid(doc, "collection-form").Length() != 0 || tid(doc, "collections-login").Length() != 1 {
		t.Fatalf("anonymous list: %s", doc.Text())
	}
	if rec := get(t, s, "/collections/999"); rec.Code != http.StatusNotFound {
		t.Fatalf("unknown collection page: %d", rec.Code)
	}
}

// checkCollectionTechnique: a collection's puzzles are not filtered by
// technique (the archive pages a collection and a technique each by an
// index of its own): its page offers no technique control, and technique=
// on its page or in the API is a 400 that says so, not the archive's
// refusal as a 500.
func checkCollectionTechnique(t *testing.T, s *Server, at string, doc *goquery.Document) {
	t.Helper()
	if tid(doc, "technique-filter").Length() != 0 || tid(doc, "band-filter").Length() != 1 {
		t.Errorf("the collection's page offers a technique filter")
	}
	for _, path := range []string{at + "?technique=pointing", "/api" + at + "?sort=grade&technique=Pointing"} {
		if rec := get(t, s, path); rec.Code != http.StatusBadRequest || !strings.Contains(rec.Body.String(), "not filtered by technique") {
			t.Errorf("%s: %d %.200s, want 400 saying why", path, rec.Code, rec.Body)
		}
	}
}

// noCollections is an archive's Collections that holds none, for tests
// that need the routes only.
type noCollections struct{}

func (noCollections) CreateCollection(context.Context, record.Collection) (record.Collection, error) {
	return record.Collection{}, record.ErrNoCollection("x")
}

func (noCollections) Collection(context.Context, int64) (record.Collection, error) {
	return record.Collection{}, record.ErrNoCollection("x")
}

func (noCollections) Collections(context.Context) ([]record.Collection, error) { return nil, nil }

func (noCollections) AddToCollection(context.Context, int64, int64) (bool, error) {
	return false, record.ErrNoCollection("x")
}

func (noCollections) RemoveFromCollection(context.Context, int64, int64, moderation.Actor) error {
	return record.ErrNoCollection("x")
}

func (noCollections) UpdateCollection(context.Context, record.Collection, moderation.Actor) (record.Collection, error) {
	return record.Collection{}, record.ErrNoCollection("x")
}

func (noCollections) DeleteCollection(context.Context, int64, moderation.Actor) error {
	return record.ErrNoCollection("x")
}
