package web

import (
	"context"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/templates"
)

// A setter's analysis: POST /api/analyse and the /setter page. Nothing is
// stored. It waits for slots of the search gate like a solve, and as a POST
// it counts against the rate limit.

// analyse answers the setter's analysis of g (archive.Archive.Analyse).
func (s *Server) analyse(ctx context.Context, g sudoku.Grid) (record.Analysis, error) {
	return s.arch.Analyse(ctx, g)
}

// apiAnalyse answers a setter's analysis of the puzzle in the body (as
// POST /api/solve's).
func (s *Server) apiAnalyse(c echo.Context) error {
	g, err := readGrid(c)
	if err != nil {
		return err
	}
	a, err := s.analyse(c.Request().Context(), g)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, a)
}

// setterPage is the setter's grid editor: empty, or with ?puzzle= the
// puzzle given and its analysis.
func (s *Server) setterPage(c echo.Context) error {
	if c.QueryParam("puzzle") == "" {
		return s.render(c, http.StatusOK, templates.SetterPage(templates.SetterView{Form: templates.SubmitForm{CSRF: csrfToken(c)}}))
	}
	return s.setterAnswer(c, c.QueryParam("puzzle"))
}

// setterForm is the setter's form post, the page without JavaScript: the
// grid and its analysis, or the reason the text is no puzzle (422).
func (s *Server) setterForm(c echo.Context) error {
	return s.setterAnswer(c, c.FormValue("puzzle"))
}

// setterAnswer renders the setter's page for input with its analysis.
func (s *Server) setterAnswer(c echo.Context, input string) error {
	g, err := sudoku.Parse(input)
	var a record.Analysis
	if err == nil {
		a, err = s.analyse(c.Request().Context(), g)
	}
	if err != nil {
		form, ok := rejectedForm(input, err)
		if !ok {
			return fmt.Errorf("analyse puzzle: %w", err)
		}
		form.CSRF = csrfToken(c)
		return s.render(c, http.StatusUnprocessableEntity, templates.SetterPage(templates.SetterView{Form: form}))
	}
	form := templates.SubmitForm{CSRF: csrfToken(c), Input: printable(input), Cells: g}
	return s.render(c, http.StatusOK, templates.SetterPage(templates.SetterView{Form: form, Analysis: &a}))
}
