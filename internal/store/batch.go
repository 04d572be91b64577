package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// A Batch is one transaction of puzzles, like SubmitMany's, handed to the
// writer in parts: the caller need not hold the whole batch, so a long
// import commits tens of thousands of puzzles at a time in constant memory,
// and the writer stores each part while the next one is being rated.
// Nothing of a batch is visible to readers, nor durable, before Commit
// returns nil; Rollback, a failed Add, or the end of the context given to
// Begin drops all of it.
//
// While a batch is open the writer serves nobody else: other submissions
// wait for its Commit or Rollback. A batch must end with one of them.
type Batch struct {
	ctx    context.Context
	reqs   chan batchReq // to the writer
	ended  chan struct{} // closed when the writer is done with the batch
	err    error         // why it ended, once ended is closed
	closed bool          // Commit or Rollback was called
}

// A batchReq is one call on a Batch: a part to add, or its end.
type batchReq struct {
	ps     []sudoku.Puzzle // nil: end the batch
	commit bool
	done   chan batchRes
}

type batchRes struct {
	dup int
	err error
}

// errRolledBack ends a batch by Rollback.
var errRolledBack = errors.New("batch rolled back")

// Begin opens a batch. It waits, as Submit does, until the writer is free.
func (db *DB) Begin(ctx context.Context) (*Batch, error) {
	b := &Batch{ctx: ctx, reqs: make(chan batchReq), ended: make(chan struct{})}
	if _, err := db.do(ctx, &op{ctx: ctx, batch: b}); err != nil {
		return nil, fmt.Errorf("begin batch: %w", err)
	}
	return b, nil
}

// Add stores ps in the batch and returns how many of them are duplicates:
// their givens were archived before the batch, or came earlier in it. It
// returns once ps is stored (the caller may reuse ps), which is not yet
// durable. After an error the batch is over and rolled back.
func (b *Batch) Add(ps []sudoku.Puzzle) (duplicates int, err error) {
	for i, p := range ps {
		if err := check(p); err != nil {
			b.Rollback()
			return 0, fmt.Errorf("puzzle %d of %d: %w", i+1, len(ps), err)
		}
	}
	if len(ps) == 0 {
		return 0, nil
	}
	r, err := b.call(batchReq{ps: ps})
	return r.dup, err
}

// Commit makes the batch durable and ends it.
func (b *Batch) Commit() error {
	_, err := b.call(batchReq{commit: true})
	return err
}

// Rollback drops the batch and ends it; after Commit it does nothing.
func (b *Batch) Rollback() {
	if !b.closed {
		b.call(batchReq{})
	}
}

// call hands r to the writer and waits for its answer, or for the batch
// to end.
func (b *Batch) call(r batchReq) (batchRes, error) {
	if b.closed {
		return batchRes{}, errors.New("batch already ended")
	}
	if r.ps == nil {
		b.closed = true
	}
	r.done = make(chan batchRes, 1)
	select {
	case b.reqs <- r:
	case <-b.ended:
		if r.ps == nil && !r.commit {
			return batchRes{}, nil // rolled back already
		}
		return batchRes{}, fmt.Errorf("batch: %w", b.err)
	}
	res := <-r.done
	if res.err != nil {
		return res, fmt.Errorf("batch: %w", res.err)
	}
	return res, nil
}

// runBatch is the writer's side of a batch: one transaction, open until
// the caller commits or rolls back, or its context ends. The batch's Begin
// is answered once the transaction is open.
func (db *DB) runBatch(o *op) {
	b := o.batch
	var end *batchReq // the Commit or Rollback that ended the batch
	opened := false
	err := db.inTx(func(tx *sql.Tx) error {
		opened = true
		o.done <- result{}
		var t tally
		for {
			var r batchReq
			select {
			case r = <-b.reqs:
			case <-b.ctx.Done():
				return b.ctx.Err()
			}
			switch {
			case r.ps != nil:
				if len(r.ps) >= bulkRows {
					db.setBulk(true)
				}
				dup, err := insertMany(tx, r.ps, &t)
				n := 0
				for _, d := range dup {
					if d {
						n++
					}
				}
				r.done <- batchRes{dup: n, err: err}
				if err != nil {
					return err
				}
			case r.commit:
				end = &r
				return t.commit(tx)
			default:
				end = &r
				return errRolledBack
			}
		}
	})
	if !opened {
		o.done <- result{err: err}
	}
	if errors.Is(err, errRolledBack) {
		err = nil
	}
	b.err = err
	if b.err == nil && end != nil && !end.commit {
		b.err = errRolledBack
	}
	close(b.ended)
	if end != nil {
		end.done <- batchRes{err: err}
	}
}
