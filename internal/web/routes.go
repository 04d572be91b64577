package web

import (
	"net/http"

	"github.com/labstack/echo/v4"
)

// routes is the route table: every path the server answers, in one place.
func (s *Server) routes() {
	e := s.echo

	e.GET("/healthz", s.healthz)
	e.GET("/static/*", s.staticFile)
	e.HEAD("/static/*", s.staticFile)

	// JSON API: no CSRF token, application/json bodies only.
	api := e.Group("/api")
	api.POST("/puzzles", s.apiSubmit)
	api.GET("/puzzles", s.apiList)
	api.GET("/puzzles/:id", s.apiPuzzle)
	api.GET("/puzzles/:id/trace", s.apiTrace)
	api.GET("/puzzles/:id/explain", s.apiExplain)
	api.POST("/hint", s.apiHint)
	api.POST("/solve", s.apiSolve)
	api.POST("/puzzles/batch", s.apiBatch) // text/plain, one puzzle per line (batch.go)
	api.GET("/export", s.apiExport)

	// HTML pages: forms carry a CSRF token.
	e.GET("/", s.home)
	e.POST("/puzzles", s.submitForm)
	e.POST(importPath, s.importUpload) // multipart upload of a file of puzzles (upload.go)
	e.GET("/puzzles", s.history)
	e.GET("/puzzles/print", s.printSheet) // the history's page, four puzzles to a printed sheet (share.go)
	e.GET("/puzzles/:id", s.puzzlePage)
	e.GET("/stats", s.stats)
	e.GET("/p/:cells", s.sharedPuzzle) // share link: the puzzle in the path (share.go)
}

// healthz answers 200 "ok" once the database answers, 503 otherwise.
func (s *Server) healthz(c echo.Context) error {
	if err := s.archive.Ping(c.Request().Context()); err != nil {
		return echo.NewHTTPError(http.StatusServiceUnavailable, "database unavailable").SetInternal(err)
	}
	return c.String(http.StatusOK, "ok")
}
