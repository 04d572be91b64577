package store

import (
	"context"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/logic"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// testGradeListing archives graded puzzles, some of them in bulk without a
// grade that SetGrades gives later, and lists them in the grade order and
// by grade range, one page at a time: every page in order, every puzzle in
// its range listed once, the totals exact, the stats' counters right.
func testGradeListing(t *testing.T, bk backend) {
	db := bk.open(t)
	archiveHalfGraded(t, db, 40)
	all := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	st, err := db.Stats(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.Ungraded != 0 || len(st.Grades) == 0 {
		t.Fatalf("stats: %d ungraded, %d grade counters", st.Ungraded, len(st.Grades))
	}
	var counted int64
	for _, g := range st.Grades {
		counted += g.N
	}
	if counted != int64(len(all)) {
		t.Errorf("grade counters hold %d puzzles, want %d", counted, len(all))
	}
	for _, q := range []record.ListQuery{
		{Sort: record.SortGrade, Limit: 7},
		{Sort: record.SortGrade, Desc: true, Limit: 7},
		{Sort: record.SortGrade, Limit: 3, GradeMin: 60, GradeMax: 75},
		{Sort: record.SortClues, Limit: 3, GradeMin: 70},
		{Sort: record.SortDifficulty, Desc: true, Limit: 4, GradeMax: 65, Distinct: true},
	} {
		checkGradeListing(t, db, q, all)
	}
}

// archiveHalfGraded archives n rated puzzles in bulk, every other one
// graded, and then grades the other half through Ungraded and SetGrades.
func archiveHalfGraded(t *testing.T, db *DB, n int) {
	t.Helper()
	ctx := context.Background()
	var ps []record.Puzzle
	for i, r := range puzzletest.RatedPuzzles(t, n) {
		g, _ := sudoku.Parse(r.Puzzle)
		p := rate(t, g)
		if i%2 == 0 {
			logic.GradePuzzle(&p)
		}
		ps = append(ps, p)
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	if got, err := db.CountUngraded(ctx); err != nil || got != int64(n/2) {
		t.Fatalf("%d ungraded (%v), want %d", got, err, n/2)
	}
	pending, err := db.Ungraded(ctx, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	for i := range pending {
		logic.GradePuzzle(&pending[i])
	}
	if err := db.SetGrades(ctx, pending); err != nil {
		t.Fatal(err)
	}
}

// checkGradeListing pages through q: the total and the rows are the
// puzzles of all in q's grade range, and sort=grade keeps its order.
func checkGradeListing(t *testing.T, db *DB, q record.ListQuery, all []record.Puzzle) {
	t.Helper()
	var want int64
	for _, p := range all {
		g := p.GradeTenths()
		if (q.GradeMin == 0 || g >= q.GradeMin) && (q.GradeMax == 0 || g > 0 && g <= q.GradeMax) {
			want++
		}
	}
	var got []record.Puzzle
	for {
		page, err := db.List(context.Background(), q)
		if err != nil {
			t.Fatalf("%+v: %v", q, err)
		}
		if page.Total != want {
			t.Errorf("%+v: total %d, want %d", q, page.Total, want)
		}
		got = append(got, page.Puzzles...)
		if page.NextCursor == "" {
			break
		}
		q.Cursor = page.NextCursor
	}
	if int64(len(got)) != want {
		t.Errorf("%+v: listed %d, want %d", q, len(got), want)
	}
	for i, p := range got {
		if g := p.GradeTenths(); q.GradeMin > 0 && g < q.GradeMin || q.GradeMax > 0 && g > q.GradeMax {
			t.Errorf("%+v: puzzle %d graded %d listed", q, p.ID, g)
		}
		if q.Sort == record.SortGrade && i > 0 {
			a, b := got[i-1].GradeTenths(), p.GradeTenths()
			if q.Desc && a < b || !q.Desc && a > b {
				t.Errorf("%+v: grade %d before %d", q, a, b)
			}
		}
	}
}
