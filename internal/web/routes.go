package web

import (
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

// routes is the route table: every path the server answers, in one place.
// Every GET route answers HEAD the same way, without the body.
func (s *Server) routes() {
	e := s.echo
	get := func(path string, h echo.HandlerFunc, m ...echo.MiddlewareFunc) {
		e.GET(path, h, m...)
		e.HEAD(path, h, m...)
	}

	get("/healthz", s.healthz)
	get("/readyz", s.readyz) // the database answers and its schema is this binary's (ops.go)
	get("/static/*", s.staticFile)

	// JSON API: no CSRF token; crossOrigin refuses posts from other sites.
	get("/api/puzzles", s.apiList)
	get("/api/puzzles/:id", s.apiPuzzle)
	get(tracePath, s.apiTrace)
	get(explainPath, s.apiExplain) // the logical solution path (explain.go)
	get(exportPath, s.apiExport)
	e.POST("/api/puzzles", s.apiSubmit, s.writer)
	e.POST("/api/solve", s.apiSolve)
	e.POST("/api/hint", s.apiHint)                   // the next logical step from a player's progress (explain.go)
	e.POST(batchPath, s.apiBatch, s.writer)          // text/plain, one puzzle per line (batch.go)
	e.POST("/api/generate", s.apiGenerate, s.writer) // a new puzzle of a band or grade (generate.go)
	get("/api/daily", s.apiDaily)                    // the puzzle of the day (generate.go)
	get("/api/openapi.json", s.apiOpenAPI)           // this API described in OpenAPI 3.1 (openapi.go)

	// HTML pages: forms carry a CSRF token.
	get("/", s.home, s.csrfCheck)
	get("/puzzles", s.history, s.csrfCheck)
	get("/puzzles/print", s.printSheet, s.csrfCheck) // the history's page, four puzzles to a printed sheet (share.go)
	get("/puzzles/:id", s.puzzlePage, s.csrfCheck)
	get("/stats", s.stats, s.csrfCheck)
	get("/data", s.dataPage, s.csrfCheck)         // the open data: the export's fields and licence (data.go)
	get(sharePath, s.sharedPuzzle, s.csrfCheck)   // share link: the puzzle in the path (share.go)
	get("/generate", s.generatePage, s.csrfCheck) // the "New puzzle" form (generate.go)
	get("/daily", s.dailyPage, s.csrfCheck)       // 303 to the puzzle of the day (generate.go)
	e.POST("/puzzles", s.submitForm, s.csrfCheck, s.writer)
	e.POST("/generate", s.generateForm, s.csrfCheck, s.writer)
	e.POST(importPath, s.importUpload, s.csrfCheck, s.writer) // multipart upload of a file of puzzles (upload.go)

	if s.players != nil {
		s.playerRoutes(get)
	}
	if s.techniques != nil {
		get("/api/techniques", s.apiTechniques)                        // every technique with its counts (techniques.go)
		get("/techniques", s.techniquesPage, s.csrfCheck)              // the list of techniques
		get("/techniques/:slug", s.techniquePage, s.csrfCheck)         // one technique: an example step, puzzles to practise
		get("/api/techniques/:slug/practice", s.apiPractice)           // boards where it is the next step (practice.go)
		get("/techniques/:slug/practice", s.practicePage, s.csrfCheck) // find the step on such a board
	}
	e.POST("/api/analyse", s.apiAnalyse)         // a setter's analysis, nothing stored (analyse.go)
	get("/setter", s.setterPage, s.csrfCheck)    // the setter's grid editor with the analysis
	e.POST("/setter", s.setterForm, s.csrfCheck) // its form post, without JavaScript
	if s.leveller != nil {
		get("/api/next", s.apiNext) // the next puzzle at the player's level (next.go)
	}
	if s.rated != nil {
		get("/api/ratings", s.apiRatings)           // how well each measure predicts the players (ratings.go)
		get("/ratings", s.ratingsPage, s.csrfCheck) // the same as a page
	}
	if s.mod != nil {
		s.moderationRoutes(get) // modapi.go
		s.adminRoutes(get)      // the moderation pages (admin.go)
	}
	if s.collections != nil {
		s.collectionRoutes(get) // collections.go
		if s.editor != nil {
			s.collectionEditRoutes() // collectionedit.go
		}
	}

	// A static path that is also a value of a parameter route
	// (/api/puzzles/:id) would fall through to it for the methods it does
	// not take: GET /api/puzzles/batch answered "puzzle not found". They
	// get the 405 that echo gives every other path.
	for _, path := range []string{batchPath, importPath} {
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			e.Add(m, path, methodNotAllowed(http.MethodPost))
		}
	}
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
		return echo.NewHTTPError(http.StatusServiceUnavailable, "database unavailable").SetInternal(err)
	}
	if c.QueryParams().Has("verbose") {
		return s.healthzVerbose(c)
	}
	return c.String(http.StatusOK, "ok")
}

// playerRoutes are the routes of players and attempts (players.go): each
// says who may use it. ensurePlayer makes an anonymous player on the first
// play; need(RolePlayer) wants any player (401 or /login without one).
func (s *Server) playerRoutes(get func(string, echo.HandlerFunc, ...echo.MiddlewareFunc)) {
	e := s.echo
	player := s.need(account.RolePlayer)
	e.POST("/api/attempts", s.apiStartAttempt, s.ensurePlayer)
	e.POST("/api/attempts/:id", s.apiFinishAttempt, player)
	get("/api/me", s.apiMe, player)
	get("/api/me/attempts", s.apiMeAttempts, player)
	get("/api/me/export", s.apiMeExport, player)
	e.DELETE("/api/me", s.apiMeDelete, player)
	get("/api/me/tokens", s.apiMeTokens, player)               // the player's API tokens (tokens.go)
	e.DELETE("/api/me/tokens/:id", s.apiMeRevokeToken, player) // revoke one

	get("/me", s.mePage, s.csrfCheck) // anyone: without a player it says how to become one
	e.POST("/me/delete", s.meDelete, s.csrfCheck, player)
	e.POST("/me/tokens/:id/revoke", s.meRevokeToken, s.csrfCheck, player) // /me's Revoke (tokens.go)
	get("/signup", s.signupPage, s.signupsOpen, s.csrfCheck)
	e.POST("/signup", s.signupForm, s.signupsOpen, s.csrfCheck)
	get("/login", s.loginPage, s.csrfCheck)
	e.POST("/login", s.loginForm, s.csrfCheck)
	e.POST("/logout", s.logout, s.csrfCheck)
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
