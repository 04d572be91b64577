package web

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// attemptJSON is the attempt object of the API.
type attemptJSON struct {
	ID         int64      `json:"id"`
	PuzzleID   int64      `json:"puzzle_id"`
	StartedAt  time.Time  `json:"started_at"`
	FinishedAt *time.Time `json:"finished_at"`
	Outcome    string     `json:"outcome"`
	Seconds    int64      `json:"seconds"`
	Hints      int64      `json:"hints"`
	Checks     int64      `json:"checks"`
	Mistakes   int64      `json:"mistakes"`
	First      bool       `json:"first"`
	Techniques []string   `json:"techniques"`
	// RatingBefore and RatingAfter: the player's rating (ratings.Rating of
	// the model's skill) before and after the finish, in the answer to a
	// finish the model counted only.
	RatingBefore *int `json:"rating_before,omitempty"`
	RatingAfter  *int `json:"rating_after,omitempty"`
}

func attemptOf(a account.Attempt) attemptJSON {
	j := attemptJSON{
		ID: a.ID, PuzzleID: a.PuzzleID, StartedAt: a.StartedAt, Outcome: string(a.Outcome),
		Seconds: a.Seconds, Hints: a.Hints, Checks: a.Checks, Mistakes: a.Mistakes, First: a.First,
		Techniques: a.Techniques,
	}
	if !a.FinishedAt.IsZero() {
		j.FinishedAt = &a.FinishedAt
	}
	if j.Techniques == nil {
		j.Techniques = []string{}
	}
	if a.Counted && a.SkillAfter > 0 {
		before, after := ratings.Rating(a.SkillBefore), ratings.Rating(a.SkillAfter)
		j.RatingBefore, j.RatingAfter = &before, &after
	}
	return j
}

// startRequest is the body of POST /api/attempts.
type startRequest struct {
	PuzzleID *int64 `json:"puzzle_id"`
}

func (startRequest) shape() string {
	return `the body must be a JSON object {"puzzle_id": N}, the id of an archived puzzle`
}

// apiStartAttempt opens an attempt at a puzzle (201), or returns the
// player's attempt at it still open (200): a reload or a second tab
// continues it.
func (s *Server) apiStartAttempt(c echo.Context) error {
	var req startRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	if req.PuzzleID == nil || *req.PuzzleID <= 0 {
		return badRequest(`send {"puzzle_id": N}, the id of an archived puzzle`)
	}
	p, _ := playerOf(c)
	a, created, err := s.players.StartAttempt(c.Request().Context(), p.ID, *req.PuzzleID)
	if errors.Is(err, record.ErrNotFound) {
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("puzzle %d not found", *req.PuzzleID))
	}
	if err != nil {
		return err
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return c.JSON(status, attemptOf(a))
}

// finishRequest is the body of POST /api/attempts/{id}. Counts are numbers
// so that a fraction or a huge value is refused with a message of ours,
// not the decoder's.
type finishRequest struct {
	Outcome       string   `json:"outcome"`
	Grid          string   `json:"grid"`
	ActiveSeconds *float64 `json:"active_seconds"`
	Hints         *float64 `json:"hints"`
	Checks        *float64 `json:"checks"`
	Mistakes      *float64 `json:"mistakes"`
	Techniques    []string `json:"techniques"`
	// Practice: played in a practice mode whose hints name the technique;
	// recorded, not counted by the players' model (docs/ratings.md).
	Practice bool `json:"practice"`
}

func (*finishRequest) shape() string {
	return `the body must be a JSON object with "outcome" ("solved" or "gave_up"), "grid" (the 81 digits, when solved), ` +
		`"active_seconds", "hints", "checks", "mistakes" (numbers), "techniques" (strings) and "practice" (true or false)`
}

// finish turns the request into an account.Finish, refusing what is out of
// range (422) with the field's name.
func (r finishRequest) finish() (account.Finish, error) {
	f := account.Finish{Outcome: account.Outcome(r.Outcome), Grid: r.Grid, Techniques: r.Techniques, Practice: r.Practice}
	fields := []struct {
		name string
		v    *float64
		max  int64
		dst  *int64
	}{
		{"active_seconds", r.ActiveSeconds, account.MaxSeconds, &f.ActiveSeconds},
		{"hints", r.Hints, account.MaxCount, &f.Hints},
		{"checks", r.Checks, account.MaxCount, &f.Checks},
		{"mistakes", r.Mistakes, account.MaxCount, &f.Mistakes},
	}
	for _, fd := range fields {
		if fd.v == nil {
			continue
		}
		v := *fd.v
		if math.IsNaN(v) || v < 0 || v > float64(fd.max) {
			return f, unprocessable("%q must be between 0 and %d, not %v", fd.name, fd.max, v)
		}
		if fd.name != "active_seconds" && v != math.Trunc(v) {
			return f, unprocessable("%q must be a whole number, not %v", fd.name, v)
		}
		*fd.dst = int64(math.Round(v))
	}
	return f, nil
}

func unprocessable(format string, a ...any) error {
	return echo.NewHTTPError(http.StatusUnprocessableEntity, fmt.Sprintf(format, a...))
}

// apiFinishAttempt records the end of one of the player's attempts.
func (s *Server) apiFinishAttempt(c echo.Context) error {
	id, err := userinput.ParseID("id", c.Param("id"))
	if err != nil {
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("attempt %s not found: ids are written in plain digits, from 1", userinput.Echo(c.Param("id"))))
	}
	var req finishRequest
	if err := readJSON(c, &req); err != nil {
		return err
	}
	f, err := req.finish()
	if err != nil {
		return err
	}
	p, _ := playerOf(c)
	a, err := s.players.FinishAttempt(c.Request().Context(), p.ID, id, f)
	switch {
	case errors.Is(err, record.ErrNotFound):
		return echo.NewHTTPError(http.StatusNotFound, fmt.Sprintf("attempt %d not found among this player's attempts, or its puzzle is hidden", id))
	case errors.Is(err, account.ErrFinished):
		return echo.NewHTTPError(http.StatusConflict, fmt.Sprintf("attempt %d is finished already: start a new one with POST /api/attempts", id))
	case errors.Is(err, account.ErrWrongGrid), errors.Is(err, account.ErrBadFinish):
		return echo.NewHTTPError(http.StatusUnprocessableEntity, err.Error()).SetInternal(err)
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, attemptOf(a))
}
