package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

func testSubmitDedupes(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	ps := norvig(t, 3)
	before := time.Now().UTC()
	first, dup, err := db.Submit(ctx, ps[0])
	if err != nil {
		t.Fatal(err)
	}
	if dup || first.ID == 0 || first.Submissions != 1 {
		t.Fatalf("first submission: dup %v, id %d, submissions %d", dup, first.ID, first.Submissions)
	}
	if first.SubmittedAt.Before(before.Add(-time.Second)) || first.SubmittedAt.After(time.Now().Add(time.Second)) || first.SubmittedAt.Location() != time.UTC {
		t.Errorf("submitted_at %v is not now in UTC", first.SubmittedAt)
	}
	want := ps[0]
	want.ID, want.SubmittedAt, want.Submissions = first.ID, first.SubmittedAt, 1
	if d := cmp.Diff(want, first); d != "" {
		t.Errorf("stored puzzle (-submitted +stored):\n%s", d)
	}

	// The same givens again, even with other measures: one row, counted.
	again := ps[0]
	again.SolveNS++
	second, dup, err := db.Submit(ctx, again)
	if err != nil {
		t.Fatal(err)
	}
	want.Submissions = 2
	if !dup {
		t.Error("second submission not reported as duplicate")
	}
	if d := cmp.Diff(want, second); d != "" {
		t.Errorf("duplicate (-want +got):\n%s", d)
	}
	got, err := db.Puzzle(ctx, first.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Puzzle (-want +got):\n%s", d)
	}

	other, dup, err := db.Submit(ctx, ps[1])
	if err != nil || dup || other.ID == first.ID {
		t.Errorf("other puzzle: id %d dup %v err %v", other.ID, dup, err)
	}
	page, err := db.List(ctx, record.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != 2 {
		t.Errorf("total %d, want 2", page.Total)
	}
}

func testPuzzleNotFound(t *testing.T, bk backend) {
	db := bk.open(t)
	for _, id := range []int64{0, -1, 1, 1 << 62} {
		p, err := db.Puzzle(context.Background(), id)
		if !errors.Is(err, record.ErrNotFound) {
			t.Errorf("Puzzle(%d) = %+v, %v; want ErrNotFound", id, p, err)
		}
	}
}

func testSubmitRefusesInvalid(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	good := synthetic(7, 0, 1, 1)
	for _, tc := range []struct {
		name   string
		modify func(p *record.Puzzle)
	}{
		{"no givens", func(p *record.Puzzle) { p.Givens = sudoku.Grid{} }},
		{"empty solution", func(p *record.Puzzle) { p.Solution = sudoku.Grid{} }},
		{"incomplete solution", func(p *record.Puzzle) { p.Solution[80] = 0 }},
		{"solution against a given", func(p *record.Puzzle) { p.Solution[0], p.Solution[1] = p.Solution[1], p.Solution[0] }},
		{"no solution count", func(p *record.Puzzle) { p.Solutions = 0 }},
		{"three solutions", func(p *record.Puzzle) { p.Solutions = 3 }},
		{"negative backtracks", func(p *record.Puzzle) { p.Backtracks = -1 }},
		{"cell out of range", func(p *record.Puzzle) { p.Givens[3] = 12 }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := good
			tc.modify(&p)
			if _, _, err := db.Submit(ctx, p); !errors.Is(err, ErrInvalidPuzzle) {
				t.Errorf("Submit: %v, want ErrInvalidPuzzle", err)
			}
			if _, err := db.SubmitMany(ctx, []record.Puzzle{good, p}); !errors.Is(err, ErrInvalidPuzzle) {
				t.Errorf("SubmitMany: %v, want ErrInvalidPuzzle", err)
			}
		})
	}
	if n := len(exportAll(t, db, record.ListQuery{})); n != 0 {
		t.Errorf("%d puzzles stored, want none", n)
	}
}

