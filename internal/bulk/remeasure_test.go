package bulk

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/migrations"
)

// relabel writes g another way: its digits relabelled and its rows turned
// upside down within the grid (bands and rows within bands reversed).
func relabel(g sudoku.Grid, rng *rand.Rand) sudoku.Grid {
	t := sudoku.Identity
	t.Rows = [9]uint8{8, 7, 6, 5, 4, 3, 2, 1, 0}
	for i, d := range rng.Perm(9) {
		t.Digits[i+1] = uint8(d + 1)
	}
	return t.Apply(g)
}

// TestRemeasure turns an archive back into one written by engine 1 (other
// measures, no canonical forms, no classes), then measures it again: the
// pass is interrupted after a page, resumed, and must end with every row
// as a fresh archive of the same puzzles would hold it, classes and counts
// included, and no row lost. It runs on SQLite and on PostgreSQL (where
// the counters' triggers are plpgsql).
func TestRemeasure(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "old.db")
		testRemeasure(t, path, "sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.NewDB(t)
		testRemeasure(t, dsn, "pgx", dsn)
	})
}

// testRemeasure runs on the archive at path, which driver opens at raw.
func testRemeasure(t *testing.T, path, driver, rawDSN string) {
	ctx := context.Background()
	db := mustOpenDB(t, path)
	rng := rand.New(rand.NewPCG(3, 4))
	var ps []record.Puzzle
	for i, line := range puzzletest.Lines(t, puzzletest.Top1465, 40) {
		g, _ := sudoku.Parse(line)
		if i%4 == 3 {
			g = relabel(ps[i-1].Givens, rng) // the same puzzle as the one before
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	want := exportRows(t, db)
	wantStats, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}

	makeStale(t, driver, rawDSN)

	n, err := db.CountStale(ctx)
	if err != nil || n != int64(len(ps)) {
		t.Fatalf("%d stale rows (%v), want %d", n, err, len(ps))
	}
	// Interrupted after the first page of 8.
	cctx, cancel := context.WithCancel(ctx)
	_, err = Remeasure(cctx, db, sudoku.Options{}, PassOptions{Page: 8, Progress: func(done, total int64) {
		if done >= 8 {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted pass: %v", err)
	}
	if n, _ := db.CountStale(ctx); n == 0 || n == int64(len(ps)) {
		t.Fatalf("%d rows stale after the interrupted pass, want some but not all", n)
	}
	if _, err := Remeasure(ctx, db, sudoku.Options{}, PassOptions{Page: 8}); err != nil {
		t.Fatal(err)
	}
	if n, _ := db.CountStale(ctx); n != 0 {
		t.Fatalf("%d rows stale after the pass", n)
	}
	got := exportRows(t, db)
	ignore := cmp.FilterPath(func(p cmp.Path) bool {
		f := p.Last().String()
		return f == ".SolveNS" || f == ".SubmittedAt"
	}, cmp.Ignore())
	if d := cmp.Diff(want, got, ignore); d != "" {
		t.Errorf("rows after the upgrade (-fresh +upgraded):\n%s", d)
	}
	gotStats, err := db.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Solve times differ from run to run; the rest of the counts must not.
	wantStats.SolveTime, gotStats.SolveTime = nil, nil
	if d := cmp.Diff(wantStats, gotStats); d != "" {
		t.Errorf("stats after the upgrade (-fresh +upgraded):\n%s", d)
	}
}

// makeStale writes, behind the store's back, what an older engine left:
// every row measured by engine version 1 with other figures, no classes.
func makeStale(t *testing.T, driver, rawDSN string) {
	t.Helper()
	raw, err := sql.Open(driver, rawDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	for _, q := range []string{
		`UPDATE puzzles SET engine_version = '1', backtracks = backtracks * 3 + 1, guesses = guesses + 1,
			canonical = NULL, canonical_key = NULL, same_as = NULL`,
		`DELETE FROM classes`,
		migrations.Recount,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
}

func exportRows(tb testing.TB, db *store.DB) []record.Puzzle {
	tb.Helper()
	var ps []record.Puzzle
	if err := db.Export(context.Background(), record.ListQuery{Sort: record.SortSubmitted}, func(p record.Puzzle) error {
		ps = append(ps, p)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return ps
}
