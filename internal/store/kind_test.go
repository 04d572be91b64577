package store

import (
	"fmt"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestErrorKinds: the store's unavailable errors say their kind
// (sudoku.KindOf), so the server and the command tell busy from full from
// closed by type, not by sniffing "locked" in the text.
func TestErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want sudoku.Kind
	}{
		{fmt.Errorf("submit: %w: SQLITE_BUSY", ErrBusy), sudoku.KindBusy},
		{fmt.Errorf("submit: %w", ErrFull), sudoku.KindFull},
		{ErrClosed, sudoku.KindUnavailable},
		{fmt.Errorf("%w: connection refused", errDown), sudoku.KindUnavailable},
	} {
		if got := sudoku.KindOf(tc.err); got != tc.want {
			t.Errorf("KindOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