// testSubmitConcurrent has many goroutines submit overlapping sets of
// puzzles at once: every acknowledged puzzle must be there afterwards, each
// counted exactly as often as it was acknowledged, and nothing may fail.
func testSubmitConcurrent(t *testing.T, bk backend) {
	ctx := context.Background()
	path := bk.dsn(t)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	const workers, each, distinct = 32, 50, 400
	type ack struct {
		p   record.Puzzle
		dup bool
	}
	acks := make([][]ack, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for j := range each {
				n := int64((w*each+j*7)%distinct) + 1
				stored, dup, err := db.Submit(ctx, synthetic(n, n%13, n%5, 1+int(n%4)/3))
				if err != nil {
					t.Errorf("worker %d: %v", w, err)
					return
				}
				acks[w] = append(acks[w], ack{stored, dup})
			}
		})
	}
	wg.Wait()
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db = MustOpenDBAt(t, path)
	want := map[sudoku.Grid]int64{}
	fresh := map[sudoku.Grid]int{}
	ids := map[sudoku.Grid]int64{}
	for _, as := range acks {
		for _, a := range as {
			want[a.p.Givens]++
			if !a.dup {
				fresh[a.p.Givens]++
			}
			if id, ok := ids[a.p.Givens]; ok && id != a.p.ID {
				t.Errorf("%s acknowledged with ids %d and %d", a.p.Givens, id, a.p.ID)
			}
			ids[a.p.Givens] = a.p.ID
		}
	}
	all := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	if len(all) != len(want) {
		t.Errorf("%d rows, want %d", len(all), len(want))
	}
	for _, p := range all {
		if p.Submissions != want[p.Givens] {
			t.Errorf("%s: submissions %d, want %d", p.Givens, p.Submissions, want[p.Givens])
		}
		if fresh[p.Givens] != 1 {
			t.Errorf("%s: reported new %d times", p.Givens, fresh[p.Givens])
		}
	}
	page, err := db.List(ctx, record.ListQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if page.Total != int64(len(want)) {
		t.Errorf("total %d, want %d", page.Total, len(want))
	}
}

// testSubmitBatchIsolatesFailure puts one submission that SQLite refuses
// (it skips the Go-side check) among many good ones: the batch falls back to
// one transaction each, so only the bad one fails.
func testSubmitBatchIsolatesFailure(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	bad := synthetic(999, 0, 0, 1)
	bad.Solutions = 0 // violates the CHECK constraint
	for round := range 5 {
		var wg sync.WaitGroup
		errs := make([]error, 64)
		for i := range errs {
			wg.Go(func() {
				if i == 32 {
					_, errs[i] = db.do(ctx, &op{ctx: ctx, w: submitOne{&bad}})
					return
				}
				_, _, errs[i] = db.Submit(ctx, synthetic(int64(round*100+i+1), 0, 0, 1))
			})
		}
		wg.Wait()
		for i, err := range errs {
			if (err != nil) != (i == 32) {
				t.Errorf("round %d, submission %d: %v", round, i, err)
			}
		}
	}
	if n := len(exportAll(t, db, record.ListQuery{})); n != 5*63 {
		t.Errorf("%d rows, want %d", n, 5*63)
	}
}

func testSubmitMany(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	if _, _, err := db.Submit(ctx, synthetic(2, 0, 0, 1)); err != nil {
		t.Fatal(err)
	}
	batch := []record.Puzzle{
		synthetic(1, 0, 0, 1),
		synthetic(2, 0, 0, 1), // archived before
		synthetic(3, 0, 0, 2),
		synthetic(1, 0, 0, 1), // earlier in the batch
		synthetic(1, 0, 0, 1),
	}
	dup, err := db.SubmitMany(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]bool{false, true, false, true, true}, dup); d != "" {
		t.Errorf("duplicates (-want +got):\n%s", d)
	}
	// Submissions in id order. (Ids only grow, but PostgreSQL's may skip:
	// an insert that conflicts takes one too.)
	var counts []int64
	for _, p := range exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted}) {
		counts = append(counts, p.Submissions)
	}
	if d := cmp.Diff([]int64{2, 3, 1}, counts); d != "" {
		t.Errorf("submissions in id order (-want +got):\n%s", d)
	}
	if dup, err := db.SubmitMany(ctx, nil); err != nil || len(dup) != 0 {
		t.Errorf("empty batch: %v, %v", dup, err)
	}
}

// testSubmitManyAcrossStatements checks the duplicate flags and counts of a
// batch larger than one multi-row statement (the dialect's manyRows), with repeats inside
// one statement's span, across spans and of rows archived before.
func testSubmitManyAcrossStatements(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	if _, _, err := db.Submit(ctx, synthetic(500, 0, 0, 1)); err != nil {
		t.Fatal(err)
	}
	var batch []record.Puzzle
	var want []bool
	seen := map[int64]int64{500: 1} // n -> submissions expected
	add := func(n int64) {
		batch = append(batch, synthetic(n, n%7, n, 1))
		want = append(want, seen[n] > 0)
		seen[n]++
	}
	m := int64(db.d.manyRows)
	for i := range 3*m + 5 {
		add(i + 1)
		switch i {
		case 3, m - 1, m, 2 * m:
			add(1) // a repeat within and across statements
		case 10:
			add(500) // archived before the batch
		}
	}
	dup, err := db.SubmitMany(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, dup); d != "" {
		t.Errorf("duplicates (-want +got):\n%s", d)
	}
	got := map[string]int64{}
	for _, p := range exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted}) {
		got[p.Givens.String()] = p.Submissions
	}
	wantCounts := map[string]int64{}
	for n, c := range seen {
		wantCounts[synthetic(n, 0, 0, 1).Givens.String()] = c
	}
	if d := cmp.Diff(wantCounts, got); d != "" {
		t.Errorf("submissions by givens (-want +got):\n%s", d)
	}
}

