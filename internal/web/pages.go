package web

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/puzzletext"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
	"github.com/sudoku-archive/sudoku/templates"
)

// examples are the puzzles the submit page offers to load, one per band,
// easy to extreme, each a real puzzle from a published collection, named
// by the band and grade the archive gives it (TestExampleLabelsAreGraded
// keeps them honest).
var examples = []templates.Example{
	{Label: "Easy · grade 1.2", Note: "Project Euler 96, grid 1: hidden singles", Puzzle: "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."},
	{Label: "Medium · grade 2.6", Note: "Project Euler 96, grid 6: pointing", Puzzle: "1..92....524.1...........7..5...81.2.........4.27...9..6...........3.945....71..6"},
	{Label: "Hard · grade 4.0", Note: "magictour top 1465, #11: a hidden triple", Puzzle: ".8..1......5....3.......4.....6.5.7.89....2.....3.....2.....1.9..67........4....."},
	{Label: "Fiendish · grade 5.6", Note: "Sudoku Exchange, diabolical: a WXYZ-Wing", Puzzle: "..8.2.9..6.......55..9.1..2..1.7.5...72...69.3.......7...4.7....1.5.3.2..5..1..8."},
	{Label: "Extreme · grade 10.2", Note: "Enjoy Sudoku forum, hardest list of 2011", Puzzle: "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"},
}

// minRuns is the fewest timed runs whose median the engine records as a
// puzzle's solve time (sudoku.Rate's floor, docs/engine.md's "the 3 runs").
const minRuns = 3

// The submit page lists this many recent and hardest puzzles.
const homeListLen = 5

// home shows the submit form, prefilled with an example for ?example=N.
func (s *Server) home(c echo.Context) error {
	form := templates.SubmitForm{CSRF: csrfToken(c)}
	if v := c.QueryParam("example"); v != "" {
		n, err := userinput.ParseWhole(`"example"`, v, 1, int64(len(examples)))
		if err != nil {
			return &userinput.InputError{Name: `"example"`, Value: v,
				Reason: fmt.Sprintf("there is no such example: the examples are numbered 1 to %d", len(examples))}
		}
		form.Input = inLines(examples[n-1].Puzzle)
		form.Cells = previewCells(form.Input)
	}
	return s.renderHome(c, http.StatusOK, form)
}

// renderHome renders the submit page around form with the recent and the
// hardest puzzles.
func (s *Server) renderHome(c echo.Context, status int, form templates.SubmitForm) error {
	ctx := c.Request().Context()
	form.Closed = s.closedFor(c)
	recent, err := s.archive.List(ctx, record.ListQuery{Sort: record.SortSubmitted, Desc: true, Limit: homeListLen})
	if err != nil {
		return fmt.Errorf("list recent puzzles: %w", err)
	}
	// "Hardest" as a person means it: the players' time, else the grade.
	hardest, err := s.archive.List(ctx, record.ListQuery{Sort: record.SortHuman, Desc: true, Limit: homeListLen})
	if err != nil {
		return fmt.Errorf("list hardest puzzles: %w", err)
	}
	variants, err := s.recentVariants(c)
	if err != nil {
		return err
	}
	return s.render(c, status, templates.HomePage(templates.HomeView{
		Variants: variants,
		Form:     form,
		Examples: examples,
		Recent:   recent.Puzzles,
		Hardest:  hardest.Puzzles,
		Now:      time.Now(),
		Daily:    dailyLinks(),
	}))
}

// submitForm solves and archives the posted puzzle, then sends the browser
// to its page (303, so a reload does not post again). A puzzle the engine
// rejects comes back as the form, status 422, with the input kept.
func (s *Server) submitForm(c echo.Context) error {
	ctx := c.Request().Context()
	input := c.FormValue("puzzle")
	p, err := puzzletext.Read(input) // every form: cells, written form, f-puzzles JSON or link
	var (
		stored record.Puzzle
		dup    bool
	)
	if err == nil {
		// submitted_by (collections.go)
		stored, dup, err = s.arch.Submit(ctx, archive.FromText(archive.RoadForm, p, submitterOf(c)))
	}
	if err != nil {
		form, ok := rejectedForm(input, err)
		if !ok {
			return err
		}
		form.CSRF = csrfToken(c)
		return s.renderHome(c, http.StatusUnprocessableEntity, form)
	}
	to := templates.PuzzleURL(stored.ID) + "?new=1"
	if dup {
		to = templates.PuzzleURL(stored.ID) + "?dup=1"
	}
	return c.Redirect(http.StatusSeeOther, to)
}

