package store

// tx.go holds the write transaction (inTx, tryTx: retries, locking order,
// clean rollback) and maintenance on the writer connection.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// maxTries is how many times inTx runs a transaction that PostgreSQL
// aborted as a serialization failure or a deadlock.
const maxTries = 5

// inTx runs fn in a write transaction of the writer and commits it,
// running it again (up to maxTries times in all) when PostgreSQL aborts it
// as a serialization failure or deadlock: fn must be safe to run again.
func (db *DB) inTx(fn func(*sql.Tx) error) error {
	var err error
	for try := 1; ; try++ {
		err = db.tryTx(fn)
		if !retryable(err) || try == maxTries {
			return describe(err)
		}
		time.Sleep(time.Duration(try) * 10 * time.Millisecond)
	}
}

// tryTx runs fn in a write transaction once and returns its error as the
// database gave it (inTx describes it). On SQLite the transaction is
// immediate: it holds the file's write lock from BEGIN. On PostgreSQL it
// begins by locking the counters' row, which every write transaction
// updates before it commits anyway: taking it first orders every write
// transaction of every server sharing the database the same way, so two
// never wait for each other's rows (puzzles, classes, counters) in opposite
// orders. The transaction deliberately ignores the callers' contexts: once
// the writer has taken a request, its outcome is decided by the database
// alone, so an answer never contradicts what was committed.
func (db *DB) tryTx(fn func(*sql.Tx) error) error {
	ctx := context.Background()
	var tx *sql.Tx
	var err error
	if db.wconn != nil {
		tx, err = db.wconn.BeginTx(ctx, nil)
	} else {
		tx, err = db.writer.BeginTx(ctx, nil)
	}
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if db.d.postgres {
		if _, err = tx.Exec("SELECT 1 FROM counts WHERE id = 1 FOR UPDATE"); err != nil {
			err = fmt.Errorf("lock the counters: %w", err)
		}
	}
	if err == nil {
		err = fn(tx)
	}
	if err == nil {
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}
	db.known.end(err == nil)
	if err != nil {
		_ = tx.Rollback()
		if db.wconn != nil {
			// A failed COMMIT can leave SQLite's transaction open on the
			// connection while database/sql considers it finished; make
			// sure the next BEGIN starts clean. "No transaction is
			// active" is fine.
			_, _ = db.wconn.ExecContext(ctx, "ROLLBACK")
		}
		return err
	}
	return nil
}

// SetMaxPageCount limits the database file to n pages (PRAGMA
// max_page_count on the writer connection) and returns the limit in force,
// which is never below the current size. Past the limit, writes fail with
// ErrFull. It exists to test and rehearse a full disk; n = 0 only reads the
// limit.
func (db *DB) SetMaxPageCount(ctx context.Context, n int64) (int64, error) {
	if db.d.postgres {
		return 0, errors.New("set max page count: an SQLite setting; PostgreSQL has none")
	}
	var limit int64
	_, err := db.do(ctx, &op{ctx: ctx, w: maintenance{func(conn *sql.Conn) error {
		q := "PRAGMA max_page_count"
		if n > 0 {
			q = fmt.Sprintf("PRAGMA max_page_count = %d", n)
		}
		return conn.QueryRowContext(context.Background(), q).Scan(&limit)
	}}})
	if err != nil {
		return 0, fmt.Errorf("set max page count: %w", err)
	}
	return limit, nil
}
