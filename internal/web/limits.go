package web

import (
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
)

// crossOrigin refuses unsafe requests (POST and the like) that a browser
// sends on behalf of a page of another origin, on every route, API and
// forms alike: by Sec-Fetch-Site, which every current browser sends, else by
// Origin against Host. A request with neither header is not from a browser
// page (curl, scripts) and goes through. This is what makes the API safe
// although POST /api/puzzles/batch takes text/plain, a type any page can
// send without a preflight.
func (s *Server) crossOrigin() echo.MiddlewareFunc {
	p := http.NewCrossOriginProtection()
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if err := p.Check(c.Request()); err != nil {
				return echo.NewHTTPError(http.StatusForbidden,
					"cross-site request refused: this archive accepts changes only from its own pages or from programs that are not browsers").SetInternal(err)
			}
			return next(c)
		}
	}
}

// bodyLimit bounds every request body to its route's limit (its row's
// class), exactly: MaxBatchBody for the batch import, BodyLimit elsewhere
// (the upload form has uploadLimit). A Content-Length over the limit is answered 413 before
// any of the body is read, so a client that sent Expect: 100-continue is
// never invited to send it; a body that turns out longer fails its read
// with *http.MaxBytesError, which the handlers answer 413.
func (s *Server) bodyLimit() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			req := c.Request()
			body := s.rowOf(c).class.body
			if body == uploadBody || req.Body == nil || req.Body == http.NoBody {
				return next(c)
			}
			limit := int64(BodyLimit)
			if body == batchBody {
				limit = MaxBatchBody
			}
			if req.ContentLength > limit {
				return tooLarge(limit)
			}
			req.Body = http.MaxBytesReader(c.Response(), req.Body, limit)
			return next(c)
		}
	}
}

// tooLarge is the 413 for a body over limit.
func tooLarge(limit int64) error {
	return echo.NewHTTPError(http.StatusRequestEntityTooLarge, tooLargeMessage(limit))
}

// extendWrite lets the response of a long request (bulk, export) be
// written until d from now, past the server's WriteTimeout. It does nothing
// where the writer has no deadline (tests' recorders).
func extendWrite(c echo.Context, d time.Duration) {
	_ = http.NewResponseController(c.Response()).SetWriteDeadline(time.Now().Add(d))
}