// rejectedForm turns an engine error about the input into the form to show
// again; ok is false for errors that are not the input's fault (by the one
// classification, record.KindOf).
func rejectedForm(input string, err error) (form templates.SubmitForm, ok bool) {
	if k := record.KindOf(err); k != record.KindInvalid && k != record.KindUnprocessable {
		return templates.SubmitForm{}, false
	}
	input = printable(input)
	form = templates.SubmitForm{Input: input, Error: sentence(err.Error())}
	if t := strings.TrimSpace(input); !strings.HasPrefix(t, "{") && !fpuzzles.IsLink(t) {
		form.Cells = previewCells(input) // a variant's JSON or link draws no grid of cells
	}
	var perr *sudoku.ParseError
	var cerr *sudoku.ConflictError
	switch {
	case errors.As(err, &perr):
		form.ErrorPos = perr.Pos
	case errors.As(err, &cerr):
		form.Conflicts = cerr.Cells[:]
	case errors.Is(err, sudoku.ErrNoSolution):
		form.Error = "This puzzle has no solution: no two givens clash, but the search found no way to fill the grid"
	case errors.Is(err, sudoku.ErrBudget):
		form.Error = "This puzzle is too hard for the archive: the search gave up before finishing"
	case errors.Is(err, record.ErrNoGivens):
		form.Error = "The grid is empty: give at least one digit (an empty grid has countless solutions)"
	}
	return form, true
}

// printable returns the user's input as it can be shown again in the form:
// invalid UTF-8 and control characters other than line breaks and tabs
// become U+FFFD, so a rejected NUL or escape byte is not sent back raw.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return utf8.RuneError
	}, strings.ToValidUTF8(s, string(utf8.RuneError)))
}

// inLines writes an 81-character puzzle as nine lines of nine, the way it
// reads best in the paste box.
func inLines(puzzle string) string {
	var b strings.Builder
	for r := 0; r+9 <= len(puzzle); r += 9 {
		if r > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(puzzle[r : r+9])
	}
	return b.String()
}

// previewCells reads as much of text as it can into a grid for the editor
// to show, at most 81 cells. Characters the reader ignores are skipped; any
// other character that is no cell stands for a blank, so the cells after a
// typo stay where the user put them.
func previewCells(text string) sudoku.Grid {
	var g sudoku.Grid
	n := 0
	for _, r := range text {
		if n == 81 {
			break
		}
		switch {
		case r >= '1' && r <= '9':
			g[n] = uint8(r - '0')
			n++
		case r == '0' || r == '.':
			n++
		case !ignoredInText(r):
			n++
		}
	}
	return g
}

// ignoredInText reports whether the puzzle reader skips r (white space and
// | - + =), as sudoku.Parse does.
func ignoredInText(r rune) bool {
	return strings.ContainsRune(" \t\n\r\v\f|-+=", r)
}

// sentence capitalises the first letter of an error message for the page.
func sentence(msg string) string {
	r, size := utf8.DecodeRuneInString(msg)
	if r == utf8.RuneError {
		return msg
	}
	return string(unicode.ToUpper(r)) + msg[size:]
}

// csrfToken is the token csrfCheck put in the context, or "" on routes
// without it.
func csrfToken(c echo.Context) string {
	t, _ := c.Get(csrfKey).(string)
	return t
}