// TestFull fills the database to a page limit: writes fail with ErrFull and
// leave nothing behind, reads go on, and writes work again once the limit
// is raised, on the same open DB.
func TestFull(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	for i := range int64(20) {
		if _, _, err := db.Submit(ctx, synthetic(i+1, i, i, 1)); err != nil {
			t.Fatal(err)
		}
	}
	limit, err := db.SetMaxPageCount(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var pages int64
	if err := db.reader.QueryRow("PRAGMA page_count").Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if _, err := db.SetMaxPageCount(ctx, pages); err != nil {
		t.Fatal(err)
	}
	before := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})

	// A big all-or-nothing batch cannot fit.
	var big []record.Puzzle
	for i := range int64(2000) {
		big = append(big, synthetic(1000+i, i, i, 1))
	}
	if _, err := db.SubmitMany(ctx, big); !errors.Is(err, ErrFull) {
		t.Fatalf("SubmitMany on a full database: %v, want ErrFull", err)
	}
	// Concurrent single submissions all fail the same way.
	var wg sync.WaitGroup
	var mu sync.Mutex
	full := 0
	for i := range int64(40) {
		wg.Go(func() {
			_, _, err := db.Submit(ctx, synthetic(5000+i*97, 0, 0, 1))
			mu.Lock()
			defer mu.Unlock()
			switch {
			case errors.Is(err, ErrFull):
				full++
			case err != nil:
				t.Errorf("submit: %v, want ErrFull or success", err)
			}
		})
	}
	wg.Wait()
	if full == 0 {
		t.Error("no submission failed with ErrFull")
	}
	after := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	if len(after) != len(before)+40-full {
		t.Errorf("%d rows after the failures, want %d", len(after), len(before)+40-full)
	}
	page, err := db.List(ctx, record.ListQuery{Limit: 5})
	if err != nil {
		t.Fatalf("list on a full database: %v", err)
	}
	if page.Total != int64(len(after)) {
		t.Errorf("total %d, rows %d", page.Total, len(after))
	}
	if err := db.Ping(ctx); err != nil {
		t.Errorf("ping on a full database: %v", err)
	}

	if _, err := db.SetMaxPageCount(ctx, limit); err != nil {
		t.Fatal(err)
	}
	dup, err := db.SubmitMany(ctx, big)
	if err != nil {
		t.Fatalf("after raising the limit: %v", err)
	}
	if len(dup) != len(big) {
		t.Errorf("%d answers for %d puzzles", len(dup), len(big))
	}
	if n := len(exportAll(t, db, record.ListQuery{})); n != len(after)+len(big) {
		t.Errorf("%d rows, want %d", n, len(after)+len(big))
	}
}

// TestSubmitCancelled: a cancelled context either abandons the submission
// (error, nothing stored) or, if the writer took it first, reports it
// committed. Never an error for a stored puzzle.
func testSubmitCancelled(t *testing.T, bk backend) {
	db := bk.open(t)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	var stored int
	for i := range int64(200) {
		p := synthetic(i+1, 0, 0, 1)
		_, _, err := db.Submit(cancelled, p)
		if err != nil && !errors.Is(err, context.Canceled) {
			t.Fatalf("submit: %v", err)
		}
		if err == nil {
			stored++
		}
		_, dup, err2 := db.Submit(context.Background(), p)
		if err2 != nil {
			t.Fatal(err2)
		}
		if dup != (err == nil) {
			t.Fatalf("submission %d: cancelled call said err=%v, but archived=%v", i, err, dup)
		}
	}
	t.Logf("%d of 200 cancelled submissions were taken by the writer first", stored)
}

