package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/archive"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// errorBody is the JSON body of every API error: a message a person can act
// on, plus where the engine located the problem, for programs.
type errorBody struct {
	Error string `json:"error"`
	// Position is the 1-based character of the puzzle text that is no cell.
	Position int `json:"position,omitempty"`
	// Cells are the two cells (0-80, row by row) of conflicting givens.
	Cells []int `json:"cells,omitempty"`
}

// Messages for errors whose own text is not meant for users.
const (
	msgInternal    = "internal error: the request could not be completed; it has been logged"
	msgTimeout     = "the request took too long and was stopped; try again"
	msgFull        = "the archive cannot store puzzles right now (storage full); try again later"
	msgUnavailable = "the archive cannot answer right now; try again in a moment"
	msgBusy        = "the archive is busy: another program is writing to it; try again in a moment"
	msgOverloaded  = "the server is busy with other requests; try again in a moment"
	msgBadCursor   = `invalid "cursor": use a next_cursor or prev_cursor returned for the same sort, order and filter, or leave it out for the first page`
	msgNoPuzzle    = "puzzle not found"
	pageNoPuzzle   = "There is no puzzle with that number in the archive."
)

// kinds is the one table from the kind of an error (record.KindOf, the one
// classification) to its answer: the status, the message for kinds whose
// errors do not carry one fit for users, and the Retry-After of the 503s
// whose error does not say.
var kinds = map[record.Kind]struct {
	status int
	msg    string        // "" means the error's own text
	retry  time.Duration // 0: no Retry-After unless the error says
}{
	record.KindInternal:      {http.StatusInternalServerError, msgInternal, 0},
	record.KindInvalid:       {http.StatusBadRequest, "", 0},
	record.KindUnprocessable: {http.StatusUnprocessableEntity, "", 0},
	record.KindNotFound:      {http.StatusNotFound, msgNoPuzzle, 0},
	record.KindTimeout:       {http.StatusServiceUnavailable, msgTimeout, 2 * time.Second}, // every 503 says when to come back
	record.KindOverloaded:    {http.StatusServiceUnavailable, msgOverloaded, time.Second},
	record.KindBusy:          {http.StatusServiceUnavailable, msgBusy, 0},
	record.KindFull:          {http.StatusServiceUnavailable, msgFull, 0},
	record.KindUnavailable:   {http.StatusServiceUnavailable, msgUnavailable, 0},
	record.KindConflict:      {http.StatusConflict, "", 0},
	record.KindForbidden:     {http.StatusForbidden, "", 0},
}

// errOverloaded is returned when a request waited too long for a turn at
// expensive work (a search, an export).
var errOverloaded = archive.ErrOverloaded

// answer is how an error is answered.
type answer struct {
	status     int
	body       errorBody
	page       string        // the error page's message; "" means one for the status
	retryAfter time.Duration // 0: no Retry-After header
}

// handledKey marks a context whose error has been answered already: the
// request logger hands the error to handleError and then returns it, so
// echo offers the same error a second time.
const handledKey = "web.errorHandled"

// ErrorExplainer says what the archive's database errors mean
// (store.DB.ExplainError): an outage, a full disk, a lock held elsewhere.
type ErrorExplainer interface {
	// ExplainError returns err with its meaning, or err as it is.
	ExplainError(error) error
}

