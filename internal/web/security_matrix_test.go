package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/racefree"
)

// guardedRoutes is who may use each route that is not open to everyone:
// "METHOD path" as the route table writes it, and the least role it needs.
// TestRoleMatrix walks every route of the route table: a route that turns
// someone away for their role must be listed here, every route under
// /admin must be listed (at least moderator), and each listed route must
// answer as its role says.
var guardedRoutes = map[string]account.Role{
	// Players (players.go).
	"POST /api/attempts/:id":     account.RolePlayer,
	"GET /api/me":                account.RolePlayer,
	"GET /api/me/attempts":       account.RolePlayer,
	"GET /api/me/export":         account.RolePlayer,
	"DELETE /api/me":             account.RolePlayer,
	"POST /me/delete":            account.RolePlayer,
	"POST /api/puzzles/:id/flag": account.RolePlayer,
	// A player's API tokens (tokens.go).
	"GET /api/me/tokens":         account.RolePlayer,
	"DELETE /api/me/tokens/:id":  account.RolePlayer,
	"POST /me/tokens/:id/revoke": account.RolePlayer,
	// Moderation, the JSON API (moderation.go).
	"POST /api/puzzles/:id/hide":    account.RoleModerator,
	"POST /api/puzzles/:id/restore": account.RoleModerator,
	"POST /api/puzzles/:id/dismiss": account.RoleModerator,
	"GET /api/flags":                account.RoleModerator,
	"GET /api/audit":                account.RoleModerator,
	"DELETE /api/puzzles/:id":       account.RoleAdmin,
	// Moderation, the pages (admin.go).
	"GET /admin/flags":                account.RoleModerator,
	"GET /admin/audit":                account.RoleModerator,
	"POST /admin/puzzles/:id/hide":    account.RoleModerator,
	"POST /admin/puzzles/:id/dismiss": account.RoleModerator,
	"POST /admin/puzzles/:id/restore": account.RoleModerator,
	// Collections need an account (collections.go).
	"POST /api/collections":             account.RolePlayer,
	"POST /api/collections/:id/puzzles": account.RolePlayer,
	"POST /collections":                 account.RolePlayer,
	"POST /collections/:id/puzzles":     account.RolePlayer,
	"POST /puzzles/:id/collections":     account.RolePlayer,
	// Changing and deleting one: an account, and then its owner, a
	// moderator or an admin (collectionedit.go; TestCollectionEditRoles).
	"DELETE /api/collections/:id/puzzles/:puzzle_id": account.RolePlayer,
	"PATCH /api/collections/:id":                     account.RolePlayer,
	"DELETE /api/collections/:id":                    account.RolePlayer,
	"POST /collections/:id/remove":                   account.RolePlayer,
	"POST /collections/:id/edit":                     account.RolePlayer,
	"POST /collections/:id/delete":                   account.RolePlayer,
}

// identity is who sends a matrix request.
type identity struct {
	name   string
	role   account.Role // "" for anonymous
	bearer bool         // an API token, else a session cookie
}

var identities = []identity{
	{name: "anonymous"},
	{"player (cookie)", account.RolePlayer, false},
	{"player (token)", account.RolePlayer, true},
	{"moderator (cookie)", account.RoleModerator, false},
	{"moderator (token)", account.RoleModerator, true},
	{"admin (cookie)", account.RoleAdmin, false},
	{"admin (token)", account.RoleAdmin, true},
}

// matrixRoute is one route of the table, with the role it needs ("": open).
type matrixRoute struct {
	method, path string
	need         account.Role
}

// matrixRoutes reads the route table: every route but the static files,
// HEAD (GET's twin) and the 405s, with the role guardedRoutes gives it.
func matrixRoutes(t *testing.T, s *Server) []matrixRoute {
	t.Helper()
	var rs []matrixRoute
	seen := map[string]bool{}
	for _, r := range s.echo.Routes() {
		if r.Method == http.MethodHead || strings.Contains(r.Name, "methodNotAllowed") || r.Path == "/static/*" {
			continue
		}
		key := r.Method + " " + r.Path
		seen[key] = true
		need := guardedRoutes[key]
		if strings.HasPrefix(r.Path, "/admin") && !need.AtLeast(account.RoleModerator) {
			t.Errorf("%s is under /admin but guardedRoutes does not give it moderator or admin: add it", key)
		}
		rs = append(rs, matrixRoute{r.Method, r.Path, need})
	}
	for key := range guardedRoutes {
		if !seen[key] {
			t.Errorf("guardedRoutes lists %s, which the route table does not have", key)
		}
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].path+rs[i].method < rs[j].path+rs[j].method })
	return rs
}

