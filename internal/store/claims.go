package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// Several servers on one PostgreSQL database share the grading queue (the
// rows without a grade version): a grader claims the rows it grades, so no
// other server grades them too. A claim is a session-level advisory lock,
// taken with pg_try_advisory_lock on a connection of its own (claims),
// pinned for as long as the handle is open: it is released when the grade is
// committed, or the row handed back, and by PostgreSQL itself when that
// connection ends, so a server killed with -9 leaves its rows to the others.
// No row lock is held while a puzzle is graded: submissions upserting the
// same rows never wait for a grader. SQLite has one writer per file, and
// shares nothing (SharesGrading is false).

// claimClass is the first key of every claim's advisory lock (the two-int4
// form), "GRAD" in ASCII; the second is the row's id, truncated to 32 bits
// (rows 2^32 apart share a lock: one waits for the other, nothing worse).
// goose's migration lock uses the one-bigint form, a separate key space.
const claimClass = 0x47524144

// claims is the connection that holds a DB's claims.
type claims struct {
	mu   sync.Mutex
	cfg  *pgx.ConnConfig // nil on SQLite
	pool *sql.DB         // a pool of one, so that closing it ends the session
	conn *sql.Conn       // pinned: the session that holds the locks
	// held are the rows this session claimed: a claim is not taken twice
	// (advisory locks nest within a session).
	held map[int64]bool
}

// SharesGrading reports whether several processes may grade this archive's
// rows at once and must claim them first (ClaimUngraded): on PostgreSQL.
func (db *DB) SharesGrading() bool { return db.d.postgres }

// UngradedIDs returns the ids of up to n rows after id after, in id order,
// that wait for a grade: the candidates of ClaimUngraded.
func (db *DB) UngradedIDs(ctx context.Context, after int64, n int) ([]int64, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	rows, err := db.reader.QueryContext(ctx, db.d.sql("SELECT id FROM puzzles"+db.d.indexedBy("puzzles_pending")+
		" WHERE grade_version IS NULL AND id > ? AND "+visible+" ORDER BY id LIMIT ?"), after, n)
	if err != nil {
		return nil, fmt.Errorf("read pending rows: %w", err)
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, fmt.Errorf("read pending rows: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read pending rows: %w", err)
	}
	return ids, nil
}

// ClaimUngraded claims the rows of ids (in id order) that no other process
// has claimed and that still wait for a grade once claimed, and returns
// them in id order. Each row returned stays claimed until ReleaseClaims.
// On SQLite it returns the rows of ids still pending, claiming nothing.
func (db *DB) ClaimUngraded(ctx context.Context, ids []int64) ([]record.Puzzle, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	if !db.d.postgres {
		if len(ids) == 0 {
			return nil, nil
		}
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		return db.pending(ctx, "SELECT "+columns+" FROM puzzles WHERE grade_version IS NULL AND id IN (?"+strings.Repeat(", ?", len(ids)-1)+") AND "+visible+" ORDER BY id", args...)
	}
	c := &db.claims
	c.mu.Lock()
	defer c.mu.Unlock()
	ps, err := c.claim(ctx, ids)
	if err != nil {
		c.drop()
		return nil, fmt.Errorf("claim %d pending rows: %w", len(ids), describe(err))
	}
	return ps, nil
}

// claim locks what it can of ids, then reads those rows still pending: a
// statement after the locks, so a grade another server committed before it
// let go of the row is seen, and the row is not graded again. The locks of
// rows found graded (or gone) are let go at once.
func (c *claims) claim(ctx context.Context, ids []int64) ([]record.Puzzle, error) {
	conn, err := c.connect(ctx)
	if err != nil {
		return nil, err
	}
	ids = slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return c.held[id] })
	locked, err := int64s(conn.QueryContext(ctx, "SELECT u.id FROM unnest($1::bigint[], $2::int4[]) AS u (id, k) WHERE pg_try_advisory_lock($3, u.k)",
		ids, claimKeys(ids), int32(claimClass)))
	if err != nil || len(locked) == 0 {
		return nil, err
	}
	rows, err := conn.QueryContext(ctx, "SELECT "+columns+" FROM puzzles WHERE id = ANY($1) AND grade_version IS NULL AND "+visible+" ORDER BY id", locked)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ps []record.Puzzle
	for rows.Next() {
		p, err := scanPuzzle(rows.Scan)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(ps) < len(locked) {
		kept := make(map[int64]bool, len(ps))
		for _, p := range ps {
			kept[p.ID] = true
		}
		var gone []int64
		for _, id := range locked {
			if !kept[id] {
				gone = append(gone, id)
			}
		}
		if err := c.release(ctx, gone); err != nil {
			return nil, err
		}
	}
	for _, p := range ps {
		c.held[p.ID] = true
	}
	return ps, nil
}

// ReleaseClaims lets go of the claims of ids (rows ClaimUngraded returned),
// once their grades are committed or they are handed back ungraded.
func (db *DB) ReleaseClaims(ctx context.Context, ids []int64) error {
	if !db.d.postgres || len(ids) == 0 {
		return nil
	}
	c := &db.claims
	c.mu.Lock()
	defer c.mu.Unlock()
	ids = slices.DeleteFunc(slices.Clone(ids), func(id int64) bool { return !c.held[id] })
	if c.conn == nil || len(ids) == 0 {
		return nil // the session ended, and its locks with it
	}
	if err := c.release(ctx, ids); err != nil {
		c.drop()
		return fmt.Errorf("release %d claims: %w", len(ids), describe(err))
	}
	for _, id := range ids {
		delete(c.held, id)
	}
	return nil
}

func (c *claims) release(ctx context.Context, ids []int64) error {
	_, err := c.conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1, k) FROM unnest($2::int4[]) AS k", int32(claimClass), claimKeys(ids))
	return err
}

// connect returns the pinned connection, opening it if needed.
func (c *claims) connect(ctx context.Context) (*sql.Conn, error) {
	if c.conn != nil {
		return c.conn, nil
	}
	if c.pool == nil {
		c.pool = stdlib.OpenDB(*c.cfg)
		c.pool.SetMaxOpenConns(1)
		c.pool.SetMaxIdleConns(1)
	}
	conn, err := c.pool.Conn(ctx)
	if err != nil {
		return nil, err
	}
	c.conn = conn
	c.held = make(map[int64]bool)
	return conn, nil
}

// drop ends the session after an error, and every claim with it: a claim
// is never left behind on a connection that failed mid-way. The next claim
// opens a new one.
func (c *claims) drop() {
	if c.conn != nil {
		c.conn.Close()
		c.conn = nil
	}
	if c.pool != nil {
		c.pool.Close()
		c.pool = nil
	}
	c.held = nil
}

// close ends the session (Close of the DB).
func (c *claims) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drop()
}

// claimKeys are the second keys of the advisory locks of ids.
func claimKeys(ids []int64) []int32 {
	ks := make([]int32, len(ids))
	for i, id := range ids {
		ks[i] = int32(uint32(id))
	}
	return ks
}
