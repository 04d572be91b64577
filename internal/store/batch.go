package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// A Batch is one transaction of puzzles, like SubmitMany's, handed to the
// writer in parts: the caller need not hold the whole batch, so a long
// import commits tens of thousands of puzzles at a time in constant memory,
// and the writer stores each part while the next one is being rated.
// Add only queues a part (up to batchQueue of them), so the writer goes
// from one part to the next without waiting for the caller's goroutine to
// be scheduled: with every core rating puzzles, that wait was a few
// milliseconds a part. Nothing of a batch is visible to readers, nor
// durable, before Commit returns nil; Rollback, a failed part, or the end
// of the context given to Begin drops all of it.
//
// While a batch is open the writer serves nobody else: other submissions
// wait for its Commit or Rollback. A batch must end with one of them.
type Batch struct {
	ctx    context.Context
	reqs   chan batchReq // to the writer, in order
	ended  chan struct{} // closed when the writer is done with the batch
	err    error         // why it ended, once ended is closed
	closed bool          // Commit or Rollback was called
	add    bool          // AddMany's rules: repeats are not counted
	// collection, when not 0, is the collection every part's puzzles are
	// filed under (AddPartsTo), set before the first part is sent.
	collection int64
}

// A batchReq is one call on a Batch: a part to add, or its end.
type batchReq struct {
	ps     []record.Puzzle // nil: end the batch
	commit bool
	done   chan batchRes // for the end
	dup    int           // the writer's count, for the answer to commit
	same   int           // the writer's count of equivalents, likewise
}

type batchRes struct {
	dup  int // duplicates in the whole batch
	same int // new puzzles that are another way of writing an archived one
	err  error
}

// batchQueue is how many parts Add queues for the writer.
const batchQueue = 4

// errRolledBack ends a batch by Rollback.
var errRolledBack = errors.New("batch rolled back")

// Begin opens a batch. It waits, as Submit does, until the writer is free.
func (db *DB) Begin(ctx context.Context) (*Batch, error) {
	return db.begin(ctx, false)
}

func (db *DB) begin(ctx context.Context, add bool) (*Batch, error) {
	b := &Batch{ctx: ctx, reqs: make(chan batchReq, batchQueue), ended: make(chan struct{}), add: add}
	if _, err := db.do(ctx, &op{ctx: ctx, w: openBatch{b}}); err != nil {
		return nil, fmt.Errorf("begin batch: %w", err)
	}
	return b, nil
}

