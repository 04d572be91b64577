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
	// The header links to the moderation pages for moderators, and offers
	// Log in and Sign up to visitors, the name and Log out to accounts.
	v := templates.Viewer{Moderator: isModerator(c), Accounts: s.players != nil, CSRF: csrfToken(c), SignupsClosed: s.cfg.ClosedSignups}
	if p, ok := playerOf(c); ok {
		v.Name = p.Name
	}
	ctx = templates.WithViewer(ctx, v)
	if err := component.Render(ctx, &buf); err != nil {
		return err
	}
	return c.HTMLBlob(status, buf.Bytes())
}
