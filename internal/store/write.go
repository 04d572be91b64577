package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// maxBatch caps how many submissions one group commit carries.
const maxBatch = 256

// The writer connection's page cache (PRAGMA cache_size, negative: KiB) and
// WAL checkpoint interval (PRAGMA wal_autocheckpoint, pages). A bulk import
// into a large archive inserts at random places of the givens and solve
// time indexes, far more pages than the everyday cache holds; pages pushed
// out in the middle of a transaction are written to the WAL twice, and each
// checkpoint copies the pages of the last commits back into the file. So
// while SubmitMany batches of at least bulkRows arrive, the cache grows to
// bulkCache and checkpoints wait for bulkCheckpoint pages (a page rewritten
// by several commits is copied once); both go back bulkIdle after the last
// such batch, so a server stays small between imports. Every cached page
// costs about twice its size in memory. Importing a million puzzles
// (BenchmarkMillion, batches of 16,384): a 32 MB cache, 15,900 puzzles/s at
// a peak of 126 MB; 48 MB, 18,600/s at 163 MB; 48 MB with checkpoints every
// 8,000 pages, 19,800/s at 164 MB. (100 MB took the peak to 250 MB.)
const (
	writerCache      = -16000
	writerCheckpoint = 1000 // SQLite's default
	bulkCache        = -48000
	bulkCheckpoint   = 8000
	bulkRows         = 1024
	bulkIdle         = time.Second
)

// columns lists a puzzle row in the order scanPuzzle reads it.
const columns = `id, givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions`

// upsertSQL stores a new puzzle or, for givens already archived, counts one
// more submission; either way it returns the stored row, whose submissions
// is 1 exactly when the row is new.
const upsertSQL = upsertHead + upsertValues + upsertTail + `
RETURNING ` + columns

