package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/daily"
	"github.com/sudoku-archive/sudoku/internal/generate"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/templates"
)

// GenerateBudget is how long a request may look for a new puzzle before it
// is answered 422: every band takes well under a second of one core on
// average (BenchmarkGenerate), a narrow grade range may take longer
// (`sudoku generate` has a minute).
const GenerateBudget = 3 * time.Second

// generateRequest is the body of POST /api/generate.
type generateRequest struct {
	Band      *string   `json:"band"`
	Grade     []float64 `json:"grade"`
	Symmetric bool      `json:"symmetric"`
}

const msgGenerateShape = `the body must be a JSON object with "band" (easy, medium, hard, fiendish or extreme) or "grade" ([min, max]), and optionally "symmetric": true`

// readGenerateRequest reads and checks the body of POST /api/generate.
func readGenerateRequest(c echo.Context) (generate.Target, bool, error) {
	req := c.Request()
	ct := req.Header.Get(echo.HeaderContentType)
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != echo.MIMEApplicationJSON {
		return generate.Target{}, false, echo.NewHTTPError(http.StatusUnsupportedMediaType,
			fmt.Sprintf("send the body as application/json (Content-Type was %s)", userinput.Echo(ct)))
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return generate.Target{}, false, tooLarge(tooBig.Limit)
		}
		return generate.Target{}, false, badRequest("could not read the request body: %v", err)
	}
	var r generateRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return generate.Target{}, false, badRequest("%s (%v)", msgGenerateShape, err)
	}
	if dec.More() {
		return generate.Target{}, false, badRequest("unexpected data after the JSON object")
	}
	var t generate.Target
	switch {
	case r.Band != nil && r.Grade != nil:
		return t, false, badRequest(`give "band" or "grade", not both`)
	case r.Band != nil:
		t.Band = sudoku.Band(*r.Band)
	case r.Grade != nil:
		if len(r.Grade) != 2 {
			return t, false, badRequest(`"grade" must be [min, max], e.g. [7.0, 8.5]`)
		}
		t.MinGrade, t.MaxGrade = r.Grade[0], r.Grade[1]
	default:
		return t, false, badRequest(msgGenerateShape)
	}
	if err := t.Validate(); err != nil {
		return t, false, badRequest("%v", err)
	}
	return t, r.Symmetric, nil
}

// generate makes a new puzzle in target within GenerateBudget, in a turn of
// the search gate, and archives it. A target not met in time is a 422 that
// says so.
func (s *Server) generate(ctx context.Context, t generate.Target, symmetric bool) (record.Puzzle, error) {
	p, err := s.arch.Generate(ctx, generate.Request{Target: t, Symmetric: symmetric, Seed: rand.Uint64()}, GenerateBudget)
	var miss *generate.MissError
	if errors.As(err, &miss) {
		return p, echo.NewHTTPError(http.StatusUnprocessableEntity,
			fmt.Sprintf("%s (the server gives a request %s; `sudoku generate` has longer)", miss.Error(), GenerateBudget))
	}
	return p, err
}

// apiGenerate is POST /api/generate: 201 with the new archived puzzle.
func (s *Server) apiGenerate(c echo.Context) error {
	t, sym, err := readGenerateRequest(c)
	if err != nil {
		return err
	}
	p, err := s.generate(c.Request().Context(), t, sym)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, templates.PuzzleURL(p.ID))
	return c.JSON(http.StatusCreated, p)
}

// generatePage is GET /generate: the "New puzzle" form.
func (s *Server) generatePage(c echo.Context) error {
	return s.render(c, http.StatusOK, templates.GeneratePage(templates.GenerateForm{
		CSRF: csrfToken(c), Closed: s.closedFor(c), Band: string(sudoku.BandMedium), Kind: "band",
	}))
}

// generateForm is POST /generate: 303 to the new puzzle's page, ready to
// play; a bad form or a missed target comes back as the form with the
// message: 400 for a grade that is no number on the scale (refused before
// any search), 422 otherwise.
func (s *Server) generateForm(c echo.Context) error {
	f := &templates.GenerateForm{
		CSRF: csrfToken(c), Kind: c.FormValue("kind"), Band: c.FormValue("band"),
		Min: c.FormValue("min"), Max: c.FormValue("max"), Symmetric: c.FormValue("symmetric") != "",
	}
	t, err := formTarget(f)
	status := http.StatusUnprocessableEntity
	if errors.As(err, new(*userinput.InputError)) {
		status = http.StatusBadRequest
	}
	if err == nil {
		var p record.Puzzle
		p, err = s.generate(c.Request().Context(), t, f.Symmetric)
		var he *echo.HTTPError
		switch {
		case err == nil:
			return c.Redirect(http.StatusSeeOther, templates.PuzzleURL(p.ID))
		case !errors.As(err, &he) || he.Code != http.StatusUnprocessableEntity:
			return err
		}
		err = errors.New(fmt.Sprint(he.Message))
	}
	f.Error = sentence(err.Error())
	return s.render(c, status, templates.GeneratePage(*f))
}

