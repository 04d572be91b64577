package web

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

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
	msgUnavailable = "the archive cannot store puzzles right now (storage full); try again later"
	msgBadCursor   = `invalid "cursor": use a next_cursor or prev_cursor returned for the same sort, order and filter, or leave it out for the first page`
)

// handledKey marks a context whose error has been answered already: the
// request logger hands the error to handleError and then returns it, so
// echo offers the same error a second time.
const handledKey = "web.errorHandled"

// handleError is the server's one echo.HTTPErrorHandler: it maps domain
// errors to statuses and answers in JSON under /api and on /healthz, with an
// error page elsewhere. 5xx errors are logged; their details never reach the
// client.
func (s *Server) handleError(err error, c echo.Context) {
	if c.Response().Committed {
		if handled, _ := c.Get(handledKey).(bool); !handled {
			s.log.Error("error after the response started", slog.String("path", c.Request().URL.Path), slog.Any("err", err))
		}
		return
	}
	c.Set(handledKey, true)

	status, body := s.classify(err)
	req := c.Request()
	if status >= 500 {
		// A 503 is the server protecting itself (timeout, full disk); a 500
		// is a bug.
		level := slog.LevelError
		if status == http.StatusServiceUnavailable {
			level = slog.LevelWarn
		}
		s.log.LogAttrs(req.Context(), level, "request failed",
			slog.String("method", req.Method), slog.String("path", req.URL.Path),
			slog.Int("status", status), slog.Any("err", err))
	}

	var werr error
	switch {
	case req.Method == http.MethodHead:
		werr = c.NoContent(status)
	case isAPIPath(req.URL.Path):
		werr = c.JSON(status, body)
	default:
		werr = s.errorPage(c, status, body.Error)
	}
	if werr != nil {
		s.log.Error("write error response", slog.String("path", req.URL.Path), slog.Any("err", werr))
	}
}

// classify returns the status and body that answer err.
func (s *Server) classify(err error) (int, errorBody) {
	var (
		he       *echo.HTTPError
		parseErr *sudoku.ParseError
		conflict *sudoku.ConflictError
	)
	switch {
	case errors.As(err, &he):
		return httpErrorStatus(he)
	case errors.As(err, &parseErr):
		return http.StatusBadRequest, errorBody{Error: parseErr.Error(), Position: parseErr.Pos}
	case errors.As(err, &conflict):
		return http.StatusUnprocessableEntity, errorBody{Error: conflict.Error(), Cells: conflict.Cells[:]}
	case errors.Is(err, sudoku.ErrNoSolution), errors.Is(err, sudoku.ErrBudget), errors.Is(err, sudoku.ErrNoGivens):
		return http.StatusUnprocessableEntity, errorBody{Error: err.Error()}
	case errors.Is(err, sudoku.ErrNotFound):
		return http.StatusNotFound, errorBody{Error: "puzzle not found"}
	case errors.Is(err, sudoku.ErrInvalidCursor):
		return http.StatusBadRequest, errorBody{Error: msgBadCursor}
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled), errors.Is(err, sudoku.ErrCanceled):
		return http.StatusServiceUnavailable, errorBody{Error: msgTimeout}
	case s.cfg.Unavailable != nil && s.cfg.Unavailable(err):
		return http.StatusServiceUnavailable, errorBody{Error: msgUnavailable}
	default:
		return http.StatusInternalServerError, errorBody{Error: msgInternal}
	}
}

// httpErrorStatus answers an *echo.HTTPError: its own status, and its
// message unless that is only the status text (echo's 404, 405, 413 …),
// which gets a clearer one. 5xx messages are replaced by safe ones.
func httpErrorStatus(he *echo.HTTPError) (int, errorBody) {
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
			msg = fmt.Sprintf("request body too large: the limit is %d KiB", BodyLimit/1024)
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
	return code, errorBody{Error: msg}
}
