package web

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/templates"
)

// Practice: GET /api/techniques/{slug}/practice (boards at which a
// technique is the next step), the page /techniques/{slug}/practice that
// asks the player to find it, and the hint of the practice mode on a
// puzzle, computed from the player's own board.

// Limits of GET /api/techniques/{slug}/practice: positions are one a
// puzzle, from the archive's cache of practice boards (archive.PracticeBoards).
const (
	defaultPositions = 5
	maxPositions     = archive.MaxPracticeBoards
)

// practicePosition is one element of GET /api/techniques/{slug}/practice.
type practicePosition struct {
	PuzzleID   int64      `json:"puzzle_id"`
	Givens     string     `json:"givens"`
	Grid       string     `json:"grid"`
	Candidates []string   `json:"candidates"`
	Step       logic.Step `json:"step"`
}

// practiceResponse is GET /api/techniques/{slug}/practice.
type practiceResponse struct {
	Technique string             `json:"technique"`
	Slug      string             `json:"slug"`
	Positions []practicePosition `json:"positions"`
}

// techniqueSlug reads the {slug} of a technique's routes: its technique,
// or a 404 for an unknown one.
func techniqueSlug(c echo.Context) (logic.Technique, error) {
	slug := c.Param("slug")
	t, ok := logic.TechniqueByName(slug)
	if !ok {
		return t, echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("no technique %s: see /techniques for the list", userinput.Echo(slug)))
	}
	return t, nil
}

// apiPractice answers up to limit boards at which the technique is the
// next step, one a puzzle, from the archived puzzles whose path uses it.
func (s *Server) apiPractice(c echo.Context) error {
	t, err := techniqueSlug(c)
	if err != nil {
		return err
	}
	limit := int64(defaultPositions)
	if v := c.QueryParam("limit"); v != "" {
		if limit, err = userinput.ParseWhole(`"limit"`, v, 1, maxPositions); err != nil {
			return err
		}
	}
	found, err := s.practicePositions(c.Request().Context(), t, 0, int(limit))
	if err != nil {
		return err
	}
	ps := make([]practicePosition, len(found))
	for i, f := range found {
		ps[i] = practicePosition{PuzzleID: f.Puzzle.ID, Givens: f.Puzzle.Givens.String(), Grid: f.Grid.String(),
			Candidates: f.CandidateStrings(), Step: f.Step}
	}
	return c.JSON(http.StatusOK, practiceResponse{Technique: t.Name, Slug: t.Slug, Positions: ps})
}

// practicePositions finds up to limit boards of technique t, one a
// puzzle, from the skip-th puzzle using t on (archive.PracticeBoards).
func (s *Server) practicePositions(ctx context.Context, t logic.Technique, skip, limit int) ([]archive.PracticeBoard, error) {
	return s.arch.PracticeBoards(ctx, t, skip, limit)
}

// practicePage draws a position of the technique and asks the player to
// find its step: ?n= picks the position (0 first). Without JavaScript the
// board and a reveal ("Show me") still work.
func (s *Server) practicePage(c echo.Context) error {
	t, err := techniqueSlug(c)
	if err != nil {
		return err
	}
	if c.Param("slug") != t.Slug {
		return c.Redirect(http.StatusMovedPermanently, "/techniques/"+t.Slug+"/practice")
	}
	n := int64(0)
	if v := c.QueryParam("n"); v != "" {
		if n, err = userinput.ParseWhole(`"n"`, v, 0, maxPositions-1); err != nil {
			return err
		}
	}
	// Position n is the first of the puzzles using t from the n-th on
	// (every path that uses t has one), so only that puzzle is solved;
	// past the last, the first.
	ctx := c.Request().Context()
	ps, err := s.practicePositions(ctx, t, int(n), 1)
	if err == nil && len(ps) == 0 && n > 0 {
		n = 0
		ps, err = s.practicePositions(ctx, t, 0, 1)
	}
	if err != nil {
		return err
	}
	boards, err := s.arch.PracticeCount(ctx, t) // as many as the technique's page offers
	if err != nil {
		return err
	}
	v := templates.PracticeView{Technique: t, Description: logic.Describe(t.Name), N: int(n)}
	if len(ps) > 0 {
		pos := ps[0]
		v.Position = &templates.PracticePosition{PuzzleID: pos.Puzzle.ID, Givens: pos.Puzzle.Givens, Grid: pos.Grid, Candidates: pos.Candidates, Step: pos.Step}
		v.HasNext = boards > int(n)+1
	}
	return s.render(c, http.StatusOK, templates.PracticePage(v))
}

// practiceHint is what the practice mode's hint found: the technique, and
// whether it is the next step on the player's board (the step answered is
// the next step either way).
type practiceHint struct {
	Technique string `json:"technique"`
	Slug      string `json:"slug"`
	Found     bool   `json:"found"`
}

// practiseHint is the answer to a hint whose next step is next, on the
// player's board: with a technique practised, whether next is of it.
func practiseHint(practised logic.Technique, next logic.Step) hintResponse {
	res := hintResponse{Step: next}
	if practised.Name != "" {
		res.Practice = &practiceHint{Technique: practised.Name, Slug: practised.Slug, Found: next.Technique == practised.Name}
	}
	return res
}

// pencilMarks reads the hint's "candidates": the player's pencil marks,
// 81 strings of digits ("" for a cell that shows none), or none at all.
func pencilMarks(v []string) ([81]uint16, error) {
	var marks [81]uint16
	if v == nil {
		return marks, nil
	}
	if len(v) != 81 {
		return marks, badRequest(`"candidates" must be 81 strings of digits 1-9 (the pencil marks of each cell, "" for none), not %d`, len(v))
	}
	for c, s := range v {
		for _, ch := range s {
			if ch < '1' || ch > '9' {
				return marks, badRequest(`"candidates" of r%dc%d: %s is not a digit 1-9`, c/9+1, c%9+1, userinput.Echo(s))
			}
			marks[c] |= 1 << (ch - '0')
		}
	}
	return marks, nil
}

// unmarkedCells lists the cells the step removes candidates from that
// show no pencil marks on the player's board (the step counts every
// candidate the placed digits leave there): the board says so.
func unmarkedCells(st logic.Step, progress sudoku.Grid, marks [81]uint16) []int {
	var out []int
	seen := map[int]bool{}
	for _, e := range st.Eliminations {
		if progress[e.Cell] == 0 && marks[e.Cell] == 0 && !seen[e.Cell] {
			seen[e.Cell] = true
			out = append(out, e.Cell)
		}
	}
	return out
}

// unmarkedNote returns the cells the step strikes that show no pencil
// marks, and the sentences that say so and name the cells whose marks were
// set aside (ignored); "" when there is nothing to say.
func unmarkedNote(st logic.Step, progress sudoku.Grid, marks [81]uint16, ignored []int) ([]int, string) {
	cells := unmarkedCells(st, progress, marks)
	var notes []string
	if len(ignored) > 0 {
		notes = append(notes, fmt.Sprintf("The pencil marks of %s leave out the digit that goes there, so the hint counts every candidate there.", cellNames(ignored)))
	}
	if len(cells) > 0 {
		verb := "show"
		if len(cells) == 1 {
			verb = "shows"
		}
		notes = append(notes, fmt.Sprintf("%s %s no pencil marks: the step counts there every digit the placed digits leave.", cellNames(cells), verb))
	}
	return cells, strings.Join(notes, " ")
}

// cellNames writes cells as "r1c2, r3c4".
func cellNames(cs []int) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = fmt.Sprintf("r%dc%d", c/9+1, c%9+1)
	}
	return strings.Join(names, ", ")
}
