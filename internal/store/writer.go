package store

// writer.go holds the writer goroutine: the queue of writes (op), the kinds
// of work it runs (each a type with the methods the loop calls), group
// commit of concurrent submissions, and the writer's cache for bulk writes.

import (
	"context"
	"database/sql"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// maxBatch caps how many submissions one group commit carries.
const maxBatch = 256

// The writer connection's page cache (PRAGMA cache_size, negative: KiB) and
// WAL checkpoint interval (PRAGMA wal_autocheckpoint, pages). A bulk import
// into a large archive inserts at random places of the givens key, the
// difficulty and the band/solve-time indexes (about 58 MB for a million
// puzzles), far more pages than the everyday cache holds; pages pushed out
// in the middle of a transaction are written to the WAL twice, and each
// checkpoint copies the pages of the last commits back into the file. So
// while batches of at least bulkRows arrive (SubmitMany, or a Batch's
// parts), the cache grows to bulkCache and checkpoints wait for
// bulkCheckpoint pages (a page rewritten by several commits is copied once);
// both go back bulkIdle after the last such batch, so a server stays small
// between imports. Every cached page costs about twice its size in memory
// (4 KiB and SQLite's header take an 8 KiB slot of modernc's allocator).
// Importing a million puzzles before migration 00006 (batches of 16,384): a
// 32 MB cache, 15,900 puzzles/s at a peak of 126 MB; 48 MB, 18,600/s at
// 163 MB. After it, with batches of 65,536 fed in parts: 32 MB, 33,200/s;
// 48 MB, 40,300/s; 64 MB, about the same rate at a peak of 158-166 MB.
// Engine 2's columns and indexes made the writer's work per row larger,
// not its cache's use: 48 MB keeps a million-puzzle import under 200 MB
// (AddParts' parts included).
const (
	writerCache      = -16000
	writerCheckpoint = 1000 // SQLite's default
	bulkCache        = -48000
	bulkCheckpoint   = 8000
	bulkRows         = 1024
	bulkIdle         = time.Second
)

// An op is one request to the writer goroutine: a write, and its answer.
type op struct {
	ctx   context.Context
	state atomic.Int32 // queued, taken or abandoned
	w     write
	done  chan result // buffered: the writer never blocks on it
}

// A write is what an op asks of the writer, one type for each kind:
// submitOne, committed with the others waiting (group commit, see
// commitBatch); submitMany, a transaction of its own; openBatch, a
// transaction the caller feeds (runBatch); maintenance, anything else.
// The writer loop knows the kinds only through these methods.
type write interface {
	// run performs the write on the writer goroutine, alone, and
	// answers o.
	run(db *DB, o *op)
	// grouped returns the puzzle this write submits when it may share
	// a commit with other such writes waiting (group commit), nil when
	// it runs alone.
	grouped() *record.Puzzle
	// bulk says the write keeps the writer's bulk cache (setBulk) for
	// another bulkIdle.
	bulk() bool
}

// submitOne is a Submit.
type submitOne struct{ p *record.Puzzle }

// run commits the submission on its own; the writer loop gathers
// submissions into one commit instead when several wait.
func (w submitOne) run(db *DB, o *op)       { db.commitBatch([]*op{o}) }
func (w submitOne) grouped() *record.Puzzle { return w.p }
func (w submitOne) bulk() bool              { return false }

// submitMany is a SubmitMany or, when add, an AddMany (repeats are not
// counted).
type submitMany struct {
	ps  []record.Puzzle
	add bool
}

func (w submitMany) run(db *DB, o *op) {
	if len(w.ps) >= bulkRows {
		db.setBulk(true)
	}
	db.commitMany(o, w)
}
func (w submitMany) grouped() *record.Puzzle { return nil }
func (w submitMany) bulk() bool              { return true }

// openBatch is a Begin: the writer runs the batch.
type openBatch struct{ b *Batch }

func (w openBatch) run(db *DB, o *op)       { db.runBatch(o, w.b) }
func (w openBatch) grouped() *record.Puzzle { return nil }
func (w openBatch) bulk() bool              { return true }

// maintenance runs fn on the writer connection (nil on PostgreSQL).
type maintenance struct{ fn func(conn *sql.Conn) error }

func (w maintenance) run(db *DB, o *op)       { o.done <- result{err: w.fn(db.wconn)} }
func (w maintenance) grouped() *record.Puzzle { return nil }
func (w maintenance) bulk() bool              { return false }

const (
	queued int32 = iota
	taken
	abandoned
)

type result struct {
	stored record.Puzzle
	dup    []bool
	err    error
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
	var g grouping
	idle := time.NewTimer(bulkIdle)
	idle.Stop()
	var checkpoint <-chan time.Time // SQLite: trimWAL's turns
	if !db.d.postgres {
		t := time.NewTicker(walTrimEvery)
		defer t.Stop()
		checkpoint = t.C
	}
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
			case <-checkpoint:
				db.trimWAL()
				continue
			}
			if !ok {
				return
			}
			if !o.take() {
				continue
			}
		}
		if o.w.grouped() == nil {
			o.w.run(db, o)
			if o.w.bulk() && db.bulk {
				// Timers of Go 1.23 on deliver nothing stale after
				// Reset.
				idle.Reset(bulkIdle)
			}
			continue
		}
		batch, next = db.fill(append(batch[:0], o), &g)
		start := time.Now()
		db.commitBatch(batch)
		g.last, g.took = len(batch), time.Since(start)
		clear(batch)
	}
}

