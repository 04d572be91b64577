package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/templates"
)

// explainResponse is the logical solution path of GET /api/puzzles/{id}/explain.
type explainResponse struct {
	Grade      float64      `json:"grade"`
	Technique  string       `json:"technique"`
	GradeFloor bool         `json:"grade_floor"`
	GradeEP    float64      `json:"grade_ep"`
	GradeED    float64      `json:"grade_ed"`
	Techniques []string     `json:"techniques"`
	Steps      []logic.Step `json:"steps"`
}

// apiExplain answers the logical path of an archived puzzle, written as the
// puzzle is: the path of its canonical form, mapped back, so its grade is
// the stored one. 422 for a puzzle with several solutions.
func (s *Server) apiExplain(c echo.Context) error {
	p, err := s.puzzleParam(c)
	if err != nil {
		return err
	}
	if p.Rules != "" {
		return errVariantLogic(p.ID)
	}
	if !p.Unique {
		// No logical path leads to one of several solutions: the request
		// is understood but cannot be answered, which is no server fault.
		return echo.NewHTTPError(http.StatusUnprocessableEntity,
			fmt.Sprintf("puzzle %d has more than one solution: there is no logical path to explain and no grade", p.ID))
	}
	// Cached by the archive, and walked in the read lane: an explanation
	// asked again costs no search.
	e, err := s.arch.Explain(c.Request().Context(), p)
	r := e.Result
	if err != nil {
		return fmt.Errorf("explain puzzle %d: %w", p.ID, err)
	}
	steps := r.Steps
	if steps == nil {
		steps = []logic.Step{}
	}
	f := logic.FiguresOf(r)
	return c.JSON(http.StatusOK, explainResponse{Grade: r.Grade, Technique: r.Technique, GradeFloor: r.Floor,
		GradeEP: f.EP, GradeED: f.ED, Techniques: f.Techniques, Steps: steps})
}

// hintRequest is the body of POST /api/hint.
type hintRequest struct {
	Puzzle   json.RawMessage `json:"puzzle"`
	Progress json.RawMessage `json:"progress"`
	// Practice names a technique being practised (name or slug): the
	// answer says whether the next step is of it (practice.go).
	Practice string `json:"practice"`
	// Candidates are the player's pencil marks: 81 strings of digits, ""
	// for a cell that shows none (there the step counts every candidate
	// the placed digits leave). Optional.
	Candidates []string `json:"candidates"`
}

// hintResponse is the answer to POST /api/hint; Practice only in
// practice mode.
type hintResponse struct {
	Step     logic.Step    `json:"step"`
	Practice *practiceHint `json:"practice,omitempty"`
	// Unmarked: the cells the step removes candidates from that show no
	// pencil marks on the player's board; Ignored: the cells whose marks
	// leave out their solution digit, taken as showing none; Note says
	// both in words.
	Unmarked []int  `json:"unmarked,omitempty"`
	Ignored  []int  `json:"ignored,omitempty"`
	Note     string `json:"note,omitempty"`
}

// wrongCells answers a progress that contradicts the solution: which cells.
type wrongCells struct {
	Error string `json:"error"`
	Cells []int  `json:"cells"`
}

// apiHint answers the next logical step from a player's board: the givens
// plus the digits placed so far, and the player's pencil marks where there
// are some (marks that leave out a cell's solution digit are set aside, and
// the answer says so). 422 names the cells whose digits are not the
// solution's.
func (s *Server) apiHint(c echo.Context) error {
	var req hintRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if len(req.Puzzle) == 0 {
		return badRequest(`send {"puzzle": "<81 cells>", "progress": "<81 cells>"}; "progress" is optional`)
	}
	givens, err := gridField(req.Puzzle, "puzzle")
	if err != nil {
		return err
	}
	practised, err := practiceOf(req.Practice)
	if err != nil {
		return err
	}
	marks, err := pencilMarks(req.Candidates)
	if err != nil {
		return err
	}
	progress := givens
	if p := string(req.Progress); p != "" && p != "null" && p != `""` {
		if progress, err = gridField(req.Progress, "progress"); err != nil {
			return err
		}
	}
	h, err := s.arch.Hint(c.Request().Context(), givens, progress, marks)
	if err != nil {
		return hintRefused(c, err)
	}
	st := h.Step
	out := practiseHint(practised, st)
	if req.Candidates != nil {
		out.Unmarked, out.Note = unmarkedNote(st, progress, h.Marks, h.Ignored)
		out.Ignored = h.Ignored
	}
	return c.JSON(http.StatusOK, out)
}

// hintRefused answers a hint the archive found no step for: a puzzle
// with several solutions, a board that changes a given or holds digits that
// are not the solution's (their cells), a solved board; anything else
// (no solution, the gate's 503) by the one classification.
func hintRefused(c echo.Context, err error) error {
	var wrong *archive.WrongBoard
	switch {
	case errors.Is(err, logic.ErrMultipleSolutions):
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "this puzzle has more than one solution: no logical step leads to one of them")
	case errors.As(err, &wrong) && wrong.Cells == nil:
		return echo.NewHTTPError(http.StatusUnprocessableEntity, wrong.Error())
	case errors.As(err, &wrong):
		return c.JSON(http.StatusUnprocessableEntity, wrongCells{
			Error: templates.Plural(len(wrong.Cells), "of your digits is", "of your digits are") + " not the solution's", Cells: wrong.Cells})
	case errors.Is(err, logic.ErrSolved):
		return echo.NewHTTPError(http.StatusUnprocessableEntity, "the puzzle is solved: no step is left")
	}
	return err
}

// gridField reads one puzzle field of a JSON body: text, like "puzzle".
func gridField(raw json.RawMessage, name string) (sudoku.Grid, error) {
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		return sudoku.Grid{}, badRequest("%q must be a string of 81 cells", name)
	}
	g, err := sudoku.Parse(text)
	if err != nil {
		return sudoku.Grid{}, badRequest("%s: %v", name, err)
	}
	return g, nil
}

// errVariantLogic answers an explanation or a replay asked of a variant:
// the logical solver and the search's trace are the classic grid's, and
// on a variant's givens alone they would explain another puzzle.
func errVariantLogic(id int64) error {
	return echo.NewHTTPError(http.StatusUnprocessableEntity,
		fmt.Sprintf("puzzle %d is a variant: explained solutions and replays of the search are for classic puzzles only, for now", id))
}
