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
	// selfShard: one free shard, which the transaction's first statement
	// locks itself (a group commit of submissions on PostgreSQL:
	// lockLookup), so that the lock costs no statement of its own.
	selfShard
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
	if db.d.postgres && scope != selfShard {
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
