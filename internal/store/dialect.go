package store

import (
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/pressly/goose/v3"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/migrations"
)

// A dialect is the words that differ between the two databases the store
// runs on, SQLite and PostgreSQL (the code that differs: docs/storage.md,
// "Where the code differs"): the store's SQL is written once,
// with ? placeholders, and the dialect fills in the few words that differ and
// renumbers the placeholders for PostgreSQL ($1, $2, ...) where a statement
// is prepared or run (sql).
type dialect struct {
	postgres bool
	goose    goose.Dialect
	fs       fs.FS

	// insertIgnore begins an INSERT that skips the rows whose unique key
	// is taken; ignoreTail ends it. SQLite's OR IGNORE conflict policy
	// keeps a many-row statement out of the statement journal (see
	// insertMany); PostgreSQL says ON CONFLICT DO NOTHING.
	insertIgnore, ignoreTail string

	// newRows is the condition that picks a transaction's new rows out of
	// puzzles, given newRowsArg's value: on SQLite, whose single writer
	// owns every id past the last one before the transaction, id >= the
	// first new id; on PostgreSQL, where the transactions of several
	// servers take ids in turn, the ids the inserts returned.
	newRows string

	// manyRows is how many puzzles one INSERT of insertMany carries.
	manyRows int

	// orderArms orders each arm of a merged order's UNION ALL itself (see
	// listQuery), for PostgreSQL's planner.
	orderArms bool

	// shard is the SQL of the counters' shard of the transaction (see
	// tx.go): SQLite keeps one, 1; on PostgreSQL counter_shard() reads the
	// shard the transaction locked (migration 00012). shardKey ends the
	// conflict target of a histogram row: on PostgreSQL the shard is part
	// of its key.
	shard, shardKey string

	// readTx are the options of a read transaction: on PostgreSQL it
	// must be REPEATABLE READ for its statements to see one snapshot (a
	// total and its rows agree), as every SQLite transaction does.
	readTx *sql.TxOptions
}

var (
	sqliteDialect = dialect{
		goose:        goose.DialectSQLite3,
		fs:           migrations.FS,
		insertIgnore: "INSERT OR IGNORE INTO",
		newRows:      "id >= ?1",
		// A statement per row costs more in the driver than SQLite spends
		// on the row; 64 rows a statement made a 17-clue import's writes
		// about 2x faster (and 16 or 256 were slower than 64 for a
		// million).
		manyRows: 64,
		shard:    "1",
		readTx:   &sql.TxOptions{ReadOnly: true},
	}
	postgresDialect = dialect{
		postgres:     true,
		goose:        goose.DialectPostgres,
		fs:           migrations.Postgres,
		insertIgnore: "INSERT INTO",
		ignoreTail:   " ON CONFLICT DO NOTHING",
		newRows:      "id = ANY(?1)",
		manyRows:     2048,
		orderArms:    true,
		shard:        "counter_shard()",
		shardKey:     ", shard",
		readTx:       &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead},
	}
)

// IsPostgres reports whether Open takes dsn for a PostgreSQL database.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Redact returns dsn fit for a log or an error message: a PostgreSQL URL
// without its password; a file name as it is.
func Redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	return u.Redacted()
}

// sql returns q as the dialect writes it. On PostgreSQL the placeholders
// become $n: a numbered ?n keeps its number, and the plain ones are
// numbered in order. (No statement of the store has a ? inside a string
// literal.)
func (d dialect) sql(q string) string {
	if !d.postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		if c != '?' {
			b.WriteByte(c)
			continue
		}
		j := i + 1
		for j < len(q) && q[j] >= '0' && q[j] <= '9' {
			j++
		}
		b.WriteByte('$')
		if j > i+1 {
			b.WriteString(q[i+1 : j])
		} else {
			n++
			b.WriteString(strconv.Itoa(n))
		}
		i = j - 1
	}
	return b.String()
}

// indexedBy pins a statement's index on SQLite, so that its plan cannot
// drift to a sort step; PostgreSQL has no such clause (its plans are
// checked by the tests instead).
func (d dialect) indexedBy(index string) string {
	if d.postgres || index == "" {
		return ""
	}
	return " INDEXED BY " + index
}

