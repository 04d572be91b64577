package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// testCopyTables: the generic reads and writes of `sudoku copy` carry a
// table's rows as they are (text, bytes, NULLs, floats), read them in key
// order by bytes on both databases (text keys too), and leave the next id
// of a serial table past the copied ones.
func testCopyTables(t *testing.T, bk backend) {
	ctx := context.Background()
	src, dst := bk.open(t), bk.open(t)
	for _, name := range []string{"ann", "Bob", "émile"} {
		if _, err := src.AddUser(ctx, name, "long enough password", account.RolePlayer, moderation.CLI()); err != nil {
			t.Fatal(err)
		}
	}
	_, hash := account.NewAPIToken()
	if err := src.write(ctx, func(tx *sql.Tx) error {
		for _, q := range []string{
			"INSERT INTO player_techniques (player_id, technique, hints, gave_up) VALUES (1, 'b', 1, 0), (1, 'B', 2, 0), (1, 'é', 3, 1), (1, 'X-Wing', 4, 0), (1, 'a', 5, 0)",
			"UPDATE players SET skill = 1.25, password = NULL WHERE id = 2",
		} {
			if _, err := tx.Exec(q); err != nil {
				return err
			}
		}
		_, err := tx.Exec(src.d.sql("INSERT INTO tokens (token_hash, player_id, created_at) VALUES (?, 3, 42)"), hash)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if bk.name == "postgres" {
		// A database's default collation orders text by language (the
		// test clusters' is C): ReadRows must order by bytes whatever it is.
		for _, db := range []*DB{src, dst} {
			if err := db.write(ctx, func(tx *sql.Tx) error {
				_, err := tx.Exec(`ALTER TABLE player_techniques ALTER COLUMN technique TYPE TEXT COLLATE "und-x-icu"`)
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	tables := map[string]Table{}
	for _, tb := range CopiedTables {
		tables[tb.Name] = tb
	}
	read := func(db *DB, tb Table, cols []string) [][]any {
		t.Helper()
		var rows [][]any
		if err := db.ReadRows(ctx, tb, cols, func(r []any) error { rows = append(rows, r); return nil }); err != nil {
			t.Fatal(err)
		}
		return rows
	}
	for _, name := range []string{"players", "tokens", "player_techniques"} {
		tb := tables[name]
		cols, err := src.Columns(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		rows := read(src, tb, cols)
		if err := dst.InsertRows(ctx, tb, cols, rows); err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(rows, read(dst, tb, cols)); d != "" {
			t.Errorf("%s (-source +copy):\n%s", name, d)
		}
	}
	var order []string
	for _, r := range read(dst, tables["player_techniques"], []string{"technique"}) {
		order = append(order, r[0].(string))
	}
	if want := []string{"B", "X-Wing", "a", "b", "é"}; !slices.Equal(order, want) {
		t.Errorf("text keys read in the order %q, want %q (by bytes)", order, want)
	}
	if _, err := dst.Columns(ctx, "no_such_table"); err == nil {
		t.Error("the columns of a table that does not exist: no error")
	}
	p, err := dst.AddUser(ctx, "new", "long enough password", account.RolePlayer, moderation.CLI())
	if err != nil || p.ID != 4 {
		t.Errorf("a player made after the copy: id %d, %v; want id 4", p.ID, err)
	}
}

// notCopied are the tables a copy neither writes row for row nor compares
// as rows, and why: a table a migration adds must be put in CopiedTables,
// DerivedTables or here (TestCopyCoversEveryTable).
var notCopied = map[string]string{
	"settings":         "written apart (PutSettings) and compared as a map",
	"counts":           "the tally's, compared as Stats",
	"stat_buckets":     "the tally's, compared as Stats",
	"stat_edges":       "the histograms' fixed edges, made by the migrations",
	"grade_counts":     "the tally's, compared as Stats",
	"login_failures":   "the throttle's last fifteen minutes: a moved archive starts with none",
	"goose_db_version": "the migrations' own",
	"servers":          "the servers running on this archive (migration 00020), not the copy's",
}

// TestCopyCoversEveryTable: every table of the schema is copied, derived
// and compared, or named in notCopied (TestSchemaParity keeps PostgreSQL's
// tables the same).
func TestCopyCoversEveryTable(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDBAt(t, filepath.Join(t.TempDir(), "sudoku.db"))
	tables, err := strings2(ctx, db.reader, "SELECT name, '' FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tb := range slices.Concat(CopiedTables, DerivedTables) {
		if listed[tb.Name] {
			t.Errorf("%s is listed twice", tb.Name)
		}
		listed[tb.Name] = true
		if _, err := db.Columns(ctx, tb.Name); err != nil {
			t.Error(err)
		}
	}
	for _, tb := range tables {
		if !listed[tb[0]] && notCopied[tb[0]] == "" {
			t.Errorf("sudoku copy knows nothing of the table %s: list it in CopiedTables or DerivedTables (tables.go), or in notCopied with the reason", tb[0])
		}
		if listed[tb[0]] && notCopied[tb[0]] != "" {
			t.Errorf("%s is both copied and not", tb[0])
		}
	}
}
