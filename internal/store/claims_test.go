package store

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// testGradeClaims: on PostgreSQL a row one handle claimed is not claimed by
// another until released, or until the first handle's session ends; a
// claimed row graded meanwhile is not handed out again. On SQLite nothing is
// shared: ClaimUngraded returns the rows still pending.
func testGradeClaims(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	a, b := MustOpenDBAt(t, dsn), MustOpenDBAt(t, dsn)
	var ps []record.Puzzle
	for _, r := range puzzletest.RatedPuzzles(t, 6) {
		g, _ := sudoku.Parse(r.Puzzle)
		ps = append(ps, rate(t, g))
	}
	if _, err := a.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	ids, err := a.UngradedIDs(ctx, 0, 100)
	if err != nil || len(ids) != len(ps) || !slices.IsSorted(ids) {
		t.Fatalf("UngradedIDs: %v (%v), want %d ids in order", ids, err, len(ps))
	}
	claim := func(db *DB, these, want []int64) []record.Puzzle {
		t.Helper()
		got, err := db.ClaimUngraded(ctx, these)
		if err != nil {
			t.Fatal(err)
		}
		var gotIDs []int64
		for _, p := range got {
			gotIDs = append(gotIDs, p.ID)
		}
		if !slices.Equal(gotIDs, want) {
			t.Fatalf("claimed %v of %v, want %v", gotIDs, these, want)
		}
		return got
	}
	if !a.SharesGrading() { // SQLite: every pending row, to every handle
		claim(a, ids[:3], ids[:3])
		claim(b, ids, ids)
		if err := a.ReleaseClaims(ctx, ids); err != nil {
			t.Fatal(err)
		}
		return
	}
	held := claim(a, ids[:3], ids[:3])
	claim(b, ids, ids[3:])
	claim(a, ids, nil) // b holds ids[3:]; a does not take its own twice
	held = held[:2]
	for i := range held {
		logic.GradePuzzle(&held[i])
	}
	if err := a.SetGrades(ctx, held); err != nil {
		t.Fatal(err)
	}
	if err := a.ReleaseClaims(ctx, ids[:2]); err != nil {
		t.Fatal(err)
	}
	if err := b.ReleaseClaims(ctx, ids[3:]); err != nil {
		t.Fatal(err)
	}
	claim(b, ids, ids[3:]) // ids[:2] graded meanwhile, ids[2] still a's
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	// a's session ended, and its claim with it. The server ends a closed
	// connection's backend on its own time, after Close has returned, so
	// the lock is let go soon after, not at once: b asks again until then.
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, err := b.ClaimUngraded(ctx, ids)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) == 1 && got[0].ID == ids[2] {
			break
		}
		if len(got) != 0 || time.Now().After(deadline) {
			t.Fatalf("claimed %d rows of %v after a closed, want only %d", len(got), ids, ids[2])
		}
		time.Sleep(20 * time.Millisecond)
	}
}
