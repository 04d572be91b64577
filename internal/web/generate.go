package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/generate"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
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
			fmt.Sprintf("send the body as application/json (Content-Type was %s)", sudoku.Echo(ct)))
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
func (s *Server) generate(ctx context.Context, t generate.Target, symmetric bool) (sudoku.Puzzle, error) {
	var p sudoku.Puzzle
	err := s.searching(ctx, func() error {
		gctx, cancel := context.WithTimeout(ctx, GenerateBudget)
		defer cancel()
		var err error
		p, _, err = generate.Generate(gctx, generate.Request{
			Target: t, Symmetric: symmetric, Seed: rand.Uint64(), MaxNodes: s.cfg.MaxNodes,
		})
		return err
	})
	var miss *generate.MissError
	if errors.As(err, &miss) {
		return p, echo.NewHTTPError(http.StatusUnprocessableEntity,
			fmt.Sprintf("%s (the server gives a request %s; `sudoku generate` has longer)", miss.Error(), GenerateBudget))
	}
	if err != nil {
		return p, err
	}
	stored, _, err := s.archive.Submit(ctx, p)
	if err != nil {
		return p, fmt.Errorf("archive generated puzzle: %w", err)
	}
	return stored, nil
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
		CSRF: csrfToken(c), Band: string(sudoku.BandMedium), Kind: "band",
	}))
}

