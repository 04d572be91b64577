package record

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

type busyErr struct{}

func (busyErr) Error() string             { return "whatever the text" }
func (busyErr) Kind() Kind                { return KindBusy }
func (busyErr) RetryAfter() time.Duration { return time.Second }

// TestKindOf: the one classification, through wrapping, by types and
// sentinels, never by the text.
func TestKindOf(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want Kind
	}{
		{fmt.Errorf("read: %w", &sudoku.ParseError{Got: 3}), KindInvalid},
		{&userinput.InputError{Name: "x", Value: "NaN", Reason: "no"}, KindInvalid},
		{fmt.Errorf("list: %w", ErrInvalidCursor), KindInvalid},
		{fmt.Errorf("parse: %w", &sudoku.LinkError{Pos: 1}), KindInvalid},
		{fmt.Errorf("rate: %w", &sudoku.ConflictError{}), KindUnprocessable},
		{sudoku.ErrNoSolution, KindUnprocessable},
		{fmt.Errorf("x: %w", sudoku.ErrBudget), KindUnprocessable},
		{ErrNoGivens, KindUnprocessable},
		{fmt.Errorf("load: %w", ErrNotFound), KindNotFound},
		{fmt.Errorf("commit: %w", busyErr{}), KindBusy},
		{fmt.Errorf("commit: %w", context.DeadlineExceeded), KindTimeout},
		{sudoku.ErrCanceled, KindTimeout},
		{errors.New("database is locked"), KindInternal}, // text is not a kind
		{nil, KindInternal},
	} {
		if got := KindOf(tc.err); got != tc.want {
			t.Errorf("KindOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
