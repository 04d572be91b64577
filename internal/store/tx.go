package store

// tx.go holds the write transaction (inTx, tryTx: retries, locking order,
// clean rollback) and maintenance on the writer connection.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// maxTries is how many times inTx runs a transaction that PostgreSQL
// aborted as a serialization failure or a deadlock.
const maxTries = 5

// A txScope is which counter shards a write transaction locks on
// PostgreSQL (see lockShards).
type txScope int

const (
	// allShards: every shard, so no other write transaction runs beside
	// it. Imports, batches, copies, upgrades and maintenance: transactions
	// of many statements, whose rows cannot be taken in one order.
	allShards txScope = iota
	// oneShard: one free shard. Group commits of submissions and grade
	// pages, which take their rows in key order (puzzles by givens key,
	// then classes by canonical key), so transactions of several servers
	// run side by side without deadlock.
	oneShard
)

// inTx runs fn in a write transaction of the writer that locks every
// counter shard (allShards) and commits it, running it again (up to
// maxTries times in all) when PostgreSQL aborts it as a serialization
// failure or deadlock: fn must be safe to run again.
func (db *DB) inTx(fn func(*sql.Tx) error) error {
	return db.inScopedTx(allShards, fn)
}

// inScopedTx is inTx for a transaction of the given scope.
func (db *DB) inScopedTx(scope txScope, fn func(*sql.Tx) error) error {
	var err error
	for try := 1; ; try++ {
		err = db.tryTx(scope, fn)
		if !retryable(err) || try == maxTries {
			return describe(err)
		}
		time.Sleep(time.Duration(try) * 10 * time.Millisecond)
	}
}

