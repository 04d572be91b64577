package store

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/pgtest"
	"github.com/sudoku-archive/sudoku/migrations"
)

// A schema is what the parity test compares of a database: each table's
// columns and its indexes by name (those the schema names; the indexes
// behind primary keys and UNIQUE constraints are the database's own).
type schema struct {
	columns map[string][]string // by table, sorted
	indexes map[string]string   // index name -> its table
}

// ignoredTables are the tables that are not the archive's: goose's own.
var ignoredTables = map[string]bool{"goose_db_version": true}

// TestSchemaParity migrates a fresh SQLite archive and a fresh PostgreSQL
// archive and checks that they have the same tables, the same columns and
// the same indexes by name, listing every difference; and that the puzzle
// row's columns (puzzleColumns) are the puzzles table's.
func TestSchemaParity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	lite := MustOpenDBAt(t, filepath.Join(t.TempDir(), "sudoku.db"))
	ls, err := sqliteSchema(ctx, lite.reader)
	if err != nil {
		t.Fatal(err)
	}
	checkPuzzleColumns(t, "SQLite", ls)
	pg := MustOpenDBAt(t, pgtest.NewDB(t))
	ps, err := postgresSchema(ctx, pg.reader)
	if err != nil {
		t.Fatal(err)
	}
	checkPuzzleColumns(t, "PostgreSQL", ps)
	t.Logf("SQLite: %d tables, %d indexes; PostgreSQL: %d tables, %d indexes", len(ls.columns), len(ls.indexes), len(ps.columns), len(ps.indexes))
	if diffs := schemaDiff(ls, ps); len(diffs) > 0 {
		t.Errorf("the SQLite and PostgreSQL schemas differ after migrating:\n%s", strings.Join(diffs, "\n"))
	}
}