// maxLinger bounds how long a group commit on PostgreSQL waits for more
// submissions (see fill).
const maxLinger = 2 * time.Millisecond

// grouping is what the writer remembers of its last group commit: how
// many submissions it carried and how long it took.
type grouping struct {
	last int
	took time.Duration
}

// linger is how long the next group may wait for more submissions: on
// PostgreSQL, when the last group carried more than one (submissions
// arrive side by side), as long as the last commit took, at most
// maxLinger; else not at all, so that a lone submission never waits.
func (g grouping) linger(postgres bool) time.Duration {
	if !postgres || g.last < 2 {
		return 0
	}
	return min(g.took, maxLinger)
}

// fill adds to batch, which holds one submission, every submission
// waiting (up to maxBatch), and returns it with the op that ended it when
// that op runs alone (a batch or maintenance: after this commit). On
// PostgreSQL it then waits up to g's linger for more: a group commit's
// statements cost PostgreSQL about as much as the rows they write, and
// the clients of several servers sharing a database are spread over them,
// so each server's groups shrink as servers are added, and the database's
// work per submission grows, unless the writer gathers a little longer
// (issue 36; PostgreSQL's own commit_delay does the same for its WAL
// flushes).
func (db *DB) fill(batch []*op, g *grouping) ([]*op, *op) {
	var deadline <-chan time.Time
	if d := g.linger(db.d.postgres); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		deadline = t.C
	}
	for len(batch) < maxBatch {
		var o *op
		var ok bool
		select {
		case o, ok = <-db.ops:
		default:
			if deadline == nil {
				return batch, nil
			}
			select {
			case o, ok = <-db.ops:
			case <-deadline:
				return batch, nil
			}
		}
		if !ok {
			return batch, nil
		}
		if !o.take() {
			continue
		}
		if o.w.grouped() == nil {
			return batch, o
		}
		batch = append(batch, o)
	}
	return batch, nil
}

// setBulk switches the writer connection to the cache and checkpoint
// interval for bulk writes, or back; shrinking the cache frees the pages
// beyond its new size. A failure costs only speed or memory, so it is
// ignored.
func (db *DB) setBulk(bulk bool) {
	if bulk == db.bulk || db.d.postgres {
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
