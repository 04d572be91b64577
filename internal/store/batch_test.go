package store

import (
	"context"
	"errors"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

var bySubmission = record.ListQuery{Sort: record.SortSubmitted}

// TestBatch: parts added to a batch are stored in order, once each, with
// repeats (of earlier parts, of the same part, of rows archived before)
// counted as submissions, and all of it appears at Commit only.
func testBatch(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	p := func(n int64) record.Puzzle { return synthetic(n, n%90, 1000+n*n, 1+int(n%9)/8) }
	if _, _, err := db.Submit(ctx, p(5)); err != nil {
		t.Fatal(err)
	}
	b, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var parts [][]record.Puzzle
	for start := int64(1); start <= 300; start += 100 {
		var part []record.Puzzle
		for n := start; n < start+100; n++ {
			part = append(part, p(n))
		}
		parts = append(parts, part)
	}
	parts[1] = append(parts[1], p(150), p(7)) // repeats within the part and of part 1
	for _, part := range parts {
		if err := b.Add(part); err != nil {
			t.Fatal(err)
		}
		clear(part) // Add took a copy
	}
	// Nothing is visible before the commit.
	if got := exportAll(t, db, bySubmission); len(got) != 1 {
		t.Fatalf("%d rows visible before Commit, want 1", len(got))
	}
	dups, err := b.Commit()
	if err != nil {
		t.Fatal(err)
	}
	if dups != 3 { // p(5) archived before, p(150) and p(7) again
		t.Errorf("%d duplicates, want 3", dups)
	}
	rows := exportAll(t, db, bySubmission)
	if len(rows) != 300 {
		t.Fatalf("%d rows, want 300", len(rows))
	}
	// In order of submission: p(5) first, then 1..300 without it.
	if rows[0].Givens != p(5).Givens || rows[1].Givens != p(1).Givens || rows[299].Givens != p(300).Givens {
		t.Errorf("rows out of order: first %s, second %s", rows[0].Givens, rows[1].Givens)
	}
	subs := map[sudoku.Grid]int64{}
	for _, r := range rows {
		subs[r.Givens] = r.Submissions
	}
	for n, want := range map[int64]int64{5: 2, 150: 2, 7: 2, 8: 1} {
		if got := subs[p(n).Givens]; got != want {
			t.Errorf("puzzle %d: %d submissions, want %d", n, got, want)
		}
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d := gocmp.Diff(storetest.StatsOf(rows), st); d != "" {
		t.Errorf("stats (-want +got):\n%s", d)
	}
	if _, err := b.Commit(); err == nil {
		t.Error("second Commit succeeded")
	}
}

// TestBatchRollback: a batch rolled back, cancelled, or failed leaves no
// trace, and the writer serves others again.
func testBatchRollback(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := []record.Puzzle{synthetic(1, 0, 10, 1), synthetic(2, 3, 20, 1)}

	b, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(ps); err != nil {
		t.Fatal(err)
	}
	b.Rollback()
	b.Rollback() // harmless
	if _, err := b.Commit(); err == nil {
		t.Error("Commit after Rollback succeeded")
	}

	cctx, cancel := context.WithCancel(ctx)
	b, err = db.Begin(cctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(ps); err != nil {
		t.Fatal(err)
	}
	cancel()
	<-b.ended // the writer noticed
	if err := b.Add(ps[:1]); !errors.Is(err, context.Canceled) {
		t.Errorf("Add after cancel: %v, want context.Canceled", err)
	}
	if _, err := b.Commit(); !errors.Is(err, context.Canceled) {
		t.Errorf("Commit after cancel: %v, want context.Canceled", err)
	}

	b, err = db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add(ps); err != nil {
		t.Fatal(err)
	}
	bad := synthetic(3, 0, 10, 1)
	bad.Solutions = 0
	if err := b.Add([]record.Puzzle{synthetic(4, 0, 10, 1), bad}); !errors.Is(err, ErrInvalidPuzzle) {
		t.Errorf("Add of an invalid puzzle: %v, want ErrInvalidPuzzle", err)
	}
	if _, err := b.Commit(); err == nil {
		t.Error("Commit after a failed Add succeeded")
	}

	if rows := exportAll(t, db, bySubmission); len(rows) != 0 {
		t.Fatalf("%d rows after three batches that did not commit", len(rows))
	}
	if st, err := db.Stats(ctx); err != nil || st.Total != 0 || st.Submissions != 0 {
		t.Fatalf("stats after no commit: %+v, %v", st, err)
	}
	if _, dup, err := db.Submit(ctx, ps[0]); err != nil || dup {
		t.Fatalf("submit after the batches: dup %v, %v", dup, err)
	}
}

// TestBatchHoldsWriter: a submission made while a batch is open waits for
// the batch and is then committed after it, not lost.
func testBatchHoldsWriter(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	b, err := db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Add([]record.Puzzle{synthetic(1, 0, 10, 1)}); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, dup, err := db.Submit(ctx, synthetic(1, 0, 10, 1))
		if err == nil && !dup {
			err = errors.New("not a duplicate of the batch's puzzle")
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("submit returned while the batch was open: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	if _, err := b.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if rows := exportAll(t, db, bySubmission); len(rows) != 1 || rows[0].Submissions != 2 {
		t.Fatalf("rows %+v, want one puzzle with 2 submissions", rows)
	}
}
