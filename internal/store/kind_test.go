package store

import (
	"fmt"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestErrorKinds: the store's unavailable errors say their kind
// (record.KindOf), so the server and the command tell busy from full from
// closed by type, not by sniffing "locked" in the text.
func TestErrorKinds(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want record.Kind
	}{
		{fmt.Errorf("submit: %w: SQLITE_BUSY", ErrBusy), record.KindBusy},
		{fmt.Errorf("submit: %w", ErrFull), record.KindFull},
		{ErrClosed, record.KindUnavailable},
		{fmt.Errorf("%w: connection refused", errDown), record.KindUnavailable},
	} {
		if got := record.KindOf(tc.err); got != tc.want {
			t.Errorf("KindOf(%v) = %d, want %d", tc.err, got, tc.want)
		}
	}
}
