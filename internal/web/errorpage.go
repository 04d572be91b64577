package web

import "github.com/labstack/echo/v4"

// errorPage answers a failed page request (not /api) with status and a
// message safe to show. INTERIM: the pages work renders it as an HTML page.
func (s *Server) errorPage(c echo.Context, status int, msg string) error {
	return c.String(status, msg)
}
