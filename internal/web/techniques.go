package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/templates"
)

// The techniques: search by technique (technique= on every listing), GET
// /api/techniques, the pages /techniques and /techniques/{slug} and the
// practice mode of the board. Names, slugs, grades and families come from
// the logic package's technique table (logic.Techniques), never a list of
// this package's own.

// TechniqueArchive is what the technique pages need of the archive beyond
// Archive (Parts.Techniques); without it no technique pages are served.
type TechniqueArchive interface {
	// Techniques counts, for every technique a path has used, the puzzles
	// that use it and those that need it as their hardest.
	Techniques(ctx context.Context) ([]record.TechniqueCount, error)
	// Practice returns up to limit puzzles whose hardest technique is
	// name, easiest first.
	Practice(ctx context.Context, name string, limit int) ([]record.Puzzle, error)
	// UsingTechnique returns up to limit puzzles whose path uses name.
	UsingTechnique(ctx context.Context, name string, limit int) ([]record.Puzzle, error)
}

// practiceLimit is how many puzzles a technique's page lists to practise.
const practiceLimit = 20

// techniqueParams reads the repeatable technique parameter (see
// logic.ParseTechniques: the one reader, shared with `sudoku export
// --technique`). An unknown one is a 400 naming the known ones.
func techniqueParams(v url.Values) (record.Techniques, error) {
	return logic.ParseTechniques(`"technique"`, v["technique"])
}

// techniqueJSON is one element of GET /api/techniques.
type techniqueJSON struct {
	Name    string  `json:"name"`
	Slug    string  `json:"slug"`
	Grade   float64 `json:"grade"`
	Family  string  `json:"family"`
	Puzzles int64   `json:"puzzles"`
	Hardest int64   `json:"hardest"`
}

// techniqueRows joins the technique table with the archive's counts,
// easiest first by grade (logic.TechniquesByGrade: the lists say "easiest
// first").
func (s *Server) techniqueRows(ctx context.Context) ([]templates.TechniqueInfo, error) {
	counts, err := s.techniques.Techniques(ctx)
	if err != nil {
		return nil, fmt.Errorf("techniques: %w", err)
	}
	byName := map[string]record.TechniqueCount{}
	for _, c := range counts {
		byName[c.Name] = c
	}
	var rows []templates.TechniqueInfo
	for _, t := range logic.TechniquesByGrade() {
		c := byName[t.Name]
		rows = append(rows, templates.TechniqueInfo{Technique: t, Description: logic.Describe(t.Name), Puzzles: c.Puzzles, Hardest: c.Hardest})
	}
	return rows, nil
}

// rowNamed is the row of the technique named among rows (techniqueRows
// gives every technique a row).
func rowNamed(rows []templates.TechniqueInfo, name string) templates.TechniqueInfo {
	for _, r := range rows {
		if r.Name == name {
			return r
		}
	}
	return templates.TechniqueInfo{}
}

// apiTechniques answers every technique of the ladder with its counts.
func (s *Server) apiTechniques(c echo.Context) error {
	rows, err := s.techniqueRows(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]techniqueJSON, len(rows))
	for i, r := range rows {
		out[i] = techniqueJSON{Name: r.Name, Slug: r.Slug, Grade: r.Grade, Family: r.Family, Puzzles: r.Puzzles, Hardest: r.Hardest}
	}
	return c.JSON(http.StatusOK, out)
}

// techniquesPage lists the techniques: grade, description, counts.
func (s *Server) techniquesPage(c echo.Context) error {
	rows, err := s.techniqueRows(c.Request().Context())
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.TechniquesPage(templates.TechniquesView{Rows: rows}))
}

// techniquePage explains one technique: an example step from an archived
// puzzle on a board, and the puzzles to practise it. 404 for an unknown
// slug (a name in any case is sent to its slug).
func (s *Server) techniquePage(c echo.Context) error {
	slug := c.Param("slug")
	t, ok := logic.TechniqueByName(slug)
	if !ok {
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("no technique %s: see /techniques for the list", userinput.Echo(slug)))
	}
	if slug != t.Slug {
		return c.Redirect(http.StatusMovedPermanently, "/techniques/"+t.Slug)
	}
	ctx := c.Request().Context()
	rows, err := s.techniqueRows(ctx)
	if err != nil {
		return err
	}
	v := templates.TechniqueView{Info: rowNamed(rows, t.Name)}
	if v.Practice, err = s.techniques.Practice(ctx, t.Name, practiceLimit); err != nil {
		return fmt.Errorf("practice %s: %w", t.Name, err)
	}
	// The offer of practice boards says how many the practice page finds.
	if v.Boards, err = s.arch.PracticeCount(ctx, t); err != nil {
		return fmt.Errorf("practice boards of %s: %w", t.Name, err)
	}
	candidates := v.Practice
	if len(candidates) == 0 {
		if candidates, err = s.techniques.UsingTechnique(ctx, t.Name, 3); err != nil {
			return fmt.Errorf("puzzles using %s: %w", t.Name, err)
		}
	}
	if v.Example, err = s.exampleStep(ctx, t.Name, candidates); err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.TechniquePage(v))
}

// exampleStep finds the first step of technique name on the logical path
// of the first of ps (up to three tried) that has one, with the board as
// it stands before that step; nil when none has.
func (s *Server) exampleStep(ctx context.Context, name string, ps []record.Puzzle) (*templates.ExampleStep, error) {
	for _, p := range ps[:min(len(ps), 3)] {
		e, err := s.arch.Explain(ctx, p) // cached: a page seen again costs no search
		r := e.Result
		if err != nil {
			return nil, fmt.Errorf("explain puzzle %d: %w", p.ID, err)
		}
		for i, st := range r.Steps {
			if st.Technique == name {
				return &templates.ExampleStep{Puzzle: p, Before: r.Steps[:i], Step: st}, nil
			}
		}
	}
	return nil, nil
}

// practiceParam reads ?practice= of the puzzle page (see practiceOf).
func practiceParam(c echo.Context) (logic.Technique, error) {
	return practiceOf(c.QueryParam("practice"))
}

// practiceOf reads the technique practised: its slug or name; the zero
// Technique for "", a 400 naming the known ones for an unknown one.
func practiceOf(v string) (logic.Technique, error) {
	if v == "" {
		return logic.Technique{}, nil
	}
	t, ok := logic.TechniqueByName(v)
	if !ok {
		return t, &userinput.InputError{Name: `"practice"`, Value: v, Reason: "use one of " + logic.TechniqueNames()}
	}
	return t, nil
}