// The parts of an upsert, so that commitMany can store many rows with one.
const (
	upsertHead   = `INSERT INTO puzzles (givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions) VALUES `
	upsertValues = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`
	upsertTail   = `
ON CONFLICT (givens) DO UPDATE SET submissions = submissions + 1`
)

// An op is one request to the writer goroutine.
type op struct {
	ctx   context.Context
	state atomic.Int32 // queued, taken or abandoned
	one   *sudoku.Puzzle
	many  []sudoku.Puzzle
	fn    func(conn *sql.Conn) error // maintenance on the writer connection
	done  chan result                // buffered: the writer never blocks on it
}

const (
	queued int32 = iota
	taken
	abandoned
)

type result struct {
	stored sudoku.Puzzle
	dup    []bool
	err    error
}

// Submit archives p, a puzzle solved and measured by sudoku.Rate. If its
// givens are archived already, it counts one more submission and returns the
// stored puzzle with duplicate true. It returns once the change is durably
// committed; concurrent calls share one commit. A cancelled ctx abandons the
// submission only while it still waits in the queue: a submission that was
// committed is always reported as such.
func (db *DB) Submit(ctx context.Context, p sudoku.Puzzle) (stored sudoku.Puzzle, duplicate bool, err error) {
	if err := check(p); err != nil {
		return sudoku.Puzzle{}, false, err
	}
	res, err := db.do(ctx, &op{ctx: ctx, one: &p})
	if err != nil {
		return sudoku.Puzzle{}, false, fmt.Errorf("submit puzzle: %w", err)
	}
	return res.stored, res.dup[0], nil
}

// SubmitMany archives all of ps in one transaction, in order, or none of
// them. duplicate[i] is true when ps[i]'s givens were archived before it,
// including earlier in ps; each duplicate counts one more submission of the
// stored row.
func (db *DB) SubmitMany(ctx context.Context, ps []sudoku.Puzzle) (duplicate []bool, err error) {
	for i, p := range ps {
		if err := check(p); err != nil {
			return nil, fmt.Errorf("puzzle %d of %d: %w", i+1, len(ps), err)
		}
	}
	if len(ps) == 0 {
		return []bool{}, nil
	}
	res, err := db.do(ctx, &op{ctx: ctx, many: ps})
	if err != nil {
		return nil, fmt.Errorf("submit %d puzzles: %w", len(ps), err)
	}
	return res.dup, nil
}

// SetMaxPageCount limits the database file to n pages (PRAGMA
// max_page_count on the writer connection) and returns the limit in force,
// which is never below the current size. Past the limit, writes fail with
// ErrFull. It exists to test and rehearse a full disk; n = 0 only reads the
// limit.
func (db *DB) SetMaxPageCount(ctx context.Context, n int64) (int64, error) {
	var limit int64
	_, err := db.do(ctx, &op{ctx: ctx, fn: func(conn *sql.Conn) error {
		q := "PRAGMA max_page_count"
		if n > 0 {
			q = fmt.Sprintf("PRAGMA max_page_count = %d", n)
		}
		return conn.QueryRowContext(context.Background(), q).Scan(&limit)
	}})
	if err != nil {
		return 0, fmt.Errorf("set max page count: %w", err)
	}
	return limit, nil
}

// do hands o to the writer goroutine and waits for its answer.
func (db *DB) do(ctx context.Context, o *op) (result, error) {
	o.done = make(chan result, 1)
	if err := db.enqueue(ctx, o); err != nil {
		return result{}, err
	}
	select {
	case r := <-o.done:
		return r, r.err
	case <-ctx.Done():
		if o.state.CompareAndSwap(queued, abandoned) {
			return result{}, ctx.Err()
		}
		// The writer has it: its outcome is the answer, whatever ctx says.
		r := <-o.done
		return r, r.err
	}
}

func (db *DB) enqueue(ctx context.Context, o *op) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.closed {
		return ErrClosed
	}
	select {
	case db.ops <- o:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeLoop is the writer goroutine. It takes every submission waiting (up
// to maxBatch) and commits them in one transaction, so that concurrent
// callers share one fsync. SubmitMany and maintenance ops run alone.
func (db *DB) writeLoop() {
	defer close(db.stopped)
	var next *op // an op taken while filling a batch, run after it
	batch := make([]*op, 0, maxBatch)
	idle := time.NewTimer(bulkIdle)
	idle.Stop()
	for {
		o := next
		next = nil
		if o == nil {
			var ok bool
			select {
			case o, ok = <-db.ops:
			case <-idle.C:
				db.setBulk(false)
				continue
			}
			if !ok {
				return
			}
			if !o.take() {
				continue
			}
		}
		switch {
		case o.fn != nil:
			o.done <- result{err: o.fn(db.wconn)}
			continue
		case o.many != nil:
			if len(o.many) >= bulkRows {
				db.setBulk(true)
			}
			db.commitMany(o)
			if db.bulk {
				// Timers of Go 1.23 on deliver nothing stale after Reset.
				idle.Reset(bulkIdle)
			}
			continue
		}
		batch = append(batch[:0], o)
	fill:
		for len(batch) < maxBatch {
			select {
			case o, ok := <-db.ops:
				if !ok {
					break fill
				}
				if !o.take() {
					continue
				}
				if o.one == nil {
					next = o
					break fill
				}
				batch = append(batch, o)
			default:
				break fill
			}
		}
		db.commitBatch(batch)
		clear(batch)
	}
}

// setBulk switches the writer connection to the cache and checkpoint
// interval for bulk writes, or back; shrinking the cache frees the pages
// beyond its new size. A failure costs only speed or memory, so it is
// ignored.
func (db *DB) setBulk(bulk bool) {
	if bulk == db.bulk {
		return
	}
	cache, checkpoint := writerCache, writerCheckpoint
	if bulk {
		cache, checkpoint = bulkCache, bulkCheckpoint
	}
	ctx := context.Background()
	if _, err := db.wconn.ExecContext(ctx, "PRAGMA cache_size = "+strconv.Itoa(cache)); err != nil {
		return
	}
	if _, err := db.wconn.ExecContext(ctx, "PRAGMA wal_autocheckpoint = "+strconv.Itoa(checkpoint)); err != nil {
		return
	}
	db.bulk = bulk
	if !bulk {
		_, _ = db.wconn.ExecContext(ctx, "PRAGMA shrink_memory")
	}
}

// take claims o for the writer unless its caller gave up on it.
func (o *op) take() bool {
	if o.state.CompareAndSwap(queued, taken) {
		return true
	}
	o.done <- result{err: o.ctx.Err()}
	return false
}

// commitBatch commits the submissions of batch in one transaction. If that
// fails, it retries each in a transaction of its own, so that one bad
// submission fails alone.
func (db *DB) commitBatch(batch []*op) {
	results := make([]result, len(batch))
	now := time.Now().UTC().UnixNano()
	err := db.inTx(func(tx *sql.Tx) error {
		stmt := tx.Stmt(db.upsert)
		for i, o := range batch {
			p, dup, err := upsertOne(stmt, o.one, now)
			if err != nil {
				return err
			}
			results[i] = result{stored: p, dup: []bool{dup}}
		}
		return nil
	})
	if err == nil {
		db.batches.Add(1)
		db.batched.Add(int64(len(batch)))
		for i, o := range batch {
			o.done <- results[i]
		}
		return
	}
	if len(batch) == 1 || waitedForLock(err) {
		// Retrying one by one helps when one submission is at fault,
		// not when another process held the lock for the whole
		// busy timeout: each retry would wait that long again.
		for _, o := range batch {
			o.done <- result{err: err}
		}
		return
	}
	for _, o := range batch {
		var r result
		r.err = db.inTx(func(tx *sql.Tx) error {
			p, dup, err := upsertOne(tx.Stmt(db.upsert), o.one, now)
			r.stored, r.dup = p, []bool{dup}
			return err
		})
		o.done <- r
	}
}

// manyRows is how many puzzles one INSERT statement of commitMany carries.
// A statement per row costs more in the driver than SQLite spends on the row;
// 64 rows a statement made a 17-clue import's writes about 2x faster.
const manyRows = 64

// commitMany commits a SubmitMany request in one transaction, manyRows
// puzzles to a statement.
func (db *DB) commitMany(o *op) {
	dup := make([]bool, len(o.many))
	now := time.Now().UTC().UnixNano()
	err := db.inTx(func(tx *sql.Tx) error {
		// A statement's RETURNING rows come in no promised order, so they
		// are matched to puzzles by givens, and a statement never holds the
		// same givens twice: a repeat starts the next statement, where it
		// sees the row the first one stored.
		chunk := make(map[sudoku.Grid]int, manyRows) // givens -> index in o.many
		start := 0
		// The full statement is compiled once per transaction: a Stmt
		// prepared on the connection would be compiled again by every
		// tx.Stmt (database/sql re-prepares a Conn's statements in a Tx).
		var many *sql.Stmt
		if len(o.many) >= manyRows {
			var err error
			if many, err = tx.Prepare(upsertManySQL(manyRows)); err != nil {
				return fmt.Errorf("prepare upsert: %w", err)
			}
		}
		flush := func(end int) error {
			if start == end {
				return nil
			}
			if err := upsertRows(tx, many, o.many[start:end], start, chunk, dup, now); err != nil {
				return err
			}
			clear(chunk)
			start = end
			return nil
		}
		for i := range o.many {
			if _, seen := chunk[o.many[i].Givens]; seen || len(chunk) == manyRows {
				if err := flush(i); err != nil {
					return err
				}
			}
			chunk[o.many[i].Givens] = i
		}
		return flush(len(o.many))
	})
	if err != nil {
		dup = nil
	}
	o.done <- result{dup: dup, err: err}
}

// upsertManySQL is the upsert of n rows at once, returning each row's
// givens and submissions.
func upsertManySQL(n int) string {
	var q strings.Builder
	q.WriteString(upsertHead)
	for i := range n {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString(upsertValues)
	}
	q.WriteString(upsertTail + " RETURNING givens, submissions")
	return q.String()
}

// upsertRows stores ps (distinct givens, at offset off of the request) with
// one multi-row upsert and records in dup which were archived already. A
// statement of manyRows rows runs as many, prepared on tx; any other is
// compiled for the call.
func upsertRows(tx *sql.Tx, many *sql.Stmt, ps []sudoku.Puzzle, off int, index map[sudoku.Grid]int, dup []bool, now int64) error {
	args := make([]any, 0, len(ps)*10)
	for i := range ps {
		p := &ps[i]
		args = append(args, p.Givens.String(), p.Solution.String(), p.Givens.Clues(), p.Solutions,
			p.Backtracks, p.Guesses, p.Nodes, p.SolveNS, p.EngineVersion, now)
	}
	var (
		rows *sql.Rows
		err  error
	)
	if len(ps) == manyRows {
		rows, err = many.Query(args...)
	} else {
		rows, err = tx.Query(upsertManySQL(len(ps)), args...)
	}
	if err != nil {
		return fmt.Errorf("puzzles %d-%d: %w", off+1, off+len(ps), err)
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var givens string
		var submissions int64
		if err := rows.Scan(&givens, &submissions); err != nil {
			return fmt.Errorf("puzzles %d-%d: %w", off+1, off+len(ps), err)
		}
		g, err := sudoku.Parse(givens)
		i, ok := index[g]
		if err != nil || !ok {
			return fmt.Errorf("puzzles %d-%d: unexpected row %q returned", off+1, off+len(ps), givens)
		}
		dup[i] = submissions > 1
		n++
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("puzzles %d-%d: %w", off+1, off+len(ps), err)
	}
	if n != len(ps) {
		return fmt.Errorf("puzzles %d-%d: %d rows stored, want %d", off+1, off+len(ps), n, len(ps))
	}
	return nil
}

// inTx runs fn in an immediate transaction on the writer connection and
// commits it. The transaction deliberately ignores the callers' contexts:
// once the writer has taken a request, its outcome is decided by SQLite
// alone, so an answer never contradicts what was committed.
func (db *DB) inTx(fn func(*sql.Tx) error) error {
	ctx := context.Background()
	tx, err := db.wconn.BeginTx(ctx, nil)
	if err != nil {
		return describe(fmt.Errorf("begin: %w", err))
	}
	if err = fn(tx); err == nil {
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}
	if err != nil {
		_ = tx.Rollback()
		// A failed COMMIT can leave SQLite's transaction open on the
		// connection while database/sql considers it finished; make sure
		// the next BEGIN starts clean. "No transaction is active" is fine.
		_, _ = db.wconn.ExecContext(ctx, "ROLLBACK")
		return describe(err)
	}
	return nil
}

// waitedForLock reports whether err is SQLite giving up on a lock.
func waitedForLock(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

func upsertOne(stmt *sql.Stmt, p *sudoku.Puzzle, now int64) (sudoku.Puzzle, bool, error) {
	row := stmt.QueryRow(p.Givens.String(), p.Solution.String(), p.Givens.Clues(), p.Solutions,
		p.Backtracks, p.Guesses, p.Nodes, p.SolveNS, p.EngineVersion, now)
	stored, err := scanPuzzle(row.Scan)
	if err != nil {
		return sudoku.Puzzle{}, false, fmt.Errorf("store %s: %w", p.Givens, err)
	}
	return stored, stored.Submissions > 1, nil
}

// check refuses what must never be archived. The store trusts the engine's
// measures but not blindly: the solution must fill the grid and agree with
// every given.
func check(p sudoku.Puzzle) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidPuzzle, fmt.Sprintf(format, args...))
	}
	if p.Givens.Clues() == 0 {
		return bad("no givens")
	}
	for i, d := range p.Solution {
		if d < 1 || d > 9 {
			return bad("solution incomplete at cell %d", i)
		}
		if g := p.Givens[i]; g != 0 && g != d {
			return bad("solution has %d at cell %d where the puzzle gives %d", d, i, g)
		}
	}
	for i, d := range p.Givens {
		if d > 9 {
			return bad("cell %d holds %d", i, d)
		}
	}
	if p.Solutions != 1 && p.Solutions != 2 {
		return bad("solutions is %d, want 1 or 2", p.Solutions)
	}
	if p.Backtracks < 0 || p.Guesses < 0 || p.Nodes < 0 || p.SolveNS < 0 {
		return bad("negative measure")
	}
	return nil
}