// tryTx runs fn in a write transaction once and returns its error as the
// database gave it (inTx describes it). On SQLite the transaction is
// immediate: it holds the file's write lock from BEGIN. On PostgreSQL it
// begins by locking its counter shards (lockShards): all of them, or one
// that no other transaction holds. The transaction deliberately ignores the
// callers' contexts: once the writer has taken a request, its outcome is
// decided by the database alone, so an answer never contradicts what was
// committed.
func (db *DB) tryTx(scope txScope, fn func(*sql.Tx) error) error {
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
		if err = db.lockShards(tx, scope); err != nil {
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

// The counters on PostgreSQL are sharded (migration 00012): each of
// counts, stat_buckets and grade_counts has a row per shard for each
// counter, and a counter is the sum of its rows. A write transaction
// locks its shard's counts row first and adds only to its shard's rows;
// the shard number goes into the transaction's setting sudoku.shard, which
// the SQL reads through counter_shard() (the store's statements and the
// triggers alike). Two transactions holding different shards share no
// counter row, so the servers sharing a database commit side by side.
//
// Lock order, which makes the transactions deadlock-free: shards first
// (lockShards: one, never waited for while another is held, or all of
// them in id order), then puzzles in givens-key order, then classes in
// canonical-key order, then the shard's counter rows in key order. A
// transaction that cannot take its puzzles in one order (a batch fed in
// parts, an import of many statements) holds every shard, so it runs
// alone.

// counterShards is how many shards the counters have on PostgreSQL
// (migration 00012 makes them).
const counterShards = 16

// lockShardSQL locks the first free shard at or after ?1 (then from 1),
// skipping those other transactions hold, and makes it the transaction's.
// It returns no row when every shard is held.
const lockShardSQL = `SELECT set_config('sudoku.shard', id::text, true) FROM
(SELECT id FROM counts ORDER BY id < $1, id FOR UPDATE SKIP LOCKED LIMIT 1) AS free`

// waitShardSQL locks shard ?1, waiting for it, and makes it the
// transaction's: when every shard is held.
const waitShardSQL = `SELECT set_config('sudoku.shard', id::text, true) FROM counts WHERE id = $1 FOR UPDATE`

// lockAllSQL locks every shard, in id order, and counts in shard 1.
const lockAllSQL = `SELECT set_config('sudoku.shard', '1', true) FROM
(SELECT count(*) FROM (SELECT id FROM counts ORDER BY id FOR UPDATE) AS s) AS locked`

// lockShards locks the counter shards of a transaction of scope on
// PostgreSQL. A one-shard transaction starts looking at the writer's own
// shard (db.shard, chosen at random when the store opened), so two servers
// mostly keep to their own shards and a transaction waits only when every
// shard is held.
func (db *DB) lockShards(tx *sql.Tx, scope txScope) error {
	var shard string
	if scope == allShards {
		return tx.QueryRow(lockAllSQL).Scan(&shard)
	}
	err := tx.QueryRow(lockShardSQL, db.shard).Scan(&shard)
	if errors.Is(err, sql.ErrNoRows) {
		err = tx.QueryRow(waitShardSQL, db.shard).Scan(&shard)
	}
	return err
}

// lockOneSQL is lockShardSQL and, when every shard is held, waitShardSQL,
// in one statement: the second subquery runs only when the first finds no
// free shard (coalesce evaluates its arguments as it needs them). A pipe
// takes its shard with it, so that the lock waits on no answer.
const lockOneSQL = `SELECT set_config('sudoku.shard', coalesce(
    (SELECT id FROM counts ORDER BY id < $1, id FOR UPDATE SKIP LOCKED LIMIT 1),
    (SELECT id FROM counts WHERE id = $1 FOR UPDATE))::text, true)`

// A pipe is a write transaction on PostgreSQL's writer connection whose
// statements go to the server in pipelines (pgx's batches): BEGIN, the
// shard lock and the statements queued before the first Flush in one
// round trip, and the statements queued after the last Flush with the
// COMMIT in one. A transaction that needs no answer before it commits
// (a group commit of submissions) is one round trip; one that decides in
// Go on what it read (a finish) flushes once, then queues its writes.
// Every statement costs a round trip otherwise, and an idle server and
// backend pay a wake-up at each (issue 36).
//
// A statement's result is read by the callback set on the QueuedQuery
// that Queue returns (Query, QueryRow, Exec), in order, when its
// pipeline's answers arrive. A failed statement fails the pipeline and
// the transaction (the server skips the rest and inPipe rolls back); the
// callbacks of the last pipeline run after the server committed, so they
// must only read, never refuse.
type pipe struct {
	ctx   context.Context
	conn  *pgx.Conn
	batch *pgx.Batch
}

// Queue adds q to the statements the next Flush (or the COMMIT) sends.
func (p *pipe) Queue(q string, args ...any) *pgx.QueuedQuery {
	return p.batch.Queue(q, args...)
}

// Flush sends the statements queued in one round trip and runs their
// callbacks; it returns the first error of a statement or callback.
func (p *pipe) Flush() error {
	b := p.batch
	p.batch = &pgx.Batch{}
	if b.Len() == 0 {
		return nil
	}
	return p.conn.SendBatch(p.ctx, b).Close()
}

// errGroupRaced is a group commit that met a class another server started
// after the group looked for it, or a hidden puzzle no longer hidden when
// the group looked for its reason: run again, it files its rows under the
// class (or stores the puzzle).
var errGroupRaced = errors.New("submit: another server's class or moderator's change meanwhile")

// inPipe runs fn in a write transaction of scope on PostgreSQL's writer
// connection, as inScopedTx runs a *sql.Tx: it commits, and runs it again
// (up to maxTries times in all) when PostgreSQL aborts it as a
// serialization failure or deadlock, or a statement fails with a mark of
// a race (racedMark, ratingRacedMark): fn
// must be safe to run again. fn queues its statements on the pipe (and
// flushes when it needs an answer before it goes on); inPipe sends BEGIN
// and the shard lock with fn's first pipeline and COMMIT with its last.
func (db *DB) inPipe(scope txScope, fn func(*pipe) error) error {
	var err error
	for try := 1; ; try++ {
		err = db.tryPipe(scope, fn)
		if raised(err, racedMark) {
			err = fmt.Errorf("%w: %w", errGroupRaced, err)
		} else if raised(err, ratingRacedMark) {
			err = fmt.Errorf("%w: %w", errClassRaced, err)
		}
		if !(retryable(err) || errors.Is(err, errGroupRaced)) || try == maxTries {
			return describe(err)
		}
		time.Sleep(time.Duration(try) * 10 * time.Millisecond)
	}
}

// tryPipe runs fn in a pipe once (see tryTx, whose rules it keeps: the
// callers' contexts are ignored, a failure rolls everything back).
func (db *DB) tryPipe(scope txScope, fn func(*pipe) error) error {
	ctx := context.Background()
	conn, err := db.writer.Conn(ctx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		p := &pipe{ctx: ctx, conn: dc.(*stdlib.Conn).Conn(), batch: &pgx.Batch{}}
		p.Queue("BEGIN")
		if scope == allShards {
			p.Queue(lockAllSQL)
		} else {
			p.Queue(lockOneSQL, db.shard)
		}
		err := fn(p)
		if err == nil {
			p.Queue("COMMIT").Exec(func(tag pgconn.CommandTag) error {
				if tag.String() != "COMMIT" {
					return fmt.Errorf("commit: the server answered %s", tag)
				}
				return nil
			})
			err = p.Flush()
		}
		if err != nil {
			p.rollback()
		}
		return err
	})
}

// rollback ends the transaction a failed pipeline left open (aborted), if
// any: a failed statement leaves it so until ROLLBACK. Without it the
// connection would not serve on in a transaction (pgx's database/sql
// driver discards a connection handed back inside one), but it would be
// closed and opened again.
func (p *pipe) rollback() {
	pc := p.conn.PgConn()
	if pc.IsClosed() || pc.TxStatus() == 'I' {
		return
	}
	_, _ = p.conn.Exec(p.ctx, "ROLLBACK")
}
