package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

func TestDialectSQL(t *testing.T) {
	tests := []struct{ in, sqlite, postgres string }{
		{"SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = ? AND c = ?", "SELECT a FROM t WHERE b = $1 AND c = $2"},
		{"WHERE id = ?1 UNION ALL SELECT x WHERE same_as = ?1 LIMIT ?2", "WHERE id = ?1 UNION ALL SELECT x WHERE same_as = ?1 LIMIT ?2", "WHERE id = $1 UNION ALL SELECT x WHERE same_as = $1 LIMIT $2"},
		{"(a, b) > (?12, ?3)", "(a, b) > (?12, ?3)", "(a, b) > ($12, $3)"},
		{"no parameters", "no parameters", "no parameters"},
	}
	for _, tc := range tests {
		if got := sqliteDialect.sql(tc.in); got != tc.sqlite {
			t.Errorf("sqlite %q = %q, want %q", tc.in, got, tc.sqlite)
		}
		if got := postgresDialect.sql(tc.in); got != tc.postgres {
			t.Errorf("postgres %q = %q, want %q", tc.in, got, tc.postgres)
		}
	}
}

// TestDescribePostgres checks that PostgreSQL's errors a server answers
// 503 map to the same errors as SQLite's.
func TestDescribePostgres(t *testing.T) {
	tests := []struct {
		code string
		want error
	}{
		{"53100", ErrFull}, // disk_full
		{"55P03", ErrBusy}, // lock_not_available: lock_timeout
		{"40P01", ErrBusy}, // deadlock_detected, after the retries
		{"40001", ErrBusy}, // serialization_failure, likewise
		{"57P01", errDown}, // admin_shutdown
		{"08006", errDown}, // connection_failure
		{"23505", nil},     // unique_violation: a bug, not a state
	}
	for _, tc := range tests {
		err := describe(fmt.Errorf("commit: %w", &pgconn.PgError{Code: tc.code, Message: "m"}))
		var u *UnavailableError
		switch {
		case tc.want == nil && errors.As(err, &u):
			t.Errorf("%s: %v is unavailable, want a plain error", tc.code, err)
		case tc.want != nil && !errors.Is(err, tc.want):
			t.Errorf("%s: %v, want %v", tc.code, err, tc.want)
		}
		if pgCode(err) != tc.code {
			t.Errorf("%s: the original error is lost: %v", tc.code, err)
		}
	}
	if !retryable(&pgconn.PgError{Code: "40P01"}) || retryable(&pgconn.PgError{Code: "55P03"}) {
		t.Error("retryable: want deadlocks retried, lock timeouts not")
	}
}