// Add queues a copy of ps for the batch (the caller may reuse ps). It
// waits only while batchQueue parts wait already. An error, here or from
// an earlier part, means the batch is over and rolled back.
func (b *Batch) Add(ps []record.Puzzle) error {
	for i, p := range ps {
		if err := check(p); err != nil {
			b.Rollback()
			return fmt.Errorf("puzzle %d of %d: %w", i+1, len(ps), err)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	if b.closed {
		return errors.New("batch already ended")
	}
	select {
	case <-b.ended: // known to be over: say so now
		return fmt.Errorf("batch: %w", b.err)
	default:
	}
	select {
	case b.reqs <- batchReq{ps: variantsUngraded(slices.Clone(ps))}:
		return nil
	case <-b.ended:
		return fmt.Errorf("batch: %w", b.err)
	}
}

// Commit stores the parts still queued, makes the batch durable and ends
// it. It returns how many of the batch's puzzles were duplicates: their
// givens were archived before the batch, or came earlier in it.
func (b *Batch) Commit() (duplicates int, err error) {
	r, err := b.call(batchReq{commit: true})
	return r.dup, err
}

// AddParts is AddMany for a transaction too large to hold as one slice:
// it archives every part that parts yields in one transaction, or none of
// them, and returns how many of those puzzles were duplicates and how many
// of the new ones are another way of writing a puzzle archived before them
// (AddMany's SameAs). The transaction opens before the first part is
// asked for, and the parts are taken on the caller's goroutine, each
// copied, so the caller may reuse a part's slice for the next one (see
// Batch). An error ends parts and rolls everything back.
func (db *DB) AddParts(ctx context.Context, parts iter.Seq[[]record.Puzzle]) (duplicates, equivalents int, err error) {
	return db.addParts(ctx, 0, parts)
}

// addParts is AddParts, filing the puzzles under collection unless it is 0.
func (db *DB) addParts(ctx context.Context, collection int64, parts iter.Seq[[]record.Puzzle]) (duplicates, equivalents int, err error) {
	b, err := db.begin(ctx, true)
	if err != nil {
		return 0, 0, err
	}
	b.collection = collection
	defer b.Rollback()
	for ps := range parts {
		if err = b.Add(ps); err != nil {
			return 0, 0, err
		}
	}
	r, err := b.call(batchReq{commit: true})
	if err != nil {
		return 0, 0, err
	}
	return r.dup, r.same, nil
}

// Rollback drops the batch and ends it; after Commit it does nothing.
func (b *Batch) Rollback() {
	if !b.closed {
		b.call(batchReq{})
	}
}

// call hands r, the batch's end, to the writer and waits for its answer,
// or for the batch to end otherwise.
func (b *Batch) call(r batchReq) (batchRes, error) {
	if b.closed {
		return batchRes{}, errors.New("batch already ended")
	}
	b.closed = true
	r.done = make(chan batchRes, 1)
	select {
	case b.reqs <- r:
	case <-b.ended:
		if !r.commit {
			return batchRes{}, nil // rolled back already
		}
		return batchRes{}, fmt.Errorf("batch: %w", b.err)
	}
	var res batchRes
	select {
	case res = <-r.done:
	case <-b.ended:
		// The writer answers before it marks the batch ended: no answer
		// by then means it stopped before reaching r (a part failed, or
		// the context ended).
		select {
		case res = <-r.done:
		default:
			res.err = b.err
		}
	}
	if res.err != nil {
		return res, fmt.Errorf("batch: %w", res.err)
	}
	return res, nil
}

// runBatch is the writer's side of a batch: one transaction, open until
// the caller commits or rolls back, or its context ends. The batch's Begin
// is answered once the transaction is open.
func (db *DB) runBatch(o *op, b *Batch) {
	var end *batchReq // the Commit or Rollback that ended the batch
	opened := false
	// tryTx, not inTx: the parts taken are not kept, so the transaction
	// cannot be run again. (It locks the counters first, so it meets no
	// deadlock on PostgreSQL.)
	err := db.tryTx(allShards, func(tx *sql.Tx) error {
		opened = true
		o.done <- result{}
		t := db.newTally()
		dups, same := 0, 0
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
				dup, err := db.insertMany(tx, r.ps, &t, !b.add)
				if err != nil {
					return err
				}
				if b.collection != 0 {
					if err := db.linkGivens(tx, b.collection, r.ps); err != nil {
						return err
					}
				}
				for i, d := range dup {
					switch {
					case d:
						dups++
					case r.ps[i].SameAs != nil:
						same++ // its class was archived before the batch
					}
				}
			case r.commit:
				end = &r
				if err := t.commit(tx); err != nil {
					return err
				}
				// The rows link filed: their class is new in the batch.
				end.dup, end.same = dups, same+len(t.linked)
				return nil
			default:
				end = &r
				return errRolledBack
			}
		}
	})
	err = describe(err)
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
	if end != nil {
		end.done <- batchRes{dup: end.dup, same: end.same, err: err} // buffered
	}
	close(b.ended)
}

// variantsUngraded gives the variants of ps (a batch's copy) the grade
// version the row holds (record.VariantUngraded) and returns ps.
func variantsUngraded(ps []record.Puzzle) []record.Puzzle {
	for i := range ps {
		ps[i].SetVariantUngraded()
	}
	return ps
}
