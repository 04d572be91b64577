package store

import (
	"context"
	"os"
	"strconv"
	"sync/atomic"
	"time"
)

// The SQLite archive's write-ahead log stays small (docs/storage.md, "The
// WAL's bound"): SQLite checkpoints it into the database file every
// writerCheckpoint pages (wal_autocheckpoint), and starts writing it again
// from its beginning once every reader has moved past it. A reader
// holding an old snapshot used to stop that (issue 38): exports now read
// in short transactions (exportread.go). Starting again from its beginning
// does not shrink the file, so journal_size_limit trims it to walLimit
// each time; and every walTrimEvery the writer, when idle and the log is
// over walTrimAt, checkpoints it whole and truncates it to nothing
// (PRAGMA wal_checkpoint(TRUNCATE)), but only if no reader has a snapshot
// open at that moment: it does not wait for one, which would hold up the
// writes queued behind it.
const (
	// walLimit is the size (bytes) journal_size_limit trims the log
	// to when SQLite starts it again.
	walLimit = 64 << 20
	// walTrimEvery is how often the writer looks at the log's size.
	walTrimEvery = 10 * time.Second
	// walTrimAt is the size (bytes) from which the writer truncates it.
	walTrimAt = 4 << 20
)

// walTrims counts the log's truncations and the tries that found a
// snapshot open, for the tests and benchmarks.
var walTrims, walTrimsBusy atomic.Int64

// WALSize is the size in bytes of the SQLite archive's -wal file (0 when
// there is none, or on PostgreSQL).
func (db *DB) WALSize() int64 {
	if db.d.postgres {
		return 0
	}
	fi, err := os.Stat(db.path + "-wal")
	if err != nil {
		return 0
	}
	return fi.Size()
}

// trimWAL truncates the log when it is over walTrimAt and no reader
// needs it; it runs on the writer goroutine, between writes. A failure
// costs only disk space until the next try.
func (db *DB) trimWAL() {
	if db.WALSize() < walTrimAt {
		return
	}
	ctx := context.Background()
	// busy_timeout 0: a snapshot open (or another process writing) makes
	// the checkpoint give up at once rather than wait.
	if _, err := db.wconn.ExecContext(ctx, "PRAGMA busy_timeout = 0"); err != nil {
		return
	}
	defer db.wconn.ExecContext(ctx, "PRAGMA busy_timeout = "+strconv.FormatInt(writerBusyTimeout.Milliseconds(), 10)) //nolint:errcheck // as above
	var busy, frames, done int64
	err := db.wconn.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &done)
	if err != nil || busy != 0 {
		walTrimsBusy.Add(1)
		return
	}
	walTrims.Add(1)
}