// formTarget reads the target of the generate form; f.Kind is "band"
// afterwards unless it was "grade". A grade that is no number on the scale
// is an *userinput.InputError, checked before any search starts.
func formTarget(f *templates.GenerateForm) (generate.Target, error) {
	if f.Kind != "grade" {
		f.Kind = "band"
		t := generate.Target{Band: sudoku.Band(f.Band)}
		return t, t.Validate()
	}
	lo, err := userinput.ParseGrade("minimum grade", f.Min)
	if err != nil {
		return generate.Target{}, err
	}
	hi, err := userinput.ParseGrade("maximum grade", f.Max)
	if err != nil {
		return generate.Target{}, err
	}
	t := generate.Target{MinGrade: lo, MaxGrade: hi}
	return t, t.Validate()
}

// The puzzle of the day: package daily holds the policy (which puzzle for
// which date, chosen ahead by the server's keeper, Serve); the handlers
// only read what the archive recorded. A GET never generates and never
// writes; the first request for a date not chosen yet wakes the keeper
// (which then chooses the window's few dates, each once for good) and
// waits a little for it, so reading a date never waits on choosing another
// and no other site can make a visitor's browser archive more than those.

// requestedDaily returns the date a request asks for (?date, today
// without) and that date's puzzle as recorded: a date of the keeper's
// window not chosen yet waits for the keeper (up to dailyWait, then 503
// with Retry-After), an earlier date no keeper chose is 404, and a date
// whose day has not begun in UTC is 404 saying when it opens (moderators
// get a preview instead: previewDaily).
func (s *Server) requestedDaily(c echo.Context) (time.Time, record.Puzzle, error) {
	now := time.Now()
	d, err := daily.ParseDate(`"date"`, c.QueryParam("date"), now)
	if err != nil {
		return d, record.Puzzle{}, err
	}
	p, err := s.arch.Daily(c.Request().Context(), d, now) // waits for the keeper's choice
	return d, p, err
}

// previewDaily is what a moderator or admin gets for a date whose day has
// not begun: the puzzle the keeper will choose for it (Keeper.Preview, made
// in a turn of the search gate), not archived, so that it stays in no
// list until its day. ok is false for anyone else, or for another error.
func (s *Server) previewDaily(c echo.Context, d time.Time, err error) (p record.Puzzle, ok bool, _ error) {
	var notYet *daily.NotYetError
	if !errors.As(err, &notYet) || !isModerator(c) {
		return p, false, nil
	}
	p, gerr := s.arch.DailyPreview(c.Request().Context(), d)
	return p, gerr == nil, gerr
}

// dailyPage is GET /daily: 303 to the page of the date's puzzle (today's
// without ?date).
func (s *Server) dailyPage(c echo.Context) error {
	d, p, err := s.requestedDaily(c)
	if pre, ok, perr := s.previewDaily(c, d, err); perr != nil {
		return perr
	} else if ok { // a moderator's preview: the share link, nothing archived
		return c.Redirect(http.StatusSeeOther, templates.ShareURL("", pre.Givens))
	}
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, templates.PuzzleURL(p.ID)+"?daily="+daily.Key(d))
}

// apiDaily is GET /api/daily?date=YYYY-MM-DD: 200 with the puzzle object.
func (s *Server) apiDaily(c echo.Context) error {
	d, p, err := s.requestedDaily(c)
	if pre, ok, perr := s.previewDaily(c, d, err); perr != nil {
		return perr
	} else if ok { // a moderator's preview: id 0, nothing archived
		return c.JSON(http.StatusOK, dailyPreview{Puzzle: pre})
	}
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, templates.PuzzleURL(p.ID))
	return c.JSON(http.StatusOK, p)
}

// dailyLinks is what the home page shows of the puzzle of the day: today's
// and yesterday's, by date and band (known without making them).
func dailyLinks() templates.DailyLinks {
	t := daily.Today(time.Now())
	y := t.AddDate(0, 0, -1)
	return templates.DailyLinks{
		Today: daily.Key(t), TodayBand: daily.Band(t),
		Yesterday: daily.Key(y), YesterdayBand: daily.Band(y),
		HasYesterday: !y.Before(daily.First),
	}
}
