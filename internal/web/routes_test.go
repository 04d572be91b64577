package web

import (
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// fullServer is a server with every part, over no archive: building the
// route table calls none of them.
func fullServer(t *testing.T) *Server {
	t.Helper()
	return New(AllParts((*store.DB)(nil)), Config{Logger: quiet})
}

// openWrites are the writes anyone may send, each for a reason; every
// other write route declares a role (routes.go's access).
var openWrites = map[string]string{
	"POST /api/solve":   "nothing is stored",
	"POST /api/hint":    "nothing is stored",
	"POST /api/analyse": "nothing is stored",
	"POST /setter":      "nothing is stored",
	"POST /login":       "it is how one becomes someone",
	"POST /logout":      "it ends whatever session the browser has",
}

// TestWritesDeclareWho: every write route (POST, PUT, PATCH, DELETE) of
// the table declares who may use it on its row, and is open to anyone only
// when openWrites says why. A 405 row (a method its path does not take)
// answers nothing but 405.
func TestWritesDeclareWho(t *testing.T) {
	s := fullServer(t)
	if len(s.rows) < 100 {
		t.Fatalf("the table has %d rows: is every part there?", len(s.rows))
	}
	for k, r := range s.rows {
		if r.who == undeclared {
			t.Errorf("%s %s declares no access", k.method, k.path)
		}
		switch k.method {
		case http.MethodGet, http.MethodHead:
			continue
		}
		name := k.method + " " + k.path
		if (k.path == batchPath || k.path == importPath) && k.method != http.MethodPost {
			continue // methodNotAllowed
		}
		if r.who == anyone && openWrites[name] == "" {
			t.Errorf("%s is open to anyone: give its row a role (routes.go), or say why in openWrites", name)
		}
	}
	for name := range openWrites {
		method, path, _ := strings.Cut(name, " ")
		if r := s.rows[routeKey{method, path}]; r == nil || r.who != anyone {
			t.Errorf("openWrites lists %s, which is no open route", name)
		}
	}
}

// TestCollectionWritesNeedAccount: the collections' API writes carry their
// role on their row and answer as their handlers did: 401 with
// msgNeedAccount without an account.
func TestCollectionWritesNeedAccount(t *testing.T) {
	s := fullServer(t)
	for _, k := range []routeKey{
		{http.MethodPost, "/api/collections"},
		{http.MethodPost, "/api/collections/:id/puzzles"},
		{http.MethodDelete, "/api/collections/:id/puzzles/:puzzle_id"},
		{http.MethodPatch, "/api/collections/:id"},
		{http.MethodDelete, "/api/collections/:id"},
	} {
		if r := s.rows[k]; r == nil || r.who != accounts {
			t.Errorf("%s %s: want the row's role accounts", k.method, k.path)
		}
	}
	s = New(partsOf(struct {
		fakeTechniques
		noCollections
	}{fakeTechniques{newFakeModeration(account.RolePlayer)}, noCollections{}}), Config{Logger: quiet})
	for _, r := range []request{
		{method: http.MethodPost, path: "/api/collections", body: `{"name":"x"}`},
		{method: http.MethodPost, path: "/api/collections/1/puzzles", body: `{"id":1}`},
		{method: http.MethodDelete, path: "/api/collections/1/puzzles/1"},
		{method: http.MethodPatch, path: "/api/collections/1", body: `{"name":"y"}`},
		{method: http.MethodDelete, path: "/api/collections/1"},
	} {
		rec := do(t, s, r)
		if rec.Code != http.StatusUnauthorized || !strings.Contains(rec.Body.String(), msgNeedAccount) {
			t.Errorf("%s %s without an account: %d %s, want 401 %q", r.method, r.path, rec.Code, rec.Body, msgNeedAccount)
		}
	}
}

// TestPartsChecked: parts that cannot work together are refused when the
// server is built, not found missing at a request.
func TestPartsChecked(t *testing.T) {
	db := (*store.DB)(nil)
	for name, p := range map[string]Parts{
		"no archive":                    {Players: db},
		"moderation without players":    {Puzzles: db, Moderation: db},
		"collection edits without them": {Puzzles: db, CollectionEditor: db},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: New did not refuse the parts", name)
				}
			}()
			New(p, Config{Logger: quiet})
		}()
	}
}

// TestImportBoundaries: web reaches the archive only through the parts it
// declares, never the store or SQL; the archive's domain package
// (internal/archive, once it exists) knows neither HTTP nor SQL.
func TestImportBoundaries(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool on PATH")
	}
	const module = "github.com/sudoku-archive/sudoku/"
	check := func(pkg string, banned ...string) {
		out, err := exec.Command(goTool, "list", "-deps", module+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range banned {
				if dep == b || strings.HasPrefix(dep, b+"/") {
					t.Errorf("%s imports %s (directly or through another package)", pkg, dep)
				}
			}
		}
	}
	check("internal/web", module+"internal/store", "database/sql")
	if _, err := os.Stat(filepath.Join("..", "archive")); err != nil {
		t.Log("no internal/archive yet: its half is skipped")
		return
	}
	check("internal/archive", "github.com/labstack/echo", "database/sql")
}
