package store

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// connLost reports whether err is PostgreSQL's connection breaking under
// a statement: the server died or restarted while a write was in flight.
// Such an error carries no SQLSTATE (the server never answered), and pgx
// marks a statement that may have reached the server as unsafe to retry,
// so describe's ConnectError and SafeToRetry checks miss it; it is still
// the database being down, 503 with Retry-After (issue 50: 1 submission
// of 1,176 got 500 when PostgreSQL died under it). Asked only of a
// PostgreSQL archive (ExplainError): an unexpected EOF elsewhere (a
// client's truncated body) is not the database's.
func connLost(err error) bool {
	var pgErr interface{ SafeToRetry() bool } // pgconn's I/O errors, safe or not
	switch {
	case pgCode(err) != "":
		return false
	case errors.As(err, &pgErr),
		errors.Is(err, pgconn.ErrConnClosed), errors.Is(err, driver.ErrBadConn), errors.Is(err, sql.ErrConnDone),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, net.ErrClosed),
		errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNREFUSED):
		return true
	}
	var op *net.OpError
	return errors.As(err, &op)
}

// explainPostgres is describe for a PostgreSQL archive: a lost connection
// is the server down (connLost).
func explainPostgres(err error) error {
	d := describe(err)
	var u *UnavailableError
	if errors.As(d, &u) || !connLost(err) {
		return d
	}
	return fmt.Errorf("%w: %w", errDown, err)
}