// notIndexed keeps SQLite from walking an index of a statement driven by
// ids (a technique's puzzles): it finds the rows by id and sorts them.
func (d dialect) notIndexed() string {
	if d.postgres {
		return ""
	}
	return " NOT INDEXED"
}

// newRowsArg is the argument of newRows for the rows ids, in id order.
func (d dialect) newRowsArg(ids []int64) any {
	if d.postgres {
		return ids
	}
	return slices.Min(ids)
}

// errDown is the error of a PostgreSQL server that cannot be reached or is
// shutting down: temporary, like ErrBusy.
var errDown error = &UnavailableError{msg: "database server unavailable", retry: 5 * time.Second, kind: record.KindUnavailable}

// ExplainError says what a database error of this archive means to whoever
// asked: an unreachable PostgreSQL server (errDown), a full disk (ErrFull)
// or a lock held elsewhere (ErrBusy), each an *UnavailableError that a
// server answers 503 with Retry-After; other errors come back as they
// are. The writes describe their errors already; a server calls this for
// the errors of reads, which do not.
func (db *DB) ExplainError(err error) error {
	var u *UnavailableError
	if err == nil || errors.As(err, &u) {
		return err
	}
	if db.d.postgres {
		return explainPostgres(err)
	}
	return describe(err)
}

// IsUnavailable reports whether err means the database cannot be reached
// now but may be later (a PostgreSQL server down or restarting): a server
// starting may wait for it (serve --db-wait).
func IsUnavailable(err error) bool {
	return errors.Is(describe(err), errDown) || errors.Is(err, errDown)
}

// pgCode returns the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// sqliteCode returns the primary SQLite result code of err, or 0.
func sqliteCode(err error) int {
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() & 0xff
	}
	return 0
}

// describe puts a plain explanation in front of the database errors a user
// can do something about, and maps the temporary ones to ErrFull, ErrBusy
// and errDown; the original error stays wrapped.
func describe(err error) error {
	if err == nil {
		return nil
	}
	switch sqliteCode(err) {
	case sqlite3.SQLITE_NOTADB:
		return fmt.Errorf("not an SQLite database: %w", err)
	case sqlite3.SQLITE_READONLY:
		return fmt.Errorf("database is read-only (check the permissions of the file and its directory): %w", err)
	case sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM:
		return fmt.Errorf("cannot open or create the file (check that its directory exists and is writable): %w", err)
	case sqlite3.SQLITE_FULL:
		return fmt.Errorf("%w: %w", ErrFull, err)
	case sqlite3.SQLITE_BUSY:
		return fmt.Errorf("%w: %w", ErrBusy, err)
	}
	if e := dataFault(err); e != nil { // the asker's value, or the server's memory: not a full disk
		return e
	}
	code := pgCode(err)
	switch {
	case code == "53100": // disk full
		return fmt.Errorf("%w: %w", ErrFull, err)
	case code == "55P03" || code == "40001" || code == "40P01": // lock timeout; serialization failure and deadlock, retried already
		return fmt.Errorf("%w: %w", ErrBusy, err)
	case code == "57P01" || code == "57P02" || code == "57P03" || strings.HasPrefix(code, "08"):
		return fmt.Errorf("%w: %w", errDown, err)
	case code == "":
		var ce *pgconn.ConnectError
		if errors.As(err, &ce) || pgconn.SafeToRetry(err) {
			return fmt.Errorf("%w: %w", errDown, err)
		}
	}
	return err
}

// waitedForLock reports whether err is the database giving up on a lock:
// retrying at once would wait as long again.
func waitedForLock(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED || pgCode(err) == "55P03"
}

// retryable reports whether err is PostgreSQL aborting a transaction that
// may simply be run again: a serialization failure or a deadlock; or a
// finish that found its class's rating made meanwhile (errClassRaced).
func retryable(err error) bool {
	c := pgCode(err)
	return c == "40001" || c == "40P01" || errors.Is(err, errClassRaced)
}
