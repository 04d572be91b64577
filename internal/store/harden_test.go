package store

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestExportCancelledIsAnError: an export whose context ends part way
// (a deadline, a client gone) returns an error, for every kind of export
// and wherever it is cut. It used to end quietly with nil, and a server
// answered 200 with a well-formed, truncated body.
func testExportCancelledIsAnError(t *testing.T, bk backend) {
	db := bk.open(t)
	n := 6 * exportChunk
	ps := make([]record.Puzzle, n)
	for i := range ps {
		ps[i] = synthetic(int64(i+1), int64(i%50), int64(i*31%1000), 1)
	}
	if _, err := db.SubmitMany(context.Background(), ps); err != nil {
		t.Fatal(err)
	}
	for _, at := range []int{1, exportChunk - 1, exportChunk, 2*exportChunk + 7} {
		for _, givens := range []bool{false, true} {
			ctx, cancel := context.WithCancel(context.Background())
			got := 0
			each := func() error {
				if got++; got == at {
					cancel()
					// Let database/sql see the end of the context and
					// close the rows under the reader.
					time.Sleep(20 * time.Millisecond)
				}
				return nil
			}
			var err error
			if givens {
				err = db.ExportGivens(ctx, record.ListQuery{}, func(sudoku.Grid) error { return each() })
			} else {
				err = db.Export(ctx, record.ListQuery{}, func(record.Puzzle) error { return each() })
			}
			cancel()
			if got < n && err == nil {
				t.Errorf("givens=%v cancelled at %d: handed %d of %d rows and returned nil", givens, at, got, n)
			}
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("givens=%v cancelled at %d: %v, want context.Canceled", givens, at, err)
			}
		}
	}
}

// TestSubmitBusy: while another connection holds the write lock, Submit
// fails with ErrBusy (which says when to retry) within about
// writerBusyTimeout, instead of an unclassified error after 10 s; and
// writes succeed again once the lock is released.
func TestSubmitBusy(t *testing.T) {
	old := writerBusyTimeout
	writerBusyTimeout = 200 * time.Millisecond
	t.Cleanup(func() { writerBusyTimeout = old })
	path := filepath.Join(t.TempDir(), "sudoku.db")
	db := MustOpenDBAt(t, path)

	other, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.Begin() // BEGIN IMMEDIATE: takes the write lock
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, _, err = db.Submit(context.Background(), synthetic(1, 1, 1, 1))
	t.Logf("Submit under a held lock failed after %v: %v", time.Since(start).Round(time.Millisecond), err)
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("Submit under a held lock: %v, want ErrBusy", err)
	}
	var ue *UnavailableError
	if !errors.As(err, &ue) || ue.RetryAfter() <= 0 {
		t.Errorf("ErrBusy does not say when to retry: %#v", ue)
	}
	if _, err := db.SubmitMany(context.Background(), []record.Puzzle{synthetic(2, 1, 1, 1)}); !errors.Is(err, ErrBusy) {
		t.Errorf("SubmitMany under a held lock: %v, want ErrBusy", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := db.Submit(context.Background(), synthetic(1, 1, 1, 1)); err != nil {
		t.Errorf("Submit once the lock is free: %v", err)
	}
}
