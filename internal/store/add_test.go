package store

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestAddMany: AddMany archives what is new and leaves what is archived
// already, repeats within ps included, with no submission counted.
func testAddMany(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := norvig(t, 3)
	if _, _, err := db.Submit(ctx, ps[0]); err != nil {
		t.Fatal(err)
	}
	dup, err := db.AddMany(ctx, append(ps, ps[1]))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]bool{true, false, false, true}, dup); diff != "" {
		t.Errorf("duplicates (-want +got):\n%s", diff)
	}
	n := 0
	err = db.Export(ctx, sudoku.ListQuery{Sort: sudoku.SortSubmitted}, func(p sudoku.Puzzle) error {
		n++
		if p.Submissions != 1 {
			t.Errorf("puzzle %s: %d submissions, want 1", p.Givens, p.Submissions)
		}
		return nil
	})
	if err != nil || n != 3 {
		t.Fatalf("export: %d puzzles, %v; want 3", n, err)
	}
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Total != 3 || st.Submissions != 3 {
		t.Errorf("stats: %d puzzles, %d submissions; want 3 and 3", st.Total, st.Submissions)
	}
}