// generateForm is POST /generate: 303 to the new puzzle's page, ready to
// play; a bad form or a missed target comes back as the form with the
// message (422).
func (s *Server) generateForm(c echo.Context) error {
	f := &templates.GenerateForm{
		CSRF: csrfToken(c), Kind: c.FormValue("kind"), Band: c.FormValue("band"),
		Min: c.FormValue("min"), Max: c.FormValue("max"), Symmetric: c.FormValue("symmetric") != "",
	}
	t, err := formTarget(f)
	status := http.StatusUnprocessableEntity
	if errors.As(err, new(*sudoku.InputError)) {
		status = http.StatusBadRequest
	}
	if err == nil {
		var p sudoku.Puzzle
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
// is an *sudoku.InputError, checked before any search starts.
func formTarget(f *templates.GenerateForm) (generate.Target, error) {
	if f.Kind != "grade" {
		f.Kind = "band"
		t := generate.Target{Band: sudoku.Band(f.Band)}
		return t, t.Validate()
	}
	lo, err := sudoku.ParseGrade("minimum grade", f.Min)
	if err != nil {
		return generate.Target{}, err
	}
	hi, err := sudoku.ParseGrade("maximum grade", f.Max)
	if err != nil {
		return generate.Target{}, err
	}
	t := generate.Target{MinGrade: lo, MaxGrade: hi}
	return t, t.Validate()
}

// The puzzle of the day. Every date from DailyFirst on has its own
// puzzle, generated from a seed derived from the date (so the same for
// everyone, and for every server) and archived; see docs/engine.md.
var (
	// DailyFirst is the first date with a puzzle of the day.
	DailyFirst = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// dailyBands rotate with the day number. Extreme is left out: the
	// puzzle of the day is for everyone.
	dailyBands = []sudoku.Band{sudoku.BandEasy, sudoku.BandMedium, sudoku.BandHard, sudoku.BandFiendish}
)

// dailyMaxCandidates bounds a daily search by work, not time, so the
// outcome never depends on the machine; every band needs fewer than 50
// candidates on average (BenchmarkGenerate).
const dailyMaxCandidates = 20_000

// dailySeedBase keys the daily seeds: changing it changes every date's
// puzzle, so it never changes.
var dailySeedBase = func() uint64 {
	h := fnv.New64a()
	h.Write([]byte("sudoku-archive puzzle of the day"))
	return h.Sum64()
}()

// dailyDay is the day number of date since DailyFirst.
func dailyDay(date time.Time) int { return int(date.Sub(DailyFirst).Hours() / 24) }

// DailyBand is the band of date's puzzle.
func DailyBand(date time.Time) sudoku.Band {
	return dailyBands[dailyDay(date)%len(dailyBands)]
}

// DailyPuzzle makes date's puzzle: a pure function of the date and attempt
// (and sudoku.GeneratorVersion, and the engine's measures). Attempt 0 is
// the date's puzzle; a later attempt is used only when an earlier one was
// the puzzle of another day already. When the band's candidate budget runs
// out (never seen), the next easier band is tried from the same seed,
// which is deterministic too.
func DailyPuzzle(ctx context.Context, date time.Time, attempt int) (sudoku.Puzzle, error) {
	day := dailyDay(date)
	seed := generate.SeedFor(dailySeedBase+uint64(attempt)*0x9e3779b97f4a7c15, day)
	i := day % len(dailyBands)
	for {
		p, _, err := generate.Generate(ctx, generate.Request{
			Target: generate.Target{Band: dailyBands[i]}, Seed: seed, MaxCandidates: dailyMaxCandidates,
		})
		var miss *generate.MissError
		if errors.As(err, &miss) && i > 0 && ctx.Err() == nil {
			i--
			continue
		}
		return p, err
	}
}

// dailyMaxAttempts bounds the puzzles tried for one date that were the
// puzzle of another day already (one in 10^20 or so each).
const dailyMaxAttempts = 8

// dailyCache makes one date's puzzle at a time in this process, so that two
// requests for a new date do not both generate it.
type dailyCache struct {
	mu sync.Mutex
}

// today is the current date in UTC: the puzzle of the day changes at
// midnight UTC for everyone.
func today() time.Time { return time.Now().UTC().Truncate(24 * time.Hour) }

// dailyDate reads ?date=YYYY-MM-DD (today when absent): 400 before
// DailyFirst or after tomorrow (a day's grace for time zones ahead of UTC).
func dailyDate(c echo.Context) (time.Time, error) {
	v := c.QueryParam("date")
	if v == "" {
		return today(), nil
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return d, &sudoku.InputError{Name: `"date"`, Value: v, Reason: "use YYYY-MM-DD"}
	}
	if d.Before(DailyFirst) || d.After(today().AddDate(0, 0, 1)) {
		return d, badRequest("there is no puzzle of the day for %s: they run from %s to tomorrow", v, DailyFirst.Format(time.DateOnly))
	}
	return d, nil
}

// daily returns date's puzzle: the one the archive recorded for the date,
// or, the first time, a new one made from the date, archived (looked up by
// its givens first, so it counts no new submission) and recorded. The
// archive keeps the date's puzzle for good and never records one puzzle
// (however written) for two dates; several servers on one archive agree,
// the first to record a date wins.
func (s *Server) daily(ctx context.Context, date time.Time) (sudoku.Puzzle, error) {
	key := date.Format(time.DateOnly)
	s.dailies.mu.Lock()
	defer s.dailies.mu.Unlock()
	switch p, err := s.archive.Daily(ctx, key); {
	case err == nil:
		return p, nil
	case !errors.Is(err, sudoku.ErrNotFound):
		return p, fmt.Errorf("puzzle of the day %s: %w", key, err)
	}
	for attempt := range dailyMaxAttempts {
		var p sudoku.Puzzle
		err := s.searching(ctx, func() error {
			var err error
			p, err = DailyPuzzle(ctx, date, attempt)
			return err
		})
		if err != nil {
			return p, fmt.Errorf("puzzle of the day %s: %w", key, err)
		}
		stored, err := s.archive.PuzzleByGivens(ctx, p.Givens)
		if errors.Is(err, sudoku.ErrNotFound) {
			stored, _, err = s.archive.Submit(ctx, p)
		}
		if err != nil {
			return p, fmt.Errorf("archive puzzle of the day %s: %w", key, err)
		}
		day, err := s.archive.SetDaily(ctx, key, stored)
		if errors.Is(err, sudoku.ErrDailyRepeat) {
			continue
		}
		return day, err
	}
	return sudoku.Puzzle{}, fmt.Errorf("puzzle of the day %s: %d puzzles in a row were other days' puzzles", key, dailyMaxAttempts)
}

// requestedDaily returns the date a request asks for (?date, today
// without) and that date's puzzle.
func (s *Server) requestedDaily(c echo.Context) (time.Time, sudoku.Puzzle, error) {
	d, err := dailyDate(c)
	if err != nil {
		return d, sudoku.Puzzle{}, err
	}
	p, err := s.daily(c.Request().Context(), d)
	return d, p, err
}

// dailyPage is GET /daily: 303 to the page of the date's puzzle (today's
// without ?date).
func (s *Server) dailyPage(c echo.Context) error {
	d, p, err := s.requestedDaily(c)
	if err != nil {
		return err
	}
	return c.Redirect(http.StatusSeeOther, templates.PuzzleURL(p.ID)+"?daily="+d.Format(time.DateOnly))
}

// apiDaily is GET /api/daily?date=YYYY-MM-DD: 200 with the puzzle object.
func (s *Server) apiDaily(c echo.Context) error {
	_, p, err := s.requestedDaily(c)
	if err != nil {
		return err
	}
	c.Response().Header().Set(echo.HeaderLocation, templates.PuzzleURL(p.ID))
	return c.JSON(http.StatusOK, p)
}

// dailyLinks is what the home page shows of the puzzle of the day: today's
// and yesterday's, by date and band (known without making them).
func dailyLinks() templates.DailyLinks {
	t := today()
	y := t.AddDate(0, 0, -1)
	return templates.DailyLinks{
		Today: t.Format(time.DateOnly), TodayBand: DailyBand(t),
		Yesterday: y.Format(time.DateOnly), YesterdayBand: DailyBand(y),
		HasYesterday: !y.Before(DailyFirst),
	}
}
