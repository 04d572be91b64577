package web

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// Paths the middleware and handlers refer to.
const (
	exportPath  = "/api/export"
	tracePath   = "/api/puzzles/:id/trace"
	explainPath = "/api/puzzles/:id/explain"
	sharePath   = "/p/:cells"
)

// access is who may use a route: the role middleware its row declares.
// Every row says it, anyone included, so that a new route is open only by
// a decision (TestWritesDeclareWho).
type access int

const (
	undeclared access = iota
	anyone            // no check
	writers           // writer: anyone, or only accounts under Config.ClosedWrites
	newPlayer         // ensurePlayer: any player, an anonymous one made at the first play
	players           // need(RolePlayer): 401 in the API, /login for a page
	accounts          // needAccount: a named player (a login or a token), 401 msgNeedAccount
	moderators        // need(RoleModerator)
	admins            // need(RoleAdmin)
	signups           // signupsOpen: anyone while sign-up is open (before the CSRF check)
)

// timeoutClass is how long a route's handler may work.
type timeoutClass int

const (
	requestTimeout timeoutClass = iota // Config.RequestTimeout
	bulkTimeout                        // Config.BulkTimeout: the batch import, the upload
	streamed                           // none: the export's own stall rule (apiExport)
)

// bodyClass is the largest request body a route takes (bodyLimit).
type bodyClass int

const (
	smallBody  bodyClass = iota // BodyLimit
	batchBody                   // MaxBatchBody (batch.go)
	uploadBody                  // maxUploadBody, parsed by uploadLimit before the CSRF check (upload.go)
)

// A class is how a route is served around its handler, besides who may
// use it: what each middleware of the chain (Server.middleware) does for
// it. The zero class is an API route's.
type class struct {
	csrf     bool         // a page or its form: csrfCheck issues and checks the form token
	timeout  timeoutClass // how long its handler may work
	plain    bool         // sent as it is, never gzipped (else a GET's answer from a kilobyte is)
	body     bodyClass    // the largest body taken
	noPlayer bool         // no player loaded: answered for anyone, cheaply
	searches bool         // a read that searches: rate-limited like a POST
	reads    bool         // a POST that only reads (the hint): its searches take the read lane, as a GET's do (readlane.go)
}

// The classes of the table's rows.
var (
	api     = class{}
	pages   = class{csrf: true}
	probe   = class{noPlayer: true}                        // static files, /healthz
	stored  = class{plain: true}                           // a trace: stored compressed, sent as it is
	stream  = class{timeout: streamed, plain: true}        // the export: long, flushed as it goes
	share   = class{csrf: true, searches: true}            // a share link solves the puzzle of its path
	reading = class{reads: true}                           // POST /api/hint: a read sent as a POST
	batch   = class{timeout: bulkTimeout, body: batchBody} // text/plain, one puzzle per line
	uploads = class{csrf: true, timeout: bulkTimeout, body: uploadBody}
)

// A route is one row of the route table: a method (GET rows answer HEAD
// the same way, without the body), a path as echo writes it (":id" a
// parameter, "*" the rest), its handler, who may use it and its class.
type route struct {
	method string
	path   string
	handle echo.HandlerFunc
	who    access
	class  class
}

// routeKey finds a row by its method and echo path.
type routeKey struct{ method, path string }

// Methods of the table's rows.
const (
	onGet    = http.MethodGet
	onPost   = http.MethodPost
	onPatch  = http.MethodPatch
	onDelete = http.MethodDelete
)

