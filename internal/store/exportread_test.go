package store

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// testExportInBatches: an export read in statements of a few rows, each
// continuing from the last row's key, and in a new read transaction at
// every chunk, gives every order, both ways, with and without filters,
// exactly what one statement gives; ties of the leading keys included.
func testExportInBatches(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	n := 600
	if testing.Short() {
		// Tie groups of 40 rows and more still span several batches.
		n = 200
	}
	ps := make([]record.Puzzle, n)
	for i := range ps {
		// Few distinct keys: long tie groups across the batches.
		ps[i] = synthetic(int64(i+1), int64(i%5), int64(i%3*1000), 1+i%7/6)
		ps[i].GradeVersion = "test"
		if ps[i].Unique && i%4 != 0 { // a quarter stay ungraded
			ps[i].SetGradeTenths(bandGrades[i%len(bandGrades)])
		}
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	for _, info := range record.SortTable {
		for _, desc := range []bool{false, true} {
			for _, q := range []record.ListQuery{
				{Sort: info.Sort, Desc: desc},
				{Sort: info.Sort, Desc: desc, UniqueOnly: true},
				{Sort: info.Sort, Desc: desc, Band: sudoku.Bands[1].Band},
			} {
				t.Run(fmt.Sprintf("%s/desc=%v/unique=%v/band=%s", q.Sort, q.Desc, q.UniqueOnly, q.Band), func(t *testing.T) {
					db.exportLimit, db.exportAge = 0, 0
					want, wantGivens := exportBoth(t, db, q)
					db.exportLimit, db.exportAge = 7, time.Nanosecond
					got, gotGivens := exportBoth(t, db, q)
					if d := gocmp.Diff(want, got); d != "" {
						t.Errorf("Export in batches of 7 (-one statement +batches):\n%s", d)
					}
					if d := gocmp.Diff(wantGivens, gotGivens); d != "" {
						t.Errorf("ExportGivens in batches of 7 (-one statement +batches):\n%s", d)
					}
				})
			}
		}
	}
}

// exportBoth returns q's Export and ExportGivens.
func exportBoth(t *testing.T, db *DB, q record.ListQuery) ([]record.Puzzle, []sudoku.Grid) {
	t.Helper()
	var gs []sudoku.Grid
	if err := db.ExportGivens(context.Background(), q, func(g sudoku.Grid) error {
		gs = append(gs, g)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return exportAll(t, db, q), gs
}

// TestExportHoldsNoSnapshot: while an export waits for a consumer that
// reads nothing (a stalled download), it holds no read transaction, so
// SQLite can checkpoint and truncate its WAL under it; before issue 38 a
// slow download kept the WAL from being reset and it grew without bound.
// The export then goes on from where it stopped, and also carries the
// puzzles archived meanwhile (later in submission order).
func TestExportHoldsNoSnapshot(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sudoku.db")
	db := MustOpenDBAt(t, path)
	const n = 2000
	ps := make([]record.Puzzle, n)
	for i := range ps {
		ps[i] = synthetic(int64(i+1), int64(i%50), int64(i), 1)
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(100)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()

	first, resume := make(chan struct{}), make(chan struct{})
	var got int
	exported := make(chan error, 1)
	go func() {
		exported <- db.Export(ctx, record.ListQuery{Sort: record.SortSubmitted}, func(record.Puzzle) error {
			if got++; got == 1 {
				close(first)
				<-resume // the consumer stalls
			}
			return nil
		})
	}()
	<-first
	for i := range 20 {
		if _, _, err := db.Submit(ctx, synthetic(int64(n+i+1), 1, 1, 1)); err != nil {
			t.Fatal(err)
		}
	}
	// The reader fills the chunks the consumer may fall behind by, then
	// ends its transaction before it waits: the checkpoint then succeeds.
	deadline := time.Now().Add(20 * time.Second)
	for {
		var busy, log, done int
		if err := raw.QueryRow("PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &log, &done); err != nil {
			t.Fatal(err)
		}
		if busy == 0 && log == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the WAL cannot be truncated while the export waits (busy %d, %d frames): it holds a snapshot", busy, log)
		}
		time.Sleep(10 * time.Millisecond)
	}
	close(resume)
	if err := <-exported; err != nil {
		t.Fatal(err)
	}
	if got != n+20 {
		t.Errorf("exported %d puzzles, want the %d there when it began and the 20 archived while it waited", got, n)
	}
}

// TestTrimWAL: a log grown past walTrimAt while a reader held an old
// snapshot is truncated by the writer's next trim once the reader is gone,
// and not while it is there. One goroutine and the writer's hand-off,
// which every store test under -race goes through, filling 4 MB of log (18
// s under -race): make test's second pass runs it without the detector;
// TestExportHoldsNoSnapshot keeps a checkpoint beside a concurrent export
// in the -race pass.
func TestTrimWAL(t *testing.T) {
	racefree.Only(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sudoku.db")
	db := MustOpenDBAt(t, path)
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	tx, err := raw.Begin()
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := tx.QueryRow("SELECT count(*) FROM puzzles").Scan(&n); err != nil { // the snapshot begins
		t.Fatal(err)
	}
	for i := int64(0); db.WALSize() < walTrimAt; i++ {
		ps := make([]record.Puzzle, 500)
		for j := range ps {
			ps[j] = synthetic(i*500+int64(j)+1, int64(j%50), int64(j), 1)
		}
		if _, err := db.SubmitMany(ctx, ps); err != nil {
			t.Fatal(err)
		}
	}
	trim := func() {
		t.Helper()
		if _, err := db.do(ctx, &op{ctx: ctx, w: maintenance{func(*sql.Conn) error { db.trimWAL(); return nil }}}); err != nil {
			t.Fatal(err)
		}
	}
	trim()
	if db.WALSize() < walTrimAt {
		t.Errorf("WAL trimmed to %d bytes under an open snapshot", db.WALSize())
	}
	tx.Rollback()
	trim()
	if size := db.WALSize(); size != 0 {
		t.Errorf("WAL of %d bytes after the trim, want 0", size)
	}
}