// history shows one page of the archive. Every bit of its state is in the
// URL: the API's sort, order, limit, cursor, unique and band, plus around (a
// puzzle id whose neighbours in the order to show, from the puzzle page).
func (s *Server) history(c echo.Context) error {
	q, v, err := requestListQuery(c)
	if err != nil {
		return err
	}
	if v.Get("sort") == "" { // the pages' default: as a person meets it (the API's stays difficulty)
		q.Sort = record.SortHuman
	}
	view := templates.HistoryView{Sort: q.Sort, Desc: q.Desc, UniqueOnly: q.UniqueOnly, Distinct: q.Distinct, GradeMin: q.GradeMin, GradeMax: q.GradeMax, Band: q.Band, Limit: q.Limit, Cursor: q.Cursor, Played: q.Played, Techniques: q.Techniques, Variant: q.Variant}
	_, view.HasPlayer = playerOf(c)
	if a := v.Get("around"); a != "" && q.Cursor == "" {
		id, err := userinput.ParseID(`"around"`, a)
		if err != nil {
			return err
		}
		q.Around = id
		view.Highlight = id
	}
	page, err := s.archive.List(c.Request().Context(), q)
	if err != nil {
		return fmt.Errorf("list puzzles: %w", err)
	}
	view.Page = page
	view.Now = time.Now()
	return s.render(c, http.StatusOK, templates.HistoryPage(view))
}

// puzzlePage shows one puzzle, ready to play. ?new=1 and ?dup=1 come from
// the submit redirect and add a notice; they and ?solution=1 open the
// analysis (solution, replay, explanation) at once.
func (s *Server) puzzlePage(c echo.Context) error {
	p, hidden, err := s.pagePuzzle(c) // a hidden one too, for moderators (admin.go)
	if err != nil {
		return err
	}
	id := p.ID
	v := templates.PuzzleView{
		Puzzle:      p,
		Fresh:       c.QueryParam("new") == "1",
		Duplicate:   c.QueryParam("dup") == "1",
		Runs:        minRuns,
		Now:         time.Now(),
		HistoryURL:  "/puzzles?sort=human&order=desc&around=" + strconv.FormatInt(id, 10),
		Origin:      origin(c),
		SolutionURL: templates.PuzzleURL(id) + "?solution=1",
	}
	// Everyone gets the givens to play, the solution one click away ("Show
	// solution"): whoever submits a newspaper's puzzle to play it is not
	// spoiled by it (issue 34); ?solution=1 opens it at once.
	v.ShowSolution = c.QueryParam("solution") == "1"
	v.MinPlays = ratings.MinPlays // the players' figure (ratings.go)
	if v.Daily, err = s.dailyOf(c, p); err != nil {
		return err
	}
	if v.Practice, err = practiceParam(c); err != nil {
		return err
	}
	if p.Canonical != (sudoku.Grid{}) {
		if v.Equivalents, err = s.archive.Equivalents(c.Request().Context(), p); err != nil {
			return fmt.Errorf("puzzle %d: %w", id, err)
		}
	}
	s.moderationView(c, &v, hidden)
	if v.Collect, err = s.collectBox(c, p, hidden != nil); err != nil { // collect.go
		return err
	}
	return s.render(c, http.StatusOK, templates.PuzzlePage(v))
}

// dailyOf is the date of ?daily=YYYY-MM-DD (where /daily sends its
// visitors) when p is that date's recorded puzzle of the day, so the page
// can say so; "" for any other date or puzzle, which the page ignores.
func (s *Server) dailyOf(c echo.Context, p record.Puzzle) (string, error) {
	date := c.QueryParam("daily")
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		return "", nil
	}
	d, err := s.archive.Daily(c.Request().Context(), date)
	switch {
	case errors.Is(err, record.ErrNotFound):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("puzzle of the day %s: %w", date, err)
	case d.ID != p.ID:
		return "", nil
	}
	return date, nil
}

// stats shows the archive at a glance: counts, bands and histograms, all
// from the archive's maintained counters.
func (s *Server) stats(c echo.Context) error {
	st, err := s.archive.Stats(c.Request().Context())
	if err != nil {
		return fmt.Errorf("read stats: %w", err)
	}
	variants, err := s.variantCounts(c, st.Total)
	if err != nil {
		return err
	}
	return s.render(c, http.StatusOK, templates.StatsPage(templates.StatsView{Total: st.Total, Unique: st.Unique, Stats: st, Variants: variants}))
}
