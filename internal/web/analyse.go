package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/templates"
)

// A setter's analysis: POST /api/analyse and the /setter page. Nothing is
// stored. It waits for slots of the search gate like a solve, and as a POST
// it counts against the rate limit.

// analyse answers the analysis of g: its solutions; for one solution the
// givens that could go (a search per given), the grade with its figures and
// techniques; its canonical form and the archived puzzle of the same class.
// A grid without a solution or with several is answered as such, with no
// grade; a grid that breaks the rules, or one beyond the search's budget, is
// an error.
func (s *Server) analyse(ctx context.Context, g sudoku.Grid) (sudoku.Analysis, error) {
	a := sudoku.Analysis{Clues: g.Clues(), Symmetry: sudoku.SymmetryOf(g), Redundant: []int{}, GradeStatus: sudoku.GradeNone}
	p, err := s.rate(ctx, g, false)
	switch {
	case errors.Is(err, sudoku.ErrNoSolution):
		return a, nil
	case err != nil:
		return a, err
	}
	a.Solutions, a.Unique = p.Solutions, p.Unique
	canon := p.Canonical
	a.Canonical = &canon
	var same sudoku.Puzzle
	if canon != (sudoku.Grid{}) {
		same, err = s.archive.ByCanonical(ctx, canon)
		switch {
		case err == nil:
			a.SameAs = &same.ID
		case !errors.Is(err, sudoku.ErrNotFound):
			return a, fmt.Errorf("look up the canonical form: %w", err)
		}
	}
	if !p.Unique {
		return a, nil
	}
	// The grade belongs to the puzzle, however it is written: an archived
	// one graded by this solver gives its own; another is graded here,
	// within a request's budget, as POST /api/solve does.
	// One that needs more than a request's budget is graded in the
	// background (settergrade.go): "pending" now, the figures when asked
	// again.
	// The request's own searches (the grade within its budget, the
	// redundant givens) take one turn of the gate, and only then may a
	// background grading take the gate: on a server of one search slot the
	// request would otherwise queue behind the grading it started.
	a.GradeStatus = sudoku.GradeDone
	archived := a.SameAs != nil && same.Grade != nil && same.GradeVersion == logic.Version
	within := true
	err = s.searching(ctx, func() error {
		if !archived {
			within = logic.GradeWithin(&p, logic.RequestBudget)
		}
		var err error
		a.Redundant, err = sudoku.Redundant(g, p.Solution, s.solveOptions(ctx))
		return err
	})
	if err != nil {
		return a, err
	}
	switch {
	case archived:
		p.Grade, p.GradeFloor, p.GradeEP, p.GradeED, p.Technique, p.Techniques = same.Grade, same.GradeFloor, same.GradeEP, same.GradeED, same.Technique, same.Techniques
	case !within:
		var st gradeState
		p, st = s.setterGrades.lookup(p, s.searching)
		if st != gradeDone { // busy too: the next ask starts it
			a.GradeStatus = sudoku.GradePending
		}
	}
	a.Grade, a.GradeFloor, a.GradeEP, a.GradeED = p.Grade, p.GradeFloor, p.GradeEP, p.GradeED
	a.Technique, a.Techniques = p.Technique, p.Techniques
	minimal := len(a.Redundant) == 0
	a.Minimal = &minimal
	return a, nil
}

// apiAnalyse answers a setter's analysis of the puzzle in the body (as
// POST /api/solve's).
func (s *Server) apiAnalyse(c echo.Context) error {
	g, err := readPuzzle(c)
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
	var a sudoku.Analysis
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