// TestRoleMatrix walks every route of the route table as anonymous, a
// player, a moderator and an admin, each with a session cookie and with an
// API token. A route of guardedRoutes answers those below its role as the
// contract says (a page: 303 to /login without a player, the API: 401;
// below the role: 403) and serves the others (2xx or 3xx: each acts on a
// puzzle of its own, reported, and hidden first for a restore); every other
// route turns nobody away for who they are.
func TestRoleMatrix(t *testing.T) {
	racefree.Only(t)
	t.Parallel() // the longest of the package: beside each other, not in turn
	eachStore(t, testRoleMatrix)
}

func testRoleMatrix(t *testing.T, e *secEnv) {
	for _, r := range matrixRoutes(t, e.s) {
		t.Run(r.method+" "+r.path, func(t *testing.T) {
			e.sub(t)
			who := identities
			if r.need == "" {
				who = identities[:3] // open: nobody is turned away, the weakest least of all
			}
			pz := int64(0)
			for _, id := range who {
				if pz == 0 || r.need != "" && strings.Contains(r.path, ":id") {
					pz = e.matrixPuzzle(t, r.path)
				}
				e.checkAccess(t, r, id, pz)
			}
		})
	}
}

// checkAccess sends r's request as who, on puzzle pz, and checks the answer.
func (e *secEnv) checkAccess(t *testing.T, r matrixRoute, who identity, pz int64) {
	t.Helper()
	path := regexp.MustCompile(`:id\b`).ReplaceAllString(r.path, fmt.Sprint(pz))
	path = regexp.MustCompile(`:\w+|\*`).ReplaceAllString(path, "x")
	status, loc := e.matrixDo(t, who, r.method, path)
	refusedAs := refusal(status, loc, path)
	want := ""
	switch {
	case r.need == "":
	case who.role == "" && isAPIPath(path):
		want = "401"
	case who.role == "":
		want = "login"
	case !who.role.AtLeast(r.need):
		want = "403"
	}
	if r.need == "" && refusedAs == "403" {
		refusedAs = "" // an open route's 403 is another refusal (a hidden puzzle's, ...)
	}
	switch {
	case refusedAs != want:
		t.Errorf("as %s: %d %s, want %s", who.name, status, loc, orOK(want))
	case want == "" && r.need != "" && status >= 400 && !cannotSucceed[r.method+" "+r.path]:
		t.Errorf("as %s: %d, want the act done (2xx or 3xx)", who.name, status)
	}
}

// cannotSucceed are guarded routes whose matrix request cannot succeed
// for want of what they act on: the access is checked, not the act.
var cannotSucceed = map[string]bool{
	"POST /api/attempts/:id": true, // no attempt of that player: 404
	// No token of that player by the puzzle's id: 404 (or 422 unconfirmed);
	// TestTokensListRevoke revokes for real.
	"DELETE /api/me/tokens/:id":  true,
	"POST /me/tokens/:id/revoke": true,
	// The matrix sends no body a collection takes: 400, 404 or 422.
	"POST /api/collections":             true,
	"POST /api/collections/:id/puzzles": true,
	"POST /collections":                 true,
	"POST /collections/:id/puzzles":     true,
	"POST /puzzles/:id/collections":     true,
	// The matrix's :id names a puzzle, no collection: 404.
	"DELETE /api/collections/:id/puzzles/:puzzle_id": true,
	"PATCH /api/collections/:id":                     true,
	"DELETE /api/collections/:id":                    true,
	"POST /collections/:id/remove":                   true,
	"POST /collections/:id/edit":                     true,
	"POST /collections/:id/delete":                   true,
}

// matrixPuzzle archives a puzzle of its own for a request to route path:
// reported by a player (a queue entry for hide and dismiss), and hidden
// by a moderator for a restore.
func (e *secEnv) matrixPuzzle(t *testing.T, path string) int64 {
	t.Helper()
	id := seedNew(t, e)
	if !strings.Contains(path, ":id") {
		return id
	}
	if !strings.HasSuffix(path, "/flag") {
		reportPuzzle(t, e.browser(), id, "other", "", http.StatusSeeOther)
	}
	if strings.HasSuffix(path, "/restore") {
		status, body, _ := e.moderatorBrowser().form("/login", fmt.Sprintf("/admin/puzzles/%d/hide", id), url.Values{"reason": {"for the matrix"}})
		if status != http.StatusSeeOther {
			t.Fatalf("hide %d: %d %.300s", id, status, body)
		}
	}
	return id
}