// table is the route table: every route the server answers, in one place,
// each with its middleware. A part the server does not have (Parts) takes
// its routes with it.
func (s *Server) table() []route {
	rs := []route{
		{onGet, "/healthz", s.healthz, anyone, probe},
		{onGet, "/readyz", s.readyz, anyone, api}, // the database answers and its schema is this binary's (ops.go)
		{onGet, "/static/*", s.staticFile, anyone, probe},

		// JSON API: no CSRF token; crossOrigin refuses posts from other sites.
		{onGet, "/api/puzzles", s.apiList, anyone, api},
		{onGet, "/api/puzzles/:id", s.apiPuzzle, anyone, api},
		{onGet, tracePath, s.apiTrace, anyone, stored},
		{onGet, explainPath, s.apiExplain, anyone, api}, // the logical solution path (explain.go)
		{onGet, exportPath, s.apiExport, anyone, stream},
		{onPost, "/api/puzzles", s.apiSubmit, writers, api},
		{onPost, "/api/solve", s.apiSolve, anyone, api},
		{onPost, "/api/hint", s.apiHint, anyone, reading},       // the next logical step from a player's progress (explain.go)
		{onPost, batchPath, s.apiBatch, writers, batch},         // one puzzle per line (batch.go)
		{onPost, "/api/generate", s.apiGenerate, writers, api},  // a new puzzle of a band or grade (generate.go)
		{onGet, "/api/daily", s.apiDaily, anyone, api},          // the puzzle of the day (generate.go)
		{onGet, "/api/openapi.json", s.apiOpenAPI, anyone, api}, // this API described in OpenAPI 3.1 (openapi.go)

		// HTML pages: forms carry a CSRF token.
		{onGet, "/", s.home, anyone, pages},
		{onGet, "/puzzles", s.history, anyone, pages},
		{onGet, "/puzzles/print", s.printSheet, anyone, pages}, // the history's page, four puzzles to a printed sheet (share.go)
		{onGet, "/puzzles/:id", s.puzzlePage, anyone, pages},
		{onGet, "/stats", s.stats, anyone, pages},
		{onGet, "/data", s.dataPage, anyone, pages},         // the open data: the export's fields and licence (data.go)
		{onGet, sharePath, s.sharedPuzzle, anyone, share},   // share link: the puzzle in the path (share.go)
		{onGet, "/generate", s.generatePage, anyone, pages}, // the "New puzzle" form (generate.go)
		{onGet, "/daily", s.dailyPage, anyone, pages},       // 303 to the puzzle of the day (generate.go)
		{onPost, "/puzzles", s.submitForm, writers, pages},
		{onPost, "/generate", s.generateForm, writers, pages},
		{onPost, importPath, s.importUpload, writers, uploads}, // multipart upload of a file of puzzles (upload.go)
	}
	if s.players != nil {
		rs = append(rs, s.playerRoutes()...)
	}
	if s.techniques != nil {
		rs = append(rs,
			route{onGet, "/api/techniques", s.apiTechniques, anyone, api},              // every technique with its counts (techniques.go)
			route{onGet, "/techniques", s.techniquesPage, anyone, pages},               // the list of techniques
			route{onGet, "/techniques/:slug", s.techniquePage, anyone, pages},          // one technique: an example step, puzzles to practise
			route{onGet, "/api/techniques/:slug/practice", s.apiPractice, anyone, api}, // boards where it is the next step (practice.go)
			route{onGet, "/techniques/:slug/practice", s.practicePage, anyone, pages})  // find the step on such a board
	}
	rs = append(rs,
		route{onPost, "/api/analyse", s.apiAnalyse, anyone, api}, // a setter's analysis, nothing stored (analyse.go)
		route{onGet, "/setter", s.setterPage, anyone, pages},     // the setter's grid editor with the analysis
		route{onPost, "/setter", s.setterForm, anyone, pages})    // its form post, without JavaScript
	if s.leveller != nil {
		rs = append(rs, route{onGet, "/api/next", s.apiNext, anyone, api}) // the next puzzle at the player's level (next.go)
	}
	if s.rated != nil {
		rs = append(rs,
			route{onGet, "/api/ratings", s.apiRatings, anyone, api}, // how well each measure predicts the players (ratings.go)
			route{onGet, "/ratings", s.ratingsPage, anyone, pages})  // the same as a page
	}
	if s.mod != nil {
		rs = append(rs, s.moderationRoutes()...)
	}
	if s.collections != nil {
		rs = append(rs, s.collectionRoutes()...)
	}
	return rs
}