// handleError is the server's one echo.HTTPErrorHandler: it maps errors to
// statuses (classify) and answers in JSON under /api and on /healthz, with
// an error page elsewhere. Bugs (500) are logged as errors, the server
// protecting itself (503) as warnings; their details never reach the client.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		if handled, _ := c.Get(handledKey).(bool); !handled {
			s.log.Error("error after the response started", slog.String("path", c.Request().URL.Path), slog.Any("err", err))
		}
		return
	}
	c.Set(handledKey, true)

	// A read that met the database down (PostgreSQL restarting) is an
	// outage, 503 with Retry-After, not a bug: the archive says which
	// of its errors are.
	if ex := s.parts.Errors; ex != nil && record.KindOf(err) == record.KindInternal {
		err = ex.ExplainError(err)
	}
	a := classify(err)
	req := c.Request()
	if record.KindOf(err) == record.KindFull {
		s.writes.refused(err)
	}
	if a.status >= 500 {
		level := slog.LevelError
		if a.status == http.StatusServiceUnavailable {
			level = slog.LevelWarn
		}
		s.log.LogAttrs(req.Context(), level, "request failed",
			slog.String("id", idOf(c)), slog.String("method", req.Method), slog.String("path", req.URL.Path),
			slog.Int("status", a.status), slog.String("remote_ip", c.RealIP()), slog.Any("err", err))
	}
	if a.retryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int((a.retryAfter+time.Second-1)/time.Second)))
	}

	var werr error
	switch {
	case req.Method == http.MethodHead:
		werr = c.NoContent(a.status)
	case isAPIPath(req.URL.Path):
		werr = c.JSON(a.status, a.body)
	default:
		werr = s.errorPage(c, a.status, a.page)
	}
	if werr != nil {
		s.log.Error("write error response", slog.String("path", req.URL.Path), slog.Any("err", werr))
	}
}

// classify returns the answer to err: an *echo.HTTPError's own status,
// else its kind's row of the kinds table, with what the error itself says
// for users (where in the puzzle, which cells, when to retry).
func classify(err error) answer {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		return httpErrorAnswer(he)
	}
	k := record.KindOf(err)
	row := kinds[k]
	a := answer{status: row.status, body: errorBody{Error: row.msg}, retryAfter: row.retry}
	if a.body.Error == "" {
		a.body.Error = err.Error()
	}
	var (
		parseErr *sudoku.ParseError
		conflict *sudoku.ConflictError
		own      record.ForUsers
		r        record.Retryable
	)
	if errors.As(err, &own) && own.ForUsers() {
		a.body.Error = own.Error()
	}
	if k != record.KindInternal && errors.As(err, &r) {
		a.retryAfter = r.RetryAfter()
	}
	switch {
	case errors.As(err, &parseErr):
		a.body.Error, a.body.Position = parseErr.Error(), parseErr.Pos
	case errors.As(err, &conflict):
		a.body.Error, a.body.Cells = conflict.Error(), conflict.Cells[:]
	case errors.Is(err, record.ErrInvalidCursor):
		a.body.Error = msgBadCursor
	case k == record.KindNotFound && a.body.Error == msgNoPuzzle:
		a.page = pageNoPuzzle
	}
	if a.page == "" && k != record.KindInternal {
		a.page = a.body.Error
	}
	return a
}

// httpErrorAnswer answers an *echo.HTTPError: its own status, and its
// message unless that is only the status text (echo's 404, 405, 413 …),
// which gets a clearer one. 5xx messages are replaced by safe ones.
func httpErrorAnswer(he *echo.HTTPError) answer {
	code := he.Code
	msg, _ := he.Message.(string)
	if msg == "" {
		msg = fmt.Sprint(he.Message)
	}
	if msg == http.StatusText(code) || code >= 500 {
		switch code {
		case http.StatusNotFound:
			msg = "not found"
		case http.StatusRequestEntityTooLarge:
			msg = tooLargeMessage(BodyLimit)
		case http.StatusServiceUnavailable:
			if msg == http.StatusText(code) {
				msg = msgTimeout
			}
		default:
			if code >= 500 {
				msg = msgInternal
			} else {
				msg = strings.ToLower(msg)
			}
		}
	}
	page := msg
	if msg == "not found" || strings.EqualFold(msg, http.StatusText(code)) {
		page = "" // the page's own words for the status
	}
	return answer{status: code, body: errorBody{Error: msg}, page: page}
}

// tooLargeMessage says what the body limit is, exactly.
func tooLargeMessage(limit int64) string {
	if limit%1024 == 0 {
		return fmt.Sprintf("request body too large: the limit is %d KiB (%d bytes)", limit/1024, limit)
	}
	return fmt.Sprintf("request body too large: the limit is %d bytes", limit)
}
