package store

import (
	"context"
	"database/sql"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// oldSchema is the schema of the tests' older binary: the newest
// migration before which this package's code no longer runs (00027 made
// the variant columns, which every read and write of a puzzle names;
// 00022 made puzzle_figures before it). Its servers register (00020) and
// name their connections, as released binaries since then do.
const oldSchema = 27

// openOld opens dsn as a server of the older binary would: migrated up to
// oldSchema at most, refusing a newer one.
func openOld(tb testing.TB, dsn string) (*DB, error) {
	tb.Helper()
	return OpenWith(context.Background(), dsn, OpenOptions{schema: oldSchema})
}

// oldGraded fills a new database at dsn as the older binary would leave
// it: n puzzles, graded by another solver version than "new-solver".
func oldGraded(t *testing.T, dsn string, n int64) {
	t.Helper()
	ctx := context.Background()
	old, err := openOld(t, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	ps := make([]record.Puzzle, n)
	for i := range ps {
		ps[i] = synthetic(int64(i)+1, 1, 1, 1)
	}
	if _, err := old.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	err = old.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.Exec("UPDATE puzzles SET grade_version = 'old-solver'")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// startServer is what `sudoku serve` does with the archive before it
// listens (cmd/sudoku's openArchive): open holding the start-up lock,
// withdraw the grades of the old solver, let the next server go on.
func startServer(ctx context.Context, dsn string, log *jsonLog) (*DB, int64, error) {
	db, err := OpenWith(ctx, dsn, OpenOptions{Logger: log.logger(), HoldStartup: true})
	if err != nil {
		return nil, 0, err
	}
	defer db.EndStartup()
	n, err := db.ResetGrades(ctx, "new-solver")
	if err != nil {
		db.Close()
		return nil, 0, err
	}
	return db, n, nil
}

// TestStartTogetherPostgres is issue 50's item 7: two new servers started
// together on a database an older binary left. One migrates and withdraws
// the old grades; the other waits for it (the start-up lock), finds both
// done, and serves: no "lock timeout", no "migrated from=22 to=22".
func TestStartTogetherPostgres(t *testing.T) {
	t.Parallel()
	pgtest.Shared(t)
	ctx := context.Background()
	const rows = 2000
	dsn := pgtest.NewDB(t)
	oldGraded(t, dsn, rows)

	var logs [2]jsonLog
	var dbs [2]*DB
	var reset [2]int64
	var errs [2]error
	var wg sync.WaitGroup
	go1 := make(chan struct{})
	for i := range 2 {
		wg.Go(func() {
			<-go1
			dbs[i], reset[i], errs[i] = startServer(ctx, dsn, &logs[i])
		})
	}
	close(go1)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("server %d: %v", i, err)
		}
		defer dbs[i].Close()
	}
	if reset[0]+reset[1] != rows || reset[0] != 0 && reset[1] != 0 {
		t.Errorf("grades withdrawn: %d and %d, want %d by one server", reset[0], reset[1], rows)
	}
	migrated := 0
	for i := range logs {
		for _, l := range logs[i].lines(t, "database schema migrated") {
			migrated++
			if l["from"] != float64(oldSchema) || l["to"] != float64(dbs[i].schema) {
				t.Errorf("server %d logged %v, want from %d to %d", i, l, oldSchema, dbs[i].schema)
			}
		}
		if other := logs[i].lines(t, "database schema migrated by another process"); len(other) > 0 {
			t.Errorf("server %d: %v", i, other)
		}
	}
	if migrated != 1 {
		t.Errorf("%d servers logged a migration, want 1:\n%s\n%s", migrated, logs[0].b.String(), logs[1].b.String())
	}
	for i, db := range dbs {
		if _, _, err := db.Submit(ctx, synthetic(rows+int64(i)+1, 1, 1, 1)); err != nil {
			t.Errorf("server %d serving: %v", i, err)
		}
	}
}

// TestStartLockWaits: a server starting while another holds the start-up
// lock waits until EndStartup, then logs that it waited (and how long)
// and nothing of a migration; the first server's regrade, however long,
// never makes the second's fail on its locks.
func TestStartLockWaits(t *testing.T) {
	t.Parallel()
	pgtest.Shared(t)
	ctx := context.Background()
	dsn := pgtest.NewDB(t)
	oldGraded(t, dsn, 10)
	var first, second jsonLog
	a, err := OpenWith(ctx, dsn, OpenOptions{Logger: first.logger(), HoldStartup: true})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var ended atomic.Bool
	done := make(chan error, 1)
	go func() {
		db, _, err := startServer(ctx, dsn, &second)
		if err == nil {
			if !ended.Load() {
				t.Error("the second server went on before the first ended its start-up")
			}
			defer db.Close()
		}
		done <- err
	}()
	// The first server's regrade, as slow as on the reported archive
	// (35k puzzles): its locks held past the writer's lock_timeout, which
	// the second server's own regrade waited on and failed with before.
	err = a.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec("UPDATE puzzles SET grade_version = NULL WHERE grade_version <> 'new-solver'"); err != nil {
			return err
		}
		time.Sleep(writerBusyTimeout + 500*time.Millisecond)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	ended.Store(true)
	a.EndStartup()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	waited := second.lines(t, "waited for another server's start-up on the database")
	if len(waited) != 1 || waited[0]["seconds"].(float64) <= 0 || waited[0]["schema"] != float64(a.schema) {
		t.Errorf("the second server's lines: %s", second.b.String())
	}
	if len(second.lines(t, "database schema migrated")) != 0 || len(second.lines(t, "migration applied")) != 0 {
		t.Errorf("the second server logged a migration: %s", second.b.String())
	}
}
