package store

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/migrations"
)

// randomGrids returns n distinct grids with every clue count from 1 to 81 and
// digits at random, or those of storetest.Solved when solved is set (so
// that it solves them), then two more that differ from the first by one
// cell each.
func randomGrids(n int, solved bool) []sudoku.Grid {
	r := rand.New(rand.NewPCG(6, 6))
	gs := make([]sudoku.Grid, 0, n+2)
	seen := map[sudoku.Grid]bool{}
	for i := 0; len(gs) < n; i++ {
		var g sudoku.Grid
		for _, c := range r.Perm(81)[:1+i%81] {
			g[c] = uint8(1 + r.IntN(9))
			if solved {
				g[c] = storetest.Solved[c]
			}
		}
		if !seen[g] {
			seen[g] = true
			gs = append(gs, g)
		}
	}
	for c := 0; c < 81 && len(gs) < n+2; c++ {
		if gs[0][c] == 0 {
			g := gs[0]
			g[c] = storetest.Solved[c]
			gs = append(gs, g)
		}
	}
	return gs
}

// TestMigrationGivensKey: migration 00006 computes in SQL, for the rows a
// database held before it, the very keys the store writes, so that old rows
// and new submissions of the same givens meet as duplicates.
func TestMigrationGivensKey(t *testing.T) {
	racefree.Only(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v5.db")
	raw := rawDB(t, path)
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	gs := randomGrids(400, true)
	for _, g := range gs {
		if _, err := raw.Exec(`INSERT INTO puzzles (givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at)
			VALUES (?, ?, ?, 1, 3, 1, 2, 1000, 'old', 0)`, g.String(), storetest.Solved.String(), g.Clues()); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()

	db := MustOpenDBAt(t, path)
	rows, err := db.reader.Query("SELECT givens, givens_key FROM puzzles ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		var s string
		var k []byte
		if err := rows.Scan(&s, &k); err != nil {
			t.Fatal(err)
		}
		g, err := gridOf(s)
		if err != nil {
			t.Fatal(err)
		}
		if want := g.Key(); !bytes.Equal(k, want) {
			t.Errorf("%s: migrated key % x, store's % x", s, k, want)
		}
		n++
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	rows.Close()
	if n != len(gs) {
		t.Fatalf("%d rows after migrating, want %d", n, len(gs))
	}
	// The same givens submitted again are duplicates of the old rows.
	ps := make([]record.Puzzle, len(gs))
	for i, g := range gs {
		ps[i] = record.Puzzle{Givens: g, Canonical: g, Solution: storetest.Solved, Clues: g.Clues(), Solutions: 1, Unique: true, EngineVersion: "new"}
	}
	dup, err := db.SubmitMany(ctx, ps)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range dup {
		if !d {
			t.Errorf("%s not a duplicate of its migrated row", gs[i])
		}
	}
}

// TestMigrationGivensKeyDown: migration 00006 can be undone, keeping every
// row, and done again.
func TestMigrationGivensKeyDown(t *testing.T) {
	racefree.Only(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v6.db")
	db := MustOpenDBAt(t, path)
	gs := randomGrids(50, true)
	ps := make([]record.Puzzle, len(gs))
	for i, g := range gs {
		ps[i] = record.Puzzle{Givens: g, Canonical: g, Solution: storetest.Solved, Clues: g.Clues(), Solutions: 1, Unique: true, Backtracks: int64(i), EngineVersion: "v6"}
	}
	if _, err := db.SubmitMany(ctx, ps); err != nil {
		t.Fatal(err)
	}
	want := exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	raw := rawDB(t, path)
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.DownTo(ctx, 5); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM puzzles").Scan(&n); err != nil || n != len(gs) {
		t.Fatalf("%d rows after undoing 00006 (%v), want %d", n, err, len(gs))
	}
	// Version 5's unique givens text is back.
	if _, err := raw.Exec(`INSERT INTO puzzles (givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at)
		VALUES (?, ?, ?, 1, 0, 0, 1, 0, 'v5', 0)`, gs[0].String(), storetest.Solved.String(), gs[0].Clues()); err == nil {
		t.Error("version 5 took the same givens twice")
	}
	raw.Close()

	// Undoing 00007 on the way drops the canonical forms: the next start
	// measures those rows again (openArchive), like any older archive.
	for i := range want {
		want[i].Canonical, want[i].SameAs = sudoku.Grid{}, nil
	}
	db = MustOpenDBAt(t, path)
	if d := gocmp.Diff(want, exportAll(t, db, record.ListQuery{Sort: record.SortSubmitted})); d != "" {
		t.Errorf("rows after undoing and redoing 00006 (-before +after):\n%s", d)
	}
	if dup, err := db.SubmitMany(ctx, ps[:5]); err != nil || slices.Contains(dup, false) {
		t.Errorf("resubmitted after the round trip: dup %v, %v", dup, err)
	}
}
