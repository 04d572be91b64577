package web

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// editEnv is a collection of Ann's holding two puzzles, with tokens for
// Ann (its owner), Bob (another player), a moderator and an admin.
type editEnv struct {
	e      *secEnv
	tok    map[string]string
	who    map[string]account.Player
	col    string // the collection's id
	pz     [2]int64
	asWhom func(who, method, path, body string) (int, string)
}

func newEditEnv(t *testing.T, e *secEnv) *editEnv {
	t.Helper()
	ee := &editEnv{e: e, tok: map[string]string{}, who: map[string]account.Player{}}
	for name, role := range map[string]account.Role{"ann": account.RolePlayer, "bob": account.RolePlayer, "mia": account.RoleModerator, "al": account.RoleAdmin} {
		p := e.member(role)
		ee.tok[name], ee.who[name] = e.token(p.Name), p
	}
	ee.asWhom = func(who, method, path, body string) (int, string) {
		t.Helper()
		var h []string
		if who != "" {
			h = []string{"Authorization", "Bearer " + ee.tok[who]}
		}
		status, text, _ := e.browser().do(method, path, body, h...)
		return status, text
	}
	status, body := ee.asWhom("ann", "POST", "/api/collections", `{"name": "Ann's", "author": "Ann", "licence": "CC BY"}`)
	m := regexp.MustCompile(`"id":(\d+)`).FindStringSubmatch(body)
	if status != http.StatusCreated || m == nil {
		t.Fatalf("create: %d %s", status, body)
	}
	ee.col = m[1]
	for i := range ee.pz {
		ee.pz[i] = seedNew(t, e)
		if status, body := ee.asWhom("ann", "POST", "/api/collections/"+ee.col+"/puzzles", fmt.Sprintf(`{"id": %d}`, ee.pz[i])); status != http.StatusCreated {
			t.Fatalf("add: %d %s", status, body)
		}
	}
	return ee
}

// TestCollectionEditAPI: PATCH, DELETE of a puzzle and DELETE of a
// collection, by its owner, a moderator or an admin, refused to the others
// (401 without an account, 403 for another's); each in the audit trail;
// on both stores.
func TestCollectionEditAPI(t *testing.T) { eachStore(t, testCollectionEditAPI) }

func testCollectionEditAPI(t *testing.T, e *secEnv) {
	ee := newEditEnv(t, e)
	col := "/api/collections/" + ee.col
	if status, _ := ee.asWhom("bob", "POST", "/api/collections", `{"name": "Taken"}`); status != http.StatusCreated {
		t.Fatalf("bob's collection: %d", status)
	}
	one := fmt.Sprintf("%s/puzzles/%d", col, ee.pz[0])
	for _, tc := range []struct {
		who, method, path, body string
		status                  int
		want                    string
	}{
		{"", "PATCH", col, `{"name": "x"}`, http.StatusUnauthorized, "collections need an account"},
		{"bob", "PATCH", col, `{"name": "x"}`, http.StatusForbidden, "is not yours"},
		{"bob", "DELETE", one, "", http.StatusForbidden, "is not yours"},
		{"bob", "DELETE", col, "", http.StatusForbidden, "is not yours"},
		{"ann", "PATCH", col, `{"name": "taken"}`, http.StatusConflict, "exists already"},
		{"ann", "PATCH", col, `{"name": ""}`, http.StatusBadRequest, "needs a name"},
		{"ann", "PATCH", col, `{"owner": 1}`, http.StatusBadRequest, "owner"},
		{"ann", "PATCH", "/api/collections/999", `{"name": "x"}`, http.StatusNotFound, "not found"},
		{"ann", "PATCH", col, `{"name": " Ann's best ", "licence": "CC0"}`, http.StatusOK, `"name":"Ann's best","description":"","author":"Ann","source":"","licence":"CC0"`},
		{"mia", "DELETE", one, "", http.StatusNoContent, ""},
		{"ann", "DELETE", one, "", http.StatusNotFound, "is not in collection"},
		{"ann", "DELETE", col + "/puzzles/01", "", http.StatusNotFound, "not in collection"},
		{"al", "DELETE", col, "", http.StatusNoContent, ""},
		{"ann", "DELETE", col, "", http.StatusNotFound, "not found"},
	} {
		status, body := ee.asWhom(tc.who, tc.method, tc.path, tc.body)
		if status != tc.status || !strings.Contains(body, tc.want) {
			t.Errorf("%s %s %s as %q: %d %.300s; want %d with %q", tc.method, tc.path, tc.body, tc.who, status, body, tc.status, tc.want)
		}
	}
	// The puzzles stay archived.
	for _, id := range ee.pz {
		if status, _ := ee.asWhom("", "GET", fmt.Sprintf("/api/puzzles/%d", id), ""); status != http.StatusOK {
			t.Errorf("puzzle %d after its collection's deletion: %d", id, status)
		}
	}
	_, audit := ee.asWhom("mia", "GET", "/api/audit", "")
	for _, action := range []string{`"collection_edit"`, `"collection_remove"`, `"collection_delete"`} {
		if !strings.Contains(audit, action) {
			t.Errorf("the audit trail has no %s: %.500s", action, audit)
		}
	}
}

