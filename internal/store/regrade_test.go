package store

import (
	"context"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/bulk"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// TestRegradeKeepsBands: after a new solver version, the background
// regrade (bulk.Regrader over StaleGrades and SetGrades) leaves every row in
// its band list, with its old grade, until its new grade is committed:
// half-way through the pass both bands together hold every puzzle, and
// the counts agree with the lists (issue 50: an upgrade emptied the band
// lists for hours). Both stores.
func TestRegradeKeepsBands(t *testing.T) {
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		t.Run(bk.name, func(t *testing.T) {
			t.Parallel()
			regradeKeepsBands(t, bk.open(t))
		})
	}
}

func regradeKeepsBands(t *testing.T, db *DB) {
	ctx := context.Background()
	const n = 40
	all := techGradedArchive(t, db, n) // graded by the current solver
	easy := make([]record.Puzzle, 0, n)
	for _, p := range all {
		if p.GradeVersion == "" {
			continue
		}
		p.GradeVersion = "old"
		p.SetGradeTenths(15) // easy, by the old solver
		easy = append(easy, p)
	}
	if err := db.SetGrades(ctx, easy); err != nil {
		t.Fatal(err)
	}
	graded := len(easy)
	checkBands(t, db, "before", map[sudoku.Band]int{sudoku.BandEasy: graded})
	if left, err := db.CountStaleGrades(ctx, "new"); err != nil || left != int64(graded) {
		t.Fatalf("CountStaleGrades: %d, %v; want %d", left, err, graded)
	}

	// The new solver finds every puzzle hard. Half-way, the pass waits for
	// the checks.
	half, resume := make(chan struct{}), make(chan struct{})
	calls := 0
	r := &bulk.Regrader{DB: db, Version: "new", Workers: 1, Grade: func(p *record.Puzzle) {
		if calls++; calls == graded/2+1 {
			close(half)
			<-resume
		}
		p.GradeVersion = "new"
		p.SetGradeTenths(40)
		p.SetGradeStatus()
	}}
	done := make(chan error, 1)
	go func() {
		_, err := r.Run(ctx)
		done <- err
	}()
	<-half
	moved := checkBands(t, db, "half-way", nil)
	if moved[sudoku.BandEasy]+moved[sudoku.BandHard] != graded {
		t.Errorf("half-way: easy %d + hard %d, want every one of the %d graded puzzles in a band", moved[sudoku.BandEasy], moved[sudoku.BandHard], graded)
	}
	close(resume)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	checkBands(t, db, "after", map[sudoku.Band]int{sudoku.BandHard: graded})
	if left, err := db.CountStaleGrades(ctx, "new"); err != nil || left != 0 {
		t.Errorf("after the regrade: %d stale, %v", left, err)
	}
}

// checkBands lists each band whole and compares it with the stats' band
// counts and, when want is not nil, with want; it returns the lists'
// sizes.
func checkBands(t *testing.T, db *DB, when string, want map[sudoku.Band]int) map[sudoku.Band]int {
	t.Helper()
	ctx := context.Background()
	st, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	counts := st.BandCounts()
	got := map[sudoku.Band]int{}
	for i, b := range sudoku.Bands {
		listed := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted, Band: b.Band})
		got[b.Band] = len(listed)
		if int64(len(listed)) != counts[i] {
			t.Errorf("%s: band %s lists %d puzzles, the stats count %d", when, b.Band, len(listed), counts[i])
		}
		if want != nil && len(listed) != want[b.Band] {
			t.Errorf("%s: band %s lists %d puzzles, want %d", when, b.Band, len(listed), want[b.Band])
		}
	}
	return got
}