// playerRoutes are the routes of players and attempts (players.go).
// newPlayer makes an anonymous player on the first play; players wants
// any player (401, or /login for a page, without one).
func (s *Server) playerRoutes() []route {
	return []route{
		{onPost, "/api/attempts", s.apiStartAttempt, newPlayer, api},
		{onPost, "/api/attempts/:id", s.apiFinishAttempt, players, api},
		{onGet, "/api/me", s.apiMe, players, api},
		{onGet, "/api/me/attempts", s.apiMeAttempts, players, api},
		{onGet, "/api/me/export", s.apiMeExport, players, api},
		{onDelete, "/api/me", s.apiMeDelete, players, api},
		{onGet, "/api/me/tokens", s.apiMeTokens, players, api},             // the player's API tokens (tokens.go)
		{onDelete, "/api/me/tokens/:id", s.apiMeRevokeToken, players, api}, // revoke one

		{onGet, "/me", s.mePage, anyone, pages}, // without a player it says how to become one
		{onPost, "/me/delete", s.meDelete, players, pages},
		{onPost, "/me/tokens/:id/revoke", s.meRevokeToken, players, pages}, // /me's Revoke (tokens.go)
		{onGet, "/signup", s.signupPage, signups, pages},
		{onPost, "/signup", s.signupForm, signups, pages},
		{onGet, "/login", s.loginPage, anyone, pages},
		{onPost, "/login", s.loginForm, anyone, pages},
		{onPost, "/logout", s.logout, anyone, pages},
	}
}

// moderationRoutes are the moderation API's routes (modapi.go), the
// moderation pages and their forms (admin.go), and the players' report.
func (s *Server) moderationRoutes() []route {
	return []route{
		{onPost, "/api/puzzles/:id/flag", s.apiFlag, players, api},
		{onPost, "/api/puzzles/:id/hide", s.apiHide, moderators, api},
		{onPost, "/api/puzzles/:id/restore", s.apiRestore, moderators, api},
		{onPost, "/api/puzzles/:id/dismiss", s.apiDismiss, moderators, api},
		{onDelete, "/api/puzzles/:id", s.apiDeletePuzzle, admins, api},
		{onGet, "/api/flags", s.apiFlags, moderators, api},
		{onGet, "/api/audit", s.apiAudit, moderators, api},

		{onGet, "/admin/flags", s.adminFlags, moderators, pages},
		{onGet, "/admin/audit", s.adminAudit, moderators, pages},
		{onPost, "/admin/puzzles/:id/hide", s.adminHide, moderators, pages},
		{onPost, "/admin/puzzles/:id/dismiss", s.adminDismiss, moderators, pages},
		{onPost, "/admin/puzzles/:id/restore", s.adminRestore, moderators, pages},
		{onPost, "/puzzles/:id/flag", s.flagForm, newPlayer, pages},
	}
}

// collectionRoutes are the routes of the collections (collections.go,
// collect.go) and, when the archive can change them, of their changes
// (collectionedit.go). Who may change which collection (its owner, a
// moderator) depends on the collection: the handlers check it, after the
// row's role. A form's players sends a visitor without a player to
// /login; the handler then wants an account, not an anonymous player.
func (s *Server) collectionRoutes() []route {
	rs := []route{
		{onGet, "/api/collections", s.apiCollections, anyone, api},
		{onGet, "/api/collections/:id", s.apiCollection, anyone, api},
		{onPost, "/api/collections", s.apiCreateCollection, accounts, api},
		{onPost, "/api/collections/:id/puzzles", s.apiAddToCollection, accounts, api},
		{onGet, "/collections", s.collectionsPage, anyone, pages},
		{onGet, "/collections/:id", s.collectionPage, anyone, pages},
		{onPost, "/collections", s.createCollectionForm, players, pages},
		// The forms that add a puzzle (collect.go): a puzzle page's "Add
		// to collection", a collection page's "Add a puzzle".
		{onPost, "/puzzles/:id/collections", s.collectForm, players, pages},
		{onPost, "/collections/:id/puzzles", s.addPuzzleForm, players, pages},
	}
	if s.editor == nil {
		return rs
	}
	return append(rs,
		route{onDelete, "/api/collections/:id/puzzles/:puzzle_id", s.apiRemoveFromCollection, accounts, api},
		route{onPatch, "/api/collections/:id", s.apiUpdateCollection, accounts, api},
		route{onDelete, "/api/collections/:id", s.apiDeleteCollection, accounts, api},
		route{onPost, "/collections/:id/remove", s.removePuzzleForm, players, pages},
		route{onPost, "/collections/:id/edit", s.editCollectionForm, players, pages},
		route{onPost, "/collections/:id/delete", s.deleteCollectionForm, players, pages})
}