// schemaDiff lists the differences between a (SQLite) and b (PostgreSQL).
func schemaDiff(a, b schema) []string {
	var diffs []string
	for _, table := range slices.Sorted(maps.Keys(a.columns)) {
		bc, ok := b.columns[table]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("table %s: only on SQLite", table))
			continue
		}
		for _, col := range a.columns[table] {
			if !slices.Contains(bc, col) {
				diffs = append(diffs, fmt.Sprintf("column %s.%s: only on SQLite", table, col))
			}
		}
		for _, col := range bc {
			if !slices.Contains(a.columns[table], col) {
				diffs = append(diffs, fmt.Sprintf("column %s.%s: only on PostgreSQL", table, col))
			}
		}
	}
	for _, table := range slices.Sorted(maps.Keys(b.columns)) {
		if _, ok := a.columns[table]; !ok {
			diffs = append(diffs, fmt.Sprintf("table %s: only on PostgreSQL", table))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(a.indexes)) {
		switch bt, ok := b.indexes[name]; {
		case !ok:
			diffs = append(diffs, fmt.Sprintf("index %s (on %s): only on SQLite", name, a.indexes[name]))
		case bt != a.indexes[name]:
			diffs = append(diffs, fmt.Sprintf("index %s: on %s on SQLite, on %s on PostgreSQL", name, a.indexes[name], bt))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(b.indexes)) {
		if _, ok := a.indexes[name]; !ok {
			diffs = append(diffs, fmt.Sprintf("index %s (on %s): only on PostgreSQL", name, b.indexes[name]))
		}
	}
	return diffs
}

// TestSchemaDiffLists checks that schemaDiff reports each kind of
// difference, so that TestSchemaParity's silence means agreement.
func TestSchemaDiffLists(t *testing.T) {
	a := schema{
		columns: map[string][]string{"puzzles": {"id", "givens"}, "counts": {"id"}},
		indexes: map[string]string{"puzzles_a": "puzzles", "puzzles_b": "puzzles"},
	}
	b := schema{
		columns: map[string][]string{"puzzles": {"id", "grade"}, "daily": {"date"}},
		indexes: map[string]string{"puzzles_a": "counts", "puzzles_c": "puzzles"},
	}
	want := []string{
		"table counts: only on SQLite",
		"column puzzles.givens: only on SQLite",
		"column puzzles.grade: only on PostgreSQL",
		"table daily: only on PostgreSQL",
		"index puzzles_a: on puzzles on SQLite, on counts on PostgreSQL",
		"index puzzles_b (on puzzles): only on SQLite",
		"index puzzles_c (on puzzles): only on PostgreSQL",
	}
	got := schemaDiff(a, b)
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("schemaDiff:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := schemaDiff(a, a); len(d) > 0 {
		t.Errorf("a schema differs from itself: %v", d)
	}
}

// generatedColumns are the puzzles table's columns that the database
// computes, so the store never writes or reads them as part of a row.
var generatedColumns = []string{"band"}

// checkPuzzleColumns checks that puzzleColumns and the generated columns
// are exactly the puzzles table of s: a column added by a migration but not
// to the list (or the other way round) fails here.
func checkPuzzleColumns(t *testing.T, name string, s schema) {
	t.Helper()
	var listed []string
	for _, c := range puzzleColumns {
		if c.expr == "" { // a derived value is no column
			listed = append(listed, c.name)
		}
	}
	listed = append(listed, generatedColumns...)
	slices.Sort(listed)
	if got := s.columns["puzzles"]; !slices.Equal(got, listed) {
		t.Errorf("%s: puzzles has the columns %v; puzzleColumns (columns.go) and the generated ones list %v", name, got, listed)
	}
}

// sqliteSchema reads the schema of an SQLite database.
func sqliteSchema(ctx context.Context, db *sql.DB) (schema, error) {
	s := schema{columns: map[string][]string{}, indexes: map[string]string{}}
	tables, err := strings2(ctx, db, "SELECT name, '' FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
	if err != nil {
		return s, err
	}
	for _, t := range tables {
		if ignoredTables[t[0]] {
			continue
		}
		cols, err := strings2(ctx, db, "SELECT name, '' FROM pragma_table_xinfo(?) ORDER BY name", t[0])
		if err != nil {
			return s, err
		}
		for _, c := range cols {
			s.columns[t[0]] = append(s.columns[t[0]], c[0])
		}
	}
	idx, err := strings2(ctx, db, "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'")
	for _, i := range idx {
		if !ignoredTables[i[1]] {
			s.indexes[i[0]] = i[1]
		}
	}
	return s, err
}

// postgresSchema reads the schema of a PostgreSQL database (its current
// schema).
func postgresSchema(ctx context.Context, db *sql.DB) (schema, error) {
	s := schema{columns: map[string][]string{}, indexes: map[string]string{}}
	cols, err := strings2(ctx, db, `SELECT c.table_name, c.column_name FROM information_schema.columns AS c
JOIN information_schema.tables AS t USING (table_schema, table_name)
WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY c.column_name`)
	if err != nil {
		return s, err
	}
	for _, c := range cols {
		if !ignoredTables[c[0]] {
			s.columns[c[0]] = append(s.columns[c[0]], c[1])
		}
	}
	// Named indexes only: not those PostgreSQL makes for a constraint.
	idx, err := strings2(ctx, db, `SELECT i.relname, t.relname FROM pg_index AS x
JOIN pg_class AS i ON i.oid = x.indexrelid JOIN pg_class AS t ON t.oid = x.indrelid
WHERE t.relnamespace = current_schema()::regnamespace
AND NOT EXISTS (SELECT 1 FROM pg_constraint AS k WHERE k.conindid = x.indexrelid)`)
	for _, i := range idx {
		if !ignoredTables[i[1]] {
			s.indexes[i[0]] = i[1]
		}
	}
	return s, err
}

// strings2 runs q and returns its rows of two texts.
func strings2(ctx context.Context, db *sql.DB, q string, args ...any) ([][2]string, error) {
	rows, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q, err)
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var r [2]string
		if err := rows.Scan(&r[0], &r[1]); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// stepFrom is the first migration numbered in step: from it on, every
// number is a migration of both databases. PostgreSQL's 00001 is the whole
// schema as SQLite had it at 00009.
const stepFrom = 10

// TestMigrationsInStep checks the numbering of migrations/ and
// migrations/postgres/: PostgreSQL has 00001 and nothing else below
// stepFrom, and from stepFrom on both have the same numbers.
func TestMigrationsInStep(t *testing.T) {
	lite, err := migrationNumbers(migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := migrationNumbers(migrations.Postgres)
	if err != nil {
		t.Fatal(err)
	}
	if diffs := stepDiff(lite, pg); len(diffs) > 0 {
		t.Errorf("migrations are not numbered in step:\n%s", strings.Join(diffs, "\n"))
	}
}

// stepDiff lists what breaks the numbering of lite and pg, the migration
// numbers of SQLite and PostgreSQL.
func stepDiff(lite, pg []int64) []string {
	var diffs []string
	for _, v := range pg {
		if v != 1 && v < stepFrom {
			diffs = append(diffs, fmt.Sprintf("PostgreSQL's migration %05d is below %05d: PostgreSQL has only 00001 (the whole schema of SQLite's 00009) before it", v, stepFrom))
		}
	}
	if !slices.Contains(pg, 1) {
		diffs = append(diffs, "PostgreSQL has no migration 00001 (the whole schema)")
	}
	for _, v := range lite {
		if v >= stepFrom && !slices.Contains(pg, v) {
			diffs = append(diffs, fmt.Sprintf("migration %05d: only in migrations/ (SQLite); add it to migrations/postgres/ with the same number", v))
		}
	}
	for _, v := range pg {
		if v >= stepFrom && !slices.Contains(lite, v) {
			diffs = append(diffs, fmt.Sprintf("migration %05d: only in migrations/postgres/; add it to migrations/ (SQLite) with the same number", v))
		}
	}
	for i := 1; i < len(lite); i++ {
		if lite[i] == lite[i-1] {
			diffs = append(diffs, fmt.Sprintf("migrations/ has two files numbered %05d", lite[i]))
		}
	}
	for i := 1; i < len(pg); i++ {
		if pg[i] == pg[i-1] {
			diffs = append(diffs, fmt.Sprintf("migrations/postgres/ has two files numbered %05d", pg[i]))
		}
	}
	return diffs
}

// TestStepDiffLists checks that stepDiff reports each kind of break.
func TestStepDiffLists(t *testing.T) {
	lite := []int64{1, 2, 9, 10, 11, 11, 13}
	pg := []int64{1, 5, 10, 12, 13}
	got := stepDiff(lite, pg)
	want := []string{"00005 is below", "migration 00011: only in migrations/ ", "migration 00012: only in migrations/postgres/", "migrations/ has two files numbered 00011"}
	if len(got) != len(want)+1 { // 00011 appears twice in lite, so twice missing
		t.Fatalf("stepDiff = %q, want %d differences", got, len(want)+1)
	}
	for _, w := range want {
		if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, w) }) {
			t.Errorf("stepDiff = %q, lacks %q", got, w)
		}
	}
	if d := stepDiff([]int64{1, 9, 10}, []int64{1, 10}); len(d) > 0 {
		t.Errorf("stepDiff of numbers in step = %q", d)
	}
}

// migrationNumbers returns the sorted numbers of the migration files in
// fsys.
func migrationNumbers(fsys fs.FS) ([]int64, error) {
	names, err := fs.Glob(fsys, "*.sql")
	if err != nil {
		return nil, err
	}
	var vs []int64
	for _, n := range names {
		v, err := goose.NumericComponent(n)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", n, err)
		}
		vs = append(vs, v)
	}
	slices.Sort(vs)
	return vs, nil
}
