package record

import (
	"context"
	"errors"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/internal/variant/fpuzzles"
)

// Kind is what an error means to whoever asked, whatever its origin: the
// engine, the archive, the server. KindOf is the one classification; the
// web maps each kind to an HTTP status in one table (web/errors.go), the
// command to an exit status in one place (cmd/sudoku exitCode).
type Kind int

// The kinds of error.
const (
	KindInternal      Kind = iota // a bug: 500, exit 1
	KindInvalid                   // the input cannot be read: 400, exit 2
	KindUnprocessable             // it can be read but not accepted: 422
	KindNotFound                  // 404
	KindTimeout                   // the request ran out of time: 503
	KindOverloaded                // no turn at expensive work in time: 503
	KindBusy                      // the archive is locked by another program: 503
	KindFull                      // the archive's storage is full: 503
	KindUnavailable               // the archive (or a part of it) cannot answer now, try later: 503
	KindConflict                  // it clashes with what the archive holds (flagged already, hidden): 409, exit 1
	KindForbidden                 // the asker may not do this: 403
)

// Classified is an error that knows its kind: the archive's unavailable
// errors (store.ErrBusy, ErrFull, ErrClosed), the puzzle of the day's, the
// server's. KindOf finds it anywhere in a wrapped chain.
type Classified interface {
	error
	Kind() Kind
}

// Retryable is an error that says when to try again.
type Retryable interface {
	error
	RetryAfter() time.Duration
}

// ForUsers is an error whose own text is meant for users, however deep it
// is wrapped: the answer shows that text, not the wrapping's.
type ForUsers interface {
	error
	ForUsers() bool
}

// KindOf classifies err: the engine's and the input reader's errors by
// their types and sentinels, everything else by the Classified error it
// wraps, else by the context's errors; KindInternal when nothing matches.
func KindOf(err error) Kind {
	var (
		c  Classified
		fe *fpuzzles.Error
	)
	switch {
	case err == nil:
		return KindInternal
	case errors.As(err, new(*variant.RuleError)):
		return KindUnprocessable // a rule that cannot stand (issue 47)
	case errors.As(err, &fe):
		// A rule the archive has no rule for can be read but not
		// accepted; malformed f-puzzles JSON or a bad link cannot be read.
		if fe.Unsupported {
			return KindUnprocessable
		}
		return KindInvalid
	case errors.As(err, new(*sudoku.ParseError)), errors.As(err, new(*userinput.InputError)), errors.As(err, new(*sudoku.CellError)),
		errors.As(err, new(*sudoku.LinkError)), errors.Is(err, ErrInvalidCursor):
		return KindInvalid
	case errors.As(err, new(*sudoku.ConflictError)), errors.Is(err, sudoku.ErrNoSolution), errors.Is(err, sudoku.ErrBudget), errors.Is(err, ErrNoGivens):
		return KindUnprocessable
	case errors.Is(err, ErrNotFound):
		return KindNotFound
	case errors.As(err, &c):
		return c.Kind()
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled), errors.Is(err, sudoku.ErrCanceled):
		return KindTimeout
	}
	return KindInternal
}
