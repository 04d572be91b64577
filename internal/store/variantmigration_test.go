package store

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// testVariantMigration: migrations 00027 and 00028 over an archive of
// 00026 keep its classic row as it was (empty rules and every other column)
// and the collection that holds it; afterwards the CHECK on clues takes 0
// for a variant row only, a store opened on the archive writes a killer
// without givens, and undoing them drops the variant rows and keeps the
// classic one; Open migrates the archive again and writes one at once.
func testVariantMigration(t *testing.T, bk backend) {
	ctx := context.Background()
	dsn := bk.dsn(t)
	rawAt := rawDSN(dsn)
	if !IsPostgres(dsn) {
		rawAt += "?_pragma=foreign_keys(1)" // as Open has them: dropping puzzles would empty its children
	}
	raw, p, d := rawMigrator(t, rawAt)
	if _, err := p.UpTo(ctx, 26); err != nil {
		t.Fatal(err)
	}
	c := classicRow(t)
	for _, q := range []string{
		`INSERT INTO puzzles (givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions, canonical, canonical_key)
			VALUES (?, ?, ?, 17, 1, 0, 0, 1, 1, ?, 0, 1, ?, ?)`,
		`INSERT INTO collections (name, name_key, created_at) VALUES ('A', 'a', 0)`,
		`INSERT INTO collection_puzzles (collection_id, puzzle_id, added_at) SELECT c.id, p.id, 0 FROM collections AS c, puzzles AS p`,
	} {
		var args []any
		if strings.Contains(q, "?") {
			args = []any{c.Givens.String(), c.Givens.Key(), c.Solution.String(), c.EngineVersion, c.Canonical.String(), c.Canonical.Key()}
		}
		if _, err := raw.ExecContext(ctx, d.sql(q), args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatal(err)
	}
	checkVariantColumnsMigrated(t, raw, d)
	raw.Close()
	db := MustOpenDBAt(t, dsn)
	classic, err := db.Puzzle(ctx, 1)
	if err != nil || classic.Rules != "" || classic.Variant != "" || classic.Clues != 17 || classic.FPuzzles != "" {
		t.Errorf("the classic row after 00027: %+v, %v", classic, err)
	}
	for range 3 { // on more than one of the pool's connections
		if _, _, err := db.Submit(ctx, variantRow(t, "killer-nogivens-3")); err != nil {
			t.Fatalf("a killer without givens after 00027: %v", err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	raw, p, _ = rawMigrator(t, rawAt)
	if _, err := p.DownTo(ctx, 26); err != nil {
		t.Fatal(err)
	}
	var n, held int
	if err := raw.QueryRow("SELECT count(*), (SELECT count(*) FROM collection_puzzles) FROM puzzles").Scan(&n, &held); err != nil || n != 1 || held != 1 {
		t.Errorf("after undoing 00027-00028: %d rows, %d in the collection (%v); want the classic one", n, held, err)
	}
	raw.Close()
	// Open migrates it again itself, and writes at once on its pool.
	db = MustOpenDBAt(t, dsn)
	if _, _, err := db.Submit(ctx, variantRow(t, "killer-nogivens-4")); err != nil {
		t.Errorf("a killer without givens after Open's migrations: %v", err)
	}
}

// checkVariantColumnsMigrated checks the classic row and its collection
// after 00027, and the CHECK on clues: 0 for a variant row only.
func checkVariantColumnsMigrated(t *testing.T, raw *sql.DB, d dialect) {
	t.Helper()
	var rules, variant, title string
	var held int
	err := raw.QueryRow("SELECT rules, variant, title, (SELECT count(*) FROM collection_puzzles) FROM puzzles WHERE clues = 17").Scan(&rules, &variant, &title, &held)
	if err != nil || rules != "" || variant != "" || title != "" || held != 1 {
		t.Errorf("classic row after 00027: rules %q variant %q title %q, %d in its collection (%v)", rules, variant, title, held, err)
	}
	// Written in a transaction rolled back: the row is not counted (the
	// store counts its inserts), so deleting it would break the counters.
	zero := d.sql(`INSERT INTO puzzles (givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions, rules)
		VALUES ('z', ?, 's', 0, 1, 0, 0, 1, 1, '2', 0, 1, ?)`)
	for _, rules := range []string{"", `[{"type":"killer"}]`} {
		tx, err := raw.Begin()
		if err != nil {
			t.Fatal(err)
		}
		_, err = tx.Exec(zero, []byte{2}, rules)
		if rules == "" && err == nil {
			t.Error("a classic row with 0 clues was written")
		}
		if rules != "" && err != nil {
			t.Errorf("a variant row with 0 clues: %v", err)
		}
		if err := tx.Rollback(); err != nil {
			t.Fatal(err)
		}
	}
}

// classicRow is a classic puzzle of 17 clues, rated.
func classicRow(t *testing.T) record.Puzzle {
	t.Helper()
	g, err := sudoku.Parse("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
	if err != nil {
		t.Fatal(err)
	}
	p, err := record.Rate(g, sudoku.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}