// TestCollectionEditPage: the same on the collection's page, for its
// owner only: take a puzzle out (an unknown number is a message on the
// page), edit the texts (a name in use comes back with the reason), and
// delete it (the form asks to confirm; the list then says it is gone).
func TestCollectionEditPage(t *testing.T) {
	e := newSecEnv(t, Config{})
	ee := newEditEnv(t, e)
	at := "/collections/" + ee.col
	bob := e.browser()
	bob.setCookie(sessionCookie, e.session(ee.who["bob"]))
	_, text, _ := bob.do(http.MethodGet, at, "")
	if strings.Contains(text, `data-testid="edit-collection"`) {
		t.Error("another player is offered to edit the collection")
	}
	owner := e.browser()
	owner.setCookie(sessionCookie, e.session(ee.who["ann"]))
	_, text, _ = owner.do(http.MethodGet, at, "")
	for _, id := range []string{"remove-puzzle-form", "edit-collection-form", "delete-collection-form", "credits"} {
		if !strings.Contains(text, `data-testid="`+id+`"`) {
			t.Errorf("the owner's page has no %s", id)
		}
	}
	if !strings.Contains(text, `data-confirm="Delete the collection`) {
		t.Error("deleting the collection does not ask to confirm")
	}
	status, text, _ := owner.form(at, at+"/puzzles", url.Values{"puzzle": {"#12345"}})
	if status != http.StatusUnprocessableEntity || !strings.Contains(text, "There is no puzzle #12345 in the archive") || !strings.Contains(text, `data-testid="collection-head"`) {
		t.Errorf("adding an unknown #id: %d %.300s", status, text)
	}
	status, _, res := owner.form(at, at+"/remove", url.Values{"puzzle": {fmt.Sprint(ee.pz[0])}})
	if status != http.StatusSeeOther || !strings.Contains(res.Header.Get("Location"), "removed=") {
		t.Errorf("remove: %d %v", status, res.Header)
	}
	if status, text, _ = owner.form(at, at+"/remove", url.Values{"puzzle": {fmt.Sprint(ee.pz[0])}}); status != http.StatusUnprocessableEntity || !strings.Contains(text, "is not in this collection") {
		t.Errorf("remove again: %d", status)
	}
	if status, text, _ = owner.form(at, at+"/edit", url.Values{"name": {""}}); status != http.StatusUnprocessableEntity || !strings.Contains(text, "needs a name") {
		t.Errorf("edit without a name: %d", status)
	}
	if status, _, _ = owner.form(at, at+"/edit", url.Values{"name": {"Renamed"}, "licence": {"CC0"}}); status != http.StatusSeeOther {
		t.Errorf("edit: %d", status)
	}
	if status, _, _ = bob.form("/collections", at+"/delete", url.Values{}); status == http.StatusSeeOther {
		t.Error("another player deleted the collection")
	}
	status, _, res = owner.form(at, at+"/delete", url.Values{})
	if status != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/collections?deleted=Renamed") {
		t.Fatalf("delete: %d %v", status, res.Header)
	}
	_, text, _ = owner.do(http.MethodGet, res.Header.Get("Location"), "")
	if !strings.Contains(text, "stay in the archive") {
		t.Error("the list does not say the collection is gone and its puzzles stay")
	}
}
