package store

// startlock.go is PostgreSQL's start-up lock (issue 50, item 7). New
// servers started together on a database an older binary left used to
// race: each read the schema version before goose's migration lock, so
// the loser waited for the winner's migrations, found nothing to apply
// and logged "migrated from=17 to=17"; then both withdrew the old grades
// at once, and the loser's UPDATE waited on the winner's row locks past
// the writer's lock_timeout and the server exited. Every Open on
// PostgreSQL now takes one session advisory lock before it reads the
// version and holds it through the migrations and the steps made in Go;
// with OpenOptions.HoldStartup it holds it further, through the
// caller's own start-up writes (the regrade, the remeasure), until
// EndStartup. The second server waits, then finds everything done and
// serves.

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
)

// startLockID is the advisory lock of start-ups: "sudoku-start" in
// eight bytes, far from goose's own migration lock (4097083626).
const startLockID int64 = 0x73756b2d73747274

// startLock is a held start-up lock: the connection whose session holds
// it. Closing the connection releases it, even if the server dies.
type startLock struct {
	conn *pgx.Conn
}

// takeStartLock connects with cfg and takes the start-up lock, waiting
// (as long as ctx allows) while another server holds it. waited is how
// long it waited; zero when the lock was free.
func takeStartLock(ctx context.Context, cfg *pgx.ConnConfig, log *slog.Logger) (_ *startLock, waited time.Duration, err error) {
	conn, err := pgx.ConnectConfig(ctx, cfg.Copy())
	if err != nil {
		return nil, 0, err
	}
	defer func() {
		if err != nil {
			conn.Close(context.WithoutCancel(ctx))
		}
	}()
	var free bool
	if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", startLockID).Scan(&free); err != nil {
		return nil, 0, fmt.Errorf("take the start-up lock: %w", err)
	}
	if free {
		return &startLock{conn: conn}, 0, nil
	}
	holder := startLockHolder(ctx, conn)
	log.Info("waiting for another server's start-up on the database (its migrations and regrade) to finish",
		slog.String("holder", holder))
	start := time.Now()
	// No lock_timeout on this connection: the wait lasts as long as the
	// other server's start-up, and a stop (ctx) cancels it.
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", startLockID); err != nil {
		return nil, 0, fmt.Errorf("wait for the start-up lock held by %s: %w", holder, err)
	}
	return &startLock{conn: conn}, time.Since(start), nil
}

// startLockHolder names the connection that holds the start-up lock, for
// the log line of a server that waits for it.
func startLockHolder(ctx context.Context, conn *pgx.Conn) string {
	var name string
	err := conn.QueryRow(ctx, `SELECT coalesce(a.application_name, '')
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND (l.classid::bigint << 32 | l.objid::bigint) = $1 LIMIT 1`, startLockID).Scan(&name)
	if err != nil || name == "" {
		return "another connection"
	}
	return name
}

// release gives the lock back (by closing its connection).
func (l *startLock) release() {
	if l == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l.conn.Close(ctx)
}

// EndStartup releases the start-up lock that OpenWith kept with
// HoldStartup, once the caller's start-up writes are done: the next
// server starting on the database goes on. It does nothing on SQLite,
// without HoldStartup, or when called again; Close calls it.
func (db *DB) EndStartup() {
	db.startMu.Lock()
	defer db.startMu.Unlock()
	db.start.release()
	db.start = nil
}
