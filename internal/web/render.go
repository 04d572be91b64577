package web

import (
	"bytes"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/templates"
)

// render writes component as an HTML page with the given status. It renders
// into a buffer first, so a render error still becomes a clean 500.
func (s *Server) render(c echo.Context, status int, component templ.Component) error {
	var buf bytes.Buffer
	ctx := c.Request().Context()
	if isModerator(c) { // the header links to the moderation pages
		ctx = templates.WithViewer(ctx, templates.Viewer{Moderator: true})
	}
	if err := component.Render(ctx, &buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}