// testCloseDrains closes the store while submissions are in flight: every
// one acknowledged is in the file afterwards, the rest fail with ErrClosed.
func testCloseDrains(t *testing.T, bk backend) {
	ctx := context.Background()
	path := bk.dsn(t)
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var acked []int64
	for w := range int64(16) {
		wg.Go(func() {
			for j := range int64(100) {
				stored, _, err := db.Submit(ctx, synthetic(w*100+j+1, 0, 0, 1))
				if errors.Is(err, ErrClosed) {
					return
				}
				if err != nil {
					t.Errorf("submit: %v", err)
					return
				}
				mu.Lock()
				acked = append(acked, stored.ID)
				mu.Unlock()
			}
		})
	}
	// Close once the submissions are under way (some acknowledged, most
	// not): an event, not 20 ms that a loaded machine may spend before
	// the first one.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(acked)
		mu.Unlock()
		if n >= 16 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d submissions acknowledged in a minute", n)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	db = MustOpenDBAt(t, path)
	for _, id := range acked {
		if _, err := db.Puzzle(ctx, id); err != nil {
			t.Errorf("acknowledged puzzle %d: %v", id, err)
		}
	}
	if n := len(exportAll(t, db, record.ListQuery{})); n != len(acked) {
		t.Errorf("%d rows, %d acknowledged", n, len(acked))
	}
	t.Logf("%d submissions acknowledged before close", len(acked))
}

func ExampleDB_Submit() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "sudoku-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	db, err := Open(ctx, filepath.Join(dir, "example.db"))
	if err != nil {
		panic(err)
	}
	defer db.Close()
	g, _ := sudoku.Parse("..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
	p, _ := record.Rate(g, sudoku.Options{})
	stored, dup, _ := db.Submit(ctx, p)
	fmt.Println(stored.ID, dup, stored.Submissions)
	stored, dup, _ = db.Submit(ctx, p)
	fmt.Println(stored.ID, dup, stored.Submissions)
	// Output:
	// 1 false 1
	// 1 true 2
}

// TestSubmitWaitsForAnotherWriter: another connection (say `sudoku import`
// in another process) holding the write lock delays a submission instead of
// failing it with SQLITE_BUSY.
func TestSubmitWaitsForAnotherWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sudoku.db")
	db := MustOpenDBAt(t, path)
	other, err := sql.Open("sqlite", "file:"+path+"?_txlock=immediate&_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	tx, err := other.Begin()
	if err != nil {
		t.Fatal(err)
	}
	p := synthetic(1, 0, 0, 1)
	if _, err := tx.Exec(`INSERT INTO puzzles (givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at)
		VALUES (?, ?, ?, ?, 1, 0, 0, 1, 0, 'other', 0)`, p.Givens.String(), p.Givens.Key(), p.Solution.String(), p.Clues); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		_, dup, err := db.Submit(ctx, p)
		if err == nil && !dup {
			err = errors.New("not a duplicate of the other writer's row")
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("submit returned while another writer held the lock: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestBulkCache checks that a large SubmitMany grows the writer's page cache
// and checkpoint interval and that both go back once the writer is idle,
// while small writes leave them alone.
func TestBulkCache(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	pragma := func(name string) int {
		t.Helper()
		var n int
		if _, err := db.do(ctx, &op{ctx: ctx, w: maintenance{func(conn *sql.Conn) error {
			return conn.QueryRowContext(ctx, "PRAGMA "+name).Scan(&n)
		}}}); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if got := pragma("wal_autocheckpoint"); got != writerCheckpoint {
		t.Errorf("wal_autocheckpoint at start = %d, want %d", got, writerCheckpoint)
	}
	cacheSize := func() int { t.Helper(); return pragma("cache_size") }
	small := make([]record.Puzzle, bulkRows-1)
	for i := range small {
		small[i] = synthetic(int64(i+1), 0, 0, 1)
	}
	if _, err := db.SubmitMany(ctx, small); err != nil {
		t.Fatal(err)
	}
	if got := cacheSize(); got != writerCache {
		t.Errorf("cache_size after %d puzzles = %d, want %d", len(small), got, writerCache)
	}
	large := make([]record.Puzzle, bulkRows)
	for i := range large {
		large[i] = synthetic(int64(bulkRows+i+1), 0, 0, 1)
	}
	if _, err := db.SubmitMany(ctx, large); err != nil {
		t.Fatal(err)
	}
	if got := cacheSize(); got != bulkCache {
		t.Errorf("cache_size after %d puzzles = %d, want %d", len(large), got, bulkCache)
	}
	if got := pragma("wal_autocheckpoint"); got != bulkCheckpoint {
		t.Errorf("wal_autocheckpoint after %d puzzles = %d, want %d", len(large), got, bulkCheckpoint)
	}
	deadline := time.Now().Add(10 * bulkIdle)
	for cacheSize() != writerCache {
		if time.Now().After(deadline) {
			t.Fatalf("cache_size still %d after %v idle, want %d", cacheSize(), 10*bulkIdle, writerCache)
		}
		time.Sleep(bulkIdle / 4)
	}
	if got := pragma("wal_autocheckpoint"); got != writerCheckpoint {
		t.Errorf("wal_autocheckpoint after the bulk = %d, want %d", got, writerCheckpoint)
	}
}
