package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/racefree"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestCollectionIDsNotReused (issue 45): a deleted collection's id, the
// largest, is not given to the next new collection, on both stores (an
// old link would open another collection).
func TestCollectionIDsNotReused(t *testing.T) {
	for _, bk := range []backend{sqliteBackend, pgBackend} {
		t.Run(bk.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := bk.open(t)
			a, err := db.CreateCollection(ctx, record.Collection{Name: "A"})
			if err != nil {
				t.Fatal(err)
			}
			b, err := db.CreateCollection(ctx, record.Collection{Name: "B"})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.DeleteCollection(ctx, b.ID, mod); err != nil {
				t.Fatal(err)
			}
			n, err := db.CreateCollection(ctx, record.Collection{Name: "C"})
			if err != nil {
				t.Fatal(err)
			}
			if n.ID <= b.ID || n.ID == a.ID {
				t.Errorf("new collection got id %d after %d and %d (deleted)", n.ID, a.ID, b.ID)
			}
		})
	}
}

// TestCollectionIDsMigration: SQLite's migration 00023 keeps the
// collections and their puzzles, the reference between them, and never
// gives again an id deleted before it (read from the audit trail). A
// migration walk of one goroutine (20 s under -race): make test's second
// pass runs it without the detector, like the other migration walks.
func TestCollectionIDsMigration(t *testing.T) {
	racefree.Only(t)
	ctx := context.Background()
	dsn := filepath.Join(t.TempDir(), "sudoku.db")
	raw, p, _ := rawMigrator(t, dsn+"?_pragma=foreign_keys(1)")
	if _, err := p.UpTo(ctx, 22); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO collections (id, name, name_key, created_at) VALUES (1, 'A', 'a', 0), (3, 'B', 'b', 0)`,
		`INSERT INTO puzzles (givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions, canonical, canonical_key)
			VALUES ('g', x'01', 's', 17, 1, 0, 0, 1, 1, '2', 0, 1, 'g', x'01')`,
		`INSERT INTO collection_puzzles (collection_id, puzzle_id, added_at) SELECT 3, id, 0 FROM puzzles`,
		`INSERT INTO audit (at, via, action, detail) VALUES (0, 'cli', 'collection_delete', 'collection 7 "Gone" (0 puzzles, which stay archived)')`,
	} {
		if _, err := raw.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	var held int
	var parent string
	if err := raw.QueryRowContext(ctx, "SELECT count(*) FROM collection_puzzles WHERE collection_id = 3").Scan(&held); err != nil || held != 1 {
		t.Errorf("collection 3 holds %d puzzles after the migration (%v), want 1", held, err)
	}
	if err := raw.QueryRowContext(ctx, `SELECT "table" FROM pragma_foreign_key_list('collection_puzzles') WHERE "from" = 'collection_id'`).Scan(&parent); err != nil || parent != "collections" {
		t.Errorf("collection_puzzles refers to %q (%v), want collections", parent, err)
	}
	raw.Close()
	db := MustOpenDBAt(t, dsn)
	n, err := db.CreateCollection(ctx, record.Collection{Name: "C"})
	if err != nil {
		t.Fatal(err)
	}
	if n.ID != 8 {
		t.Errorf("new collection got id %d, want 8 (7 was deleted before the migration)", n.ID)
	}
	if got, err := db.Collection(ctx, 3); err != nil || got.Puzzles != 1 {
		t.Errorf("collection 3 after the migration: %+v, %v", got, err)
	}
}
