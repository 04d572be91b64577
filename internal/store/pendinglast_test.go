package store

import (
	"context"
	"slices"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// testGradePendingLast archives puzzles of which only some are graded and
// walks the grade order both ways, page by page forward and then back: the
// graded rows come first in either direction (by grade), the ungraded
// after them (by id), every row once, the pages back are the pages
// forward, and an export gives the same rows in the same order.
func testGradePendingLast(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	var ps []record.Puzzle
	for _, r := range puzzletest.RatedPuzzles(t, 30) {
		g, _ := sudoku.Parse(r.Puzzle)
		ps = append(ps, rate(t, g))
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	pending, err := db.Ungraded(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var some []record.Puzzle
	for i := range pending {
		if i%3 != 0 {
			logic.GradePuzzle(&pending[i])
			some = append(some, pending[i])
		}
	}
	if err := db.SetGrades(ctx, some); err != nil {
		t.Fatal(err)
	}
	for _, desc := range []bool{false, true} {
		checkPendingLast(t, db, desc, len(ps))
	}
}

// checkPendingLast walks the grade order (descending if desc) page by page
// forward, checks the n rows, their order and the export's, and walks back
// by the prev cursors to the same pages.
func checkPendingLast(t *testing.T, db *DB, desc bool, n int) {
	t.Helper()
	ctx := context.Background()
	q := record.ListQuery{Sort: record.SortGrade, Desc: desc, Limit: 4}
	var pages [][]record.Puzzle
	var got []record.Puzzle
	var page record.Page
	var err error
	for {
		if page, err = db.List(ctx, q); err != nil {
			t.Fatal(err)
		}
		pages = append(pages, page.Puzzles)
		got = append(got, page.Puzzles...)
		if page.NextCursor == "" {
			break
		}
		q.Cursor = page.NextCursor
	}
	if len(got) != n {
		t.Fatalf("desc %v: listed %d rows, want %d", desc, len(got), n)
	}
	// An export in the same order is the listing's rows in its order.
	exported := exportAll(t, db, record.ListQuery{Sort: record.SortGrade, Desc: desc})
	if !slices.EqualFunc(exported, got, func(a, b record.Puzzle) bool { return a.ID == b.ID }) {
		t.Errorf("desc %v: export in the order %v, listing %v", desc, ids(exported), ids(got))
	}
	checkPendingLastOrder(t, desc, got)
	// Back from the last page to the first, by prev cursors.
	for i := len(pages) - 2; i >= 0; i-- {
		q.Cursor = page.PrevCursor
		if page, err = db.List(ctx, q); err != nil {
			t.Fatal(err)
		}
		if !slices.EqualFunc(page.Puzzles, pages[i], func(a, b record.Puzzle) bool { return a.ID == b.ID }) {
			t.Errorf("desc %v: page %d back holds %v, forward %v", desc, i, ids(page.Puzzles), ids(pages[i]))
		}
	}
}

// checkPendingLastOrder: graded rows first (by grade), the ungraded after
// them (by id).
func checkPendingLastOrder(t *testing.T, desc bool, got []record.Puzzle) {
	t.Helper()
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		switch {
		case a.GradeStatus != record.GradeDone && b.GradeStatus == record.GradeDone:
			t.Errorf("desc %v: %s puzzle %d before graded puzzle %d", desc, a.GradeStatus, a.ID, b.ID)
		case b.GradeStatus != record.GradeDone && a.GradeStatus != record.GradeDone:
			if desc && a.ID < b.ID || !desc && a.ID > b.ID {
				t.Errorf("desc %v: ungraded %d before %d", desc, a.ID, b.ID)
			}
		case a.GradeStatus == record.GradeDone && b.GradeStatus == record.GradeDone:
			if desc && a.GradeTenths() < b.GradeTenths() || !desc && a.GradeTenths() > b.GradeTenths() {
				t.Errorf("desc %v: grade %d before %d", desc, a.GradeTenths(), b.GradeTenths())
			}
		}
	}
}
