package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
)

// readLane marks the work a read asks for (a GET or HEAD, and the hint, a
// read sent as a POST: its row's class says so) as a read's, asked by its
// client: the searches it needs take the archive's read lane, never the
// search gate of the writes and solves, and one client holds at most a
// share of the lane (archive.ForReader; docs/api.md "Fair turns"). The
// client is the one the rate limit counts: an API token, else the address,
// an IPv6 client by its /64.
func (s *Server) readLane(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if req.Method != http.MethodGet && req.Method != http.MethodHead && !s.rowOf(c).class.reads {
			return next(c)
		}
		who, ok := c.Get(rateKeyKey).(string)
		if !ok {
			who = clientAddress(c)
		}
		c.SetRequest(req.WithContext(archive.ForReader(req.Context(), who)))
		return next(c)
	}
}