// routes registers the table with echo, each row with its middleware:
// the CSRF check of a form, then its role (a closed sign-up says so
// first). Every GET row answers HEAD too.
func (s *Server) routes() {
	rows := s.table()
	// A static path that is also a value of a parameter route
	// (/api/puzzles/:id) would fall through to it for the methods it does
	// not take: GET /api/puzzles/batch answered "puzzle not found". They
	// get the 405 that echo gives every other path, served in their
	// route's class but with no CSRF check and no role.
	for _, r := range rows {
		if r.path != batchPath && r.path != importPath {
			continue
		}
		c := r.class
		c.csrf = false // a 405 has no form to check
		for _, m := range []string{http.MethodGet, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			rows = append(rows, route{m, r.path, methodNotAllowed(r.method), anyone, c})
		}
	}
	s.rows = make(map[routeKey]*route, 2*len(rows))
	for i := range rows {
		r := &rows[i]
		if r.who == undeclared {
			panic(fmt.Sprintf("web: route %s %s declares no access", r.method, r.path))
		}
		mw := s.routeMiddleware(r)
		s.echo.Add(r.method, r.path, r.handle, mw...)
		s.rows[routeKey{r.method, r.path}] = r
		if r.method == http.MethodGet {
			s.echo.Add(http.MethodHead, r.path, r.handle, mw...)
			s.rows[routeKey{http.MethodHead, r.path}] = r
		}
	}
}

// routeMiddleware is the middleware row r declares, in the order it runs.
func (s *Server) routeMiddleware(r *route) []echo.MiddlewareFunc {
	var mw []echo.MiddlewareFunc
	if r.who == signups {
		mw = append(mw, s.signupsOpen)
	}
	if r.class.csrf {
		mw = append(mw, s.csrfCheck)
	}
	switch r.who {
	case writers:
		mw = append(mw, s.writer)
	case newPlayer:
		mw = append(mw, s.ensurePlayer)
	case players:
		mw = append(mw, s.need(account.RolePlayer))
	case accounts:
		mw = append(mw, needAccount)
	case moderators:
		mw = append(mw, s.moderator())
	case admins:
		mw = append(mw, s.admin())
	}
	return mw
}

// needAccount is the role middleware of the collections' API writes: a
// named player (a login, or an API token), else the 401 that says how to
// become one (accountOf).
func needAccount(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, err := accountOf(c); err != nil {
			return err
		}
		return next(c)
	}
}

// unrouted is the row of a request that matched no route (404): an API
// route's class, open to anyone.
var unrouted = &route{who: anyone, class: api}

// rowOf returns the row of the request's route: the middleware of the
// chain (Server.middleware) read their route's class from it. A request
// whose path has routes but not for its method (405) is served in the
// class of its path's routes.
func (s *Server) rowOf(c echo.Context) *route {
	if r, ok := s.rows[routeKey{c.Request().Method, c.Path()}]; ok {
		return r
	}
	for _, m := range []string{http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodDelete} {
		if r, ok := s.rows[routeKey{m, c.Path()}]; ok {
			return r
		}
	}
	return unrouted
}

// methodNotAllowed answers 405 naming the methods the path takes, as echo
// does for paths it knows.
func methodNotAllowed(allow ...string) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set(echo.HeaderAllow, strings.Join(allow, ", "))
		return echo.ErrMethodNotAllowed
	}
}

// healthz answers 200 "ok" once the database answers, 503 otherwise;
// with ?verbose, a JSON object that also gives the grade queue.
func (s *Server) healthz(c echo.Context) error {
	if err := s.archive.Ping(c.Request().Context()); err != nil {
		if s.probeLeft(c, err) {
			return nil
		}
		return echo.NewHTTPError(http.StatusServiceUnavailable, "database unavailable").SetInternal(err)
	}
	if c.QueryParams().Has("verbose") {
		return s.healthzVerbose(c)
	}
	return c.String(http.StatusOK, "ok")
}

// Route is one entry of the route table: a method and a path as echo
// writes it (":id" for a parameter, "*" for the rest).
type Route struct{ Method, Path string }

// Routes lists the route table, HEAD (GET's twin) and the 405s left out:
// the browser tests walk every page of it.
func (s *Server) Routes() []Route {
	var rs []Route
	for _, r := range s.echo.Routes() {
		if r.Method == http.MethodHead || strings.Contains(r.Name, "methodNotAllowed") {
			continue
		}
		rs = append(rs, Route{r.Method, r.Path})
	}
	return rs
}