// refusal names how a response turned its sender away for who they are:
// "401", "403", "login" (a 303 to /login), or "" when it did not.
func refusal(status int, loc, path string) string {
	switch {
	case status == http.StatusUnauthorized:
		return "401"
	case status == http.StatusForbidden:
		return "403"
	case status == http.StatusSeeOther && loc == "/login" && path != "/logout":
		return "login"
	}
	return ""
}

func orOK(want string) string {
	if want == "" {
		return "it to be let through"
	}
	return want
}

// matrixDo sends one matrix request as who: a fresh account of that role
// (a request may delete its own player), its session cookie or API token,
// the forms' CSRF pair, and a body each route can read.
func (e *secEnv) matrixDo(t *testing.T, who identity, method, path string) (int, string) {
	t.Helper()
	b := e.browser()
	token := pageToken(t, b)
	var header []string
	if who.role != "" {
		p := e.member(who.role)
		if who.bearer {
			header = append(header, "Authorization", "Bearer "+e.token(p.Name))
		} else {
			b.setCookie(sessionCookie, e.session(p))
		}
	}
	body := ""
	switch {
	case method == http.MethodGet || method == http.MethodDelete:
	case isAPIPath(path):
		body = `{"reason": "other"}` // a flag's reason, a hide's
	default:
		data, ct := formBody(t, path, url.Values{csrfField: {token}, "reason": {"other"}, "name": {"x"}})
		body = data
		header = append(header, "Content-Type", ct)
	}
	status, _, res := b.do(method, path, body, header...)
	return status, res.Header.Get("Location")
}

// member makes an account of role without a password (no hashing), named
// after its role and a counter.
func (e *secEnv) member(role account.Role) account.Player {
	e.t.Helper()
	e.admins++
	p, err := e.db.AddUser(context.Background(), fmt.Sprintf("%s%d", role, e.admins), "", role, moderation.CLI())
	if err != nil {
		e.t.Fatal(err)
	}
	return p
}

// seedNew archives a puzzle of the standard collection not archived yet
// and returns its id.
func seedNew(t *testing.T, e *secEnv) int64 {
	t.Helper()
	if e.puzzles == nil {
		e.puzzles = puzzletest.Lines(t, puzzletest.Kaggle, 1000)
	}
	p := e.puzzles[e.seeded]
	e.seeded++
	status, body, _ := e.browser().do(http.MethodPost, "/api/puzzles", puzzleBody(p))
	m := regexp.MustCompile(`"id":(\d+),`).FindStringSubmatch(body)
	if status != http.StatusCreated && status != http.StatusOK || m == nil {
		t.Fatalf("seed: %d %s", status, body)
	}
	var id int64
	fmt.Sscan(m[1], &id)
	return id
}

// TestRoleChangeTakesEffect: a role is read with the session on every
// request, so a moderator made a player (sudoku user role) is refused at
// once, cookie and token alike, and one made a moderator is let in,
// without logging in again.
func TestRoleChangeTakesEffect(t *testing.T) {
	e := newSecEnv(t, Config{})
	ctx := context.Background()
	mod := e.member(account.RoleModerator)
	cookie, token := e.session(mod), e.token(mod.Name)
	get := func() []int {
		b := e.browser()
		b.setCookie(sessionCookie, cookie)
		byCookie, _, _ := b.do(http.MethodGet, "/admin/flags", "")
		byToken, _, _ := e.browser().do(http.MethodGet, "/api/flags", "", "Authorization", "Bearer "+token)
		return []int{byCookie, byToken}
	}
	if got := get(); got[0] != http.StatusOK || got[1] != http.StatusOK {
		t.Fatalf("as a moderator: %v, want 200s", got)
	}
	if err := e.db.SetRole(ctx, mod.Name, account.RolePlayer, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if got := get(); got[0] != http.StatusForbidden || got[1] != http.StatusForbidden {
		t.Errorf("made a player: %v, want 403s", got)
	}
	if err := e.db.SetRole(ctx, mod.Name, account.RoleModerator, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if got := get(); got[0] != http.StatusOK || got[1] != http.StatusOK {
		t.Errorf("a moderator again: %v, want 200s", got)
	}
}
