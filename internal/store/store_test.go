package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pressly/goose/v3"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store/storetest"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
	"github.com/sudoku-archive/sudoku/migrations"
)

// MustOpenDB opens a new archive in a temporary directory (a copy of one
// migrated once: sqliteArchive) and closes it when the test ends.
func MustOpenDB(tb testing.TB) *DB {
	tb.Helper()
	return MustOpenDBAt(tb, sqliteArchive(tb))
}

// MustOpenDBAt opens the archive at path and closes it when the test ends.
func MustOpenDBAt(tb testing.TB, path string) *DB {
	tb.Helper()
	db, err := Open(context.Background(), path)
	if err != nil {
		tb.Fatalf("open: %v", err)
	}
	tb.Cleanup(func() {
		if err := db.Close(); err != nil {
			tb.Errorf("close: %v", err)
		}
	})
	return db
}

// synthetic returns a puzzle whose givens are unique to n (n >= 1); see
// storetest.Synthetic.
func synthetic(n int64, backtracks, solveNS int64, solutions int) record.Puzzle {
	return storetest.Synthetic(n, backtracks, solveNS, solutions)
}

// norvig rates the first n puzzles of the easy collection.
func norvig(tb testing.TB, n int) []record.Puzzle {
	tb.Helper()
	var ps []record.Puzzle
	for _, line := range puzzletest.Lines(tb, puzzletest.Norvig, 0) {
		if len(ps) == n {
			break
		}
		if strings.HasPrefix(line, "#") {
			continue
		}
		g, err := sudoku.Parse(line[:81])
		if err != nil {
			tb.Fatalf("parse %q: %v", line, err)
		}
		p, err := record.Rate(g, sudoku.Options{})
		if err != nil {
			tb.Fatalf("rate %q: %v", line, err)
		}
		ps = append(ps, p)
	}
	if len(ps) < n {
		tb.Fatalf("only %d puzzles in the collection", len(ps))
	}
	return ps
}

// rawDB opens path with plain database/sql, for poking at the file behind
// the store's back.
func rawDB(tb testing.TB, path string) *sql.DB {
	tb.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func schemaVersion(tb testing.TB, path string) int64 {
	tb.Helper()
	var v int64
	if err := rawDB(tb, path).QueryRow("SELECT max(version_id) FROM goose_db_version").Scan(&v); err != nil {
		tb.Fatal(err)
	}
	return v
}

func newestMigration(tb testing.TB) int64 {
	tb.Helper()
	names, err := filepath.Glob("../../migrations/*.sql")
	if err != nil || len(names) == 0 {
		tb.Fatalf("no migrations found: %v", err)
	}
	v, err := goose.NumericComponent(filepath.Base(names[len(names)-1]))
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

func TestOpenMigratesAndReopens(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sudoku.db")
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	stored, _, err := db.Submit(ctx, synthetic(1, 0, 10, 1))
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := schemaVersion(t, path), newestMigration(t); got != want {
		t.Errorf("schema version %d, want %d", got, want)
	}
	// Re-running the migrations on an up-to-date file changes nothing.
	db = MustOpenDBAt(t, path)
	got, err := db.Puzzle(ctx, stored.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(stored, got); d != "" {
		t.Errorf("after reopening (-before +after):\n%s", d)
	}
	if got := schemaVersion(t, path); got != newestMigration(t) {
		t.Errorf("schema version %d after reopening", got)
	}
}

func TestOpenUpgradesOlderSchema(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	raw := rawDB(t, path)
	p, err := goose.NewProvider(goose.DialectSQLite3, raw, migrations.FS)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.UpTo(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// Rows written by a version that had only the first migration.
	for i, solutions := range []int{1, 2, 1} {
		ps := synthetic(int64(i+1), int64(i), 100, solutions)
		if _, err := raw.Exec(`INSERT INTO puzzles (givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions)
			VALUES (?, ?, ?, ?, ?, 0, 1, 100, 'old', 0, 1)`, ps.Givens.String(), ps.Solution.String(), ps.Clues, solutions, ps.Backtracks); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()

	db := MustOpenDBAt(t, path)
	for _, tc := range []struct {
		unique bool
		want   int64
	}{{false, 3}, {true, 2}} {
		page, err := db.List(ctx, record.ListQuery{UniqueOnly: tc.unique})
		if err != nil {
			t.Fatal(err)
		}
		if page.Total != tc.want || len(page.Puzzles) != int(tc.want) {
			t.Errorf("unique=%v: total %d, %d rows; want %d", tc.unique, page.Total, len(page.Puzzles), tc.want)
		}
	}
	if got := schemaVersion(t, path); got != newestMigration(t) {
		t.Errorf("schema version %d, want %d", got, newestMigration(t))
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "future.db")
	db, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	raw := rawDB(t, path)
	if _, err := raw.Exec("INSERT INTO goose_db_version (version_id, is_applied) VALUES (?, 1)", newestMigration(t)+2); err != nil {
		t.Fatal(err)
	}
	raw.Close()

	_, err = Open(context.Background(), path)
	if !errors.Is(err, ErrSchemaTooNew) {
		t.Fatalf("got %v, want ErrSchemaTooNew", err)
	}
	n := newestMigration(t)
	want := fmt.Sprintf("database schema version %d is newer than this binary knows (%d): upgrade sudoku", n+2, n)
	if !strings.HasSuffix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %q does not end with %q on one line", err, want)
	}
}

func TestOpenRefusesWhatIsNoDatabase(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(text, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"text file", text, "not an SQLite database"},
		{"missing directory", filepath.Join(dir, "nowhere", "sudoku.db"), "cannot open or create the file"},
		{"directory", dir, "is a directory"},
		{"empty path", "", "no database path"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, err := Open(context.Background(), tc.path)
			if err == nil {
				db.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one line containing %q", err, tc.want)
			}
		})
	}
	// The text file is untouched.
	if b, _ := os.ReadFile(text); string(b) != strings.Repeat("not a database\n", 100) {
		t.Error("the text file was changed")
	}
}

// TestOpenReadOnly needs a user that permissions bind: as root it skips (run
// it with `setpriv --reuid=65534 --regid=65534 --clear-groups` on the test
// binary); TestDescribeReadOnly covers the message under any user.
func TestOpenReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: file permissions are not enforced")
	}
	for _, tc := range []struct {
		name                 string
		fileRO, dirRO, fresh bool
		want                 string
	}{
		{"read-only file", true, false, false, "database is read-only"},
		{"read-only directory", false, true, false, "database is read-only"},
		{"both", true, true, false, "database is read-only"},
		{"new file in a read-only directory", false, true, true, "cannot open or create"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "sudoku.db")
			db, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if tc.fresh {
				path = filepath.Join(dir, "new.db")
			}
			if tc.fileRO {
				if err := os.Chmod(path, 0o444); err != nil {
					t.Fatal(err)
				}
			}
			if tc.dirRO {
				if err := os.Chmod(dir, 0o555); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod(dir, 0o755) })
			}
			db, err = Open(context.Background(), path)
			if err == nil {
				db.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q: want one line containing %q", err, tc.want)
			}
			t.Log(err)
		})
	}
}

func TestDescribeReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sudoku.db")
	MustOpenDBAt(t, path)
	ro, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	_, err = ro.Exec("DELETE FROM puzzles")
	if err == nil {
		t.Fatal("wrote through a read-only connection")
	}
	if got := describe(err).Error(); !strings.HasPrefix(got, "database is read-only") {
		t.Errorf("describe: %q", got)
	}
}

func TestBackup(t *testing.T) {
	ctx := context.Background()
	db := MustOpenDB(t)
	for i := range int64(50) {
		if _, _, err := db.Submit(ctx, synthetic(i+1, i%5, 1000-i, 1+int(i%3)/2)); err != nil {
			t.Fatal(err)
		}
	}
	dest := filepath.Join(t.TempDir(), "copy.db")
	if err := db.Backup(ctx, dest); err != nil {
		t.Fatal(err)
	}
	if err := db.Backup(ctx, dest); err == nil || !strings.Contains(err.Error(), "file exists") {
		t.Errorf("second backup to the same file: %v", err)
	}
	cp := MustOpenDBAt(t, dest)
	if d := cmp.Diff(exportAll(t, db, record.ListQuery{}), exportAll(t, cp, record.ListQuery{})); d != "" {
		t.Errorf("copy differs (-live +copy):\n%s", d)
	}
}

func testPingAndClose(t *testing.T, bk backend) {
	ctx := context.Background()
	db := bk.open(t)
	if err := db.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second close: %v", err)
	}
	if err := db.Ping(ctx); !errors.Is(err, ErrClosed) {
		t.Errorf("ping after close: %v", err)
	}
	if _, _, err := db.Submit(ctx, synthetic(1, 0, 0, 1)); !errors.Is(err, ErrClosed) {
		t.Errorf("submit after close: %v", err)
	}
	if _, err := db.List(ctx, record.ListQuery{}); !errors.Is(err, ErrClosed) {
		t.Errorf("list after close: %v", err)
	}
}

// exportAll collects an export.
func exportAll(tb testing.TB, db *DB, q record.ListQuery) []record.Puzzle {
	tb.Helper()
	var ps []record.Puzzle
	if err := db.Export(context.Background(), q, func(p record.Puzzle) error {
		ps = append(ps, p)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	return ps
}
