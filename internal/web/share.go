package web

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/templates"
)

// origin is the site's origin as the browser reached it, for links meant
// to be copied out of the page (share links, print-outs): the request's
// Host, and the scheme of the connection, or X-Forwarded-Proto from a
// --trusted-proxy peer only (the server's SchemeExtractor: echo's default
// believed it from every loopback and private address).
func origin(c echo.Context) string {
	return c.Scheme() + "://" + c.Request().Host
}

// sharedPuzzle serves a share link, /p/<81 cells>: the archived puzzle
// with those givens if there is one (303 to its page), else the puzzle
// ready to play with a button that archives it. Text that is no puzzle is
// a 400 with the reader's message.
func (s *Server) sharedPuzzle(c echo.Context) error {
	ctx := c.Request().Context()
	text := c.Param("cells")
	if u, err := url.PathUnescape(text); err == nil {
		text = u
	}
	g, err := sudoku.Parse(text)
	if err != nil {
		return badRequest("This share link holds no puzzle: %s.", err)
	}
	// These givens, or the same puzzle written another way. The searches
	// (the canonical form, the solution) take turns at the archive's search
	// gate like every other search, and the route is rate limited like a POST
	// (rateLimiter): a GET anyone can send must not outrun the gate.
	p, err := s.archive.PuzzleByGivens(ctx, g)
	var canon sudoku.Grid
	if errors.Is(err, record.ErrNotFound) && g.Clues() > 0 {
		var ok bool
		if canon, ok, err = s.arch.Canonical(ctx, g); err != nil {
			return err
		}
		err = record.ErrNotFound
		if ok {
			p, err = s.archive.ByCanonical(ctx, canon)
		}
	}
	switch {
	case err == nil:
		return c.Redirect(http.StatusSeeOther, templates.PuzzleURL(p.ID))
	case !errors.Is(err, record.ErrNotFound):
		return fmt.Errorf("look up shared puzzle: %w", err)
	}
	if err := s.refuseHiddenShare(ctx, g, canon); err != nil {
		return err
	}
	view := templates.ShareView{CSRF: csrfToken(c), Origin: origin(c)}
	view.Puzzle = record.Puzzle{Givens: g, Clues: g.Clues()}
	// A busy gate is the archive's 503; what is wrong with the puzzle is
	// the page's 422.
	sh, err := s.arch.SolveShared(ctx, g)
	if err != nil {
		return err
	}
	if sh.Refused != nil {
		form, ok := rejectedForm(text, sh.Refused)
		if !ok {
			return fmt.Errorf("solve shared puzzle: %w", sh.Refused)
		}
		view.Error = strings.TrimSuffix(form.Error, ".")
		return s.render(c, http.StatusUnprocessableEntity, templates.SharePage(view))
	}
	res := sh.Result
	view.Puzzle.Solution = res.Solution
	view.Puzzle.Solutions = res.Solutions
	view.Puzzle.Unique = res.Solutions == 1
	view.Puzzle.Backtracks = res.Backtracks // no grade, so no band: that is for the archive
	return s.render(c, http.StatusOK, templates.SharePage(view))
}

// printSheet lays out one page of the history, with the history's own
// query, to print four puzzles to a sheet.
func (s *Server) printSheet(c echo.Context) error {
	q, _, err := requestListQuery(c)
	if err != nil {
		return err
	}
	page, err := s.archive.List(c.Request().Context(), q)
	if err != nil {
		return fmt.Errorf("list puzzles to print: %w", err)
	}
	base := origin(c)
	view := templates.PrintView{BackURL: "/puzzles"}
	if raw := c.Request().URL.RawQuery; raw != "" {
		view.BackURL += "?" + raw
	}
	for _, p := range page.Puzzles {
		view.Cards = append(view.Cards, templates.CardOf(p, base))
	}
	return s.render(c, http.StatusOK, templates.PrintSheet(view))
}
