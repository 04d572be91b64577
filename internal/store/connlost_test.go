package store

import (
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestExplainLostConnection: a write whose connection PostgreSQL dropped
// under it (no SQLSTATE, unsafe to retry) is the database down, 503 with
// Retry-After; on SQLite the same errors stay what they are, and a
// PostgreSQL error with a code keeps its meaning.
func TestExplainLostConnection(t *testing.T) {
	pg, lite := &DB{d: dialect{postgres: true}}, &DB{}
	lost := []error{
		fmt.Errorf("insert: %w", io.ErrUnexpectedEOF),
		fmt.Errorf("commit: %w", pgconn.ErrConnClosed),
		fmt.Errorf("submit: %w", &net.OpError{Op: "read", Net: "unix", Err: syscall.ECONNRESET}),
		fmt.Errorf("write: %w", syscall.EPIPE),
	}
	for _, err := range lost {
		got := pg.ExplainError(err)
		var r record.Retryable
		if record.KindOf(got) != record.KindUnavailable || !errors.As(got, &r) || r.RetryAfter() <= 0 {
			t.Errorf("PostgreSQL, %v: %v (kind %v), want unavailable with a Retry-After", err, got, record.KindOf(got))
		}
		if !errors.Is(got, errors.Unwrap(err)) {
			t.Errorf("%v: the original error is lost: %v", err, got)
		}
		if k := record.KindOf(lite.ExplainError(err)); k != record.KindInternal {
			t.Errorf("SQLite, %v: kind %v, want internal", err, k)
		}
	}
	unique := fmt.Errorf("insert: %w", &pgconn.PgError{Code: "23505"})
	if k := record.KindOf(pg.ExplainError(unique)); k != record.KindInternal {
		t.Errorf("a unique violation: kind %v, want internal", k)
	}
}
