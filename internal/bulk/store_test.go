package bulk

// Tests and benchmarks against the real SQLite store.

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/sudoku-archive/sudoku/internal/puzzletest"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sqlitetest"
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// mustOpenDB opens the archive at path (a SQLite file, or a PostgreSQL
// URL), and closes it when tb ends. A SQLite path with no file yet gets a copy of an archive migrated once per test
// process (sqlitetest): migrating costs a test 1-3 s under -race, and the
// store's tests cover the migrations.
func mustOpenDB(tb testing.TB, path string) *store.DB {
	tb.Helper()
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) && !strings.Contains(path, "://") {
		sqlitetest.WriteFrom(tb, "archive", path, func(path string) error {
			db, err := store.Open(context.Background(), path)
			if err != nil {
				return err
			}
			return db.Close()
		})
	}
	db, err := store.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// inspect opens the database file directly and returns its row count and
// the verdict of PRAGMA integrity_check.
func inspect(tb testing.TB, path string) (rows int64, integrity string) {
	tb.Helper()
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		tb.Fatal(err)
	}
	defer raw.Close()
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil {
		tb.Fatal(err)
	}
	if err := raw.QueryRow("SELECT count(*) FROM puzzles").Scan(&rows); err != nil {
		tb.Fatal(err)
	}
	return rows, integrity
}

// cancelAfter is the store as `sudoku import` uses it, cancelling the
// import once n batches are committed: a Ctrl-C at the worst moment, with
// more batches rated and waiting.
type cancelAfter struct {
	*store.DB
	n      int32
	done   atomic.Int32
	cancel context.CancelFunc
}

func (c *cancelAfter) AddMany(ctx context.Context, ps []record.Puzzle) ([]bool, error) {
	dup, err := c.DB.AddMany(ctx, ps)
	if err == nil && c.done.Add(1) == c.n {
		c.cancel()
	}
	return dup, err
}

// AddParts is the path Import takes with a store: the same count.
func (c *cancelAfter) AddParts(ctx context.Context, parts iter.Seq[[]record.Puzzle]) (int, int, error) {
	dup, same, err := c.DB.AddParts(ctx, parts)
	if err == nil && c.done.Add(1) == c.n {
		c.cancel()
	}
	return dup, same, err
}

// TestStoreImportInterrupted interrupts an import after three batches,
// checks that only they were archived, then runs the same import again:
// the archive must end up as one uninterrupted run leaves it, every
// puzzle with one submission (the file holds one twice: a repeat within an
// import counts no submission either).
func TestStoreImportInterrupted(t *testing.T) {
	text, _ := collection(t, puzzletest.Kaggle, 2000)
	text = "# the first 2000 kaggle puzzles, one of them twice\n" + text + strings.SplitN(text, "\n", 2)[0] + "\n"
	const batch = 300
	path := filepath.Join(t.TempDir(), "i.db")
	db := mustOpenDB(t, path)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := Import(ctx, &cancelAfter{DB: db, n: 3, cancel: cancel}, []Input{{"k", strings.NewReader(text)}}, Options{BatchSize: batch})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if sum.Imported != 3*batch || sum.Duplicates != 0 {
		t.Errorf("interrupted summary %v, want the 3 committed batches (%d)", sum, 3*batch)
	}
	db.Close()
	if rows, ok := inspect(t, path); rows != 3*batch || ok != "ok" {
		t.Errorf("database holds %d rows (integrity %q), want %d and ok", rows, ok, 3*batch)
	}

	db = mustOpenDB(t, path)
	sum, err = Import(context.Background(), db, []Input{{"k", strings.NewReader(text)}}, Options{BatchSize: batch})
	if err != nil {
		t.Fatal(err)
	}
	if got := [3]int64{sum.Imported, sum.Duplicates, sum.Rejected}; got != [3]int64{2000 - 3*batch, 3*batch + 1, 0} {
		t.Errorf("re-run: imported, duplicates, rejected = %v, want [%d %d 0]", got, 2000-3*batch, 3*batch+1)
	}

	once := mustOpenDB(t, filepath.Join(t.TempDir(), "once.db"))
	if _, err := Import(context.Background(), once, []Input{{"k", strings.NewReader(text)}}, Options{BatchSize: batch}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(archived(t, once), archived(t, db)); diff != "" {
		t.Errorf("interrupted and re-run vs one run (-once +re-run):\n%s", diff)
	}
	db.Close()
	if rows, ok := inspect(t, path); rows != 2000 || ok != "ok" {
		t.Errorf("database holds %d rows (integrity %q), want 2000 and ok", rows, ok)
	}
}

// TestStoreImportTwice: importing the same file again changes nothing.
func TestStoreImportTwice(t *testing.T) {
	text, _ := collection(t, puzzletest.Norvig, 0)
	db := mustOpenDB(t, filepath.Join(t.TempDir(), "twice.db"))
	first, err := Import(context.Background(), db, []Input{{"n", strings.NewReader(text)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	before := archived(t, db)
	second, err := Import(context.Background(), db, []Input{{"n", strings.NewReader(text)}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if second.Imported != 0 || second.Duplicates != first.Imported+first.Duplicates {
		t.Errorf("second import %v, want every puzzle of the first (%v) a duplicate", second, first)
	}
	if diff := cmp.Diff(before, archived(t, db)); diff != "" {
		t.Errorf("archive after the second import (-before +after):\n%s", diff)
	}
}

// archived is the archive's puzzles in order, as "givens submissions".
func archived(t *testing.T, db *store.DB) []string {
	t.Helper()
	var out []string
	err := db.Export(context.Background(), record.ListQuery{Sort: record.SortSubmitted}, func(p record.Puzzle) error {
		out = append(out, fmt.Sprintf("%s %d", p.Givens, p.Submissions))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestStoreImportKilled kills an importing process with SIGKILL and checks
// that the database holds whole batches only, then finishes the import.
func TestStoreImportKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child process for a few seconds")
	}
	const batch = 250
	dir := t.TempDir()
	src := filepath.Join(dir, "in.txt")
	f, err := os.Create(src)
	if err != nil {
		t.Fatal(err)
	}
	n, err := writeTransformed(f, 10_000, 1)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "k.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestStoreImportChild$")
	cmd.Env = append(os.Environ(), "BULK_CHILD_DB="+path, "BULK_CHILD_SRC="+src, "BULK_CHILD_BATCH="+strconv.Itoa(batch))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once a few batches are in, while it is busy with the next.
	deadline := time.Now().Add(60 * time.Second)
	for {
		time.Sleep(50 * time.Millisecond)
		if rows, _ := inspectQuiet(path); rows >= 3*batch || time.Now().After(deadline) {
			break
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	rows, ok := inspect(t, path)
	if ok != "ok" || rows%batch != 0 || rows == 0 {
		t.Fatalf("after kill -9: %d rows (integrity %q), want a positive multiple of %d and ok", rows, ok, batch)
	}
	t.Logf("killed with %d of %d puzzles committed", rows, n)

	db := mustOpenDB(t, path)
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	sum, err := Import(context.Background(), db, []Input{{"in", in}}, Options{BatchSize: batch})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Imported+sum.Duplicates != int64(n) || sum.Duplicates < rows || sum.Rejected != 0 {
		t.Errorf("re-run summary %v, want all %d puzzles, at least the %d committed ones as duplicates", sum, n, rows)
	}
	db.Close()
	if got, ok := inspect(t, path); got != rows+sum.Imported || ok != "ok" {
		t.Errorf("database holds %d rows (integrity %q), want %d", got, ok, rows+sum.Imported)
	}
}

// inspectQuiet is inspect for a database that may not exist yet.
func inspectQuiet(path string) (int64, error) {
	if _, err := os.Stat(path); err != nil {
		return 0, err
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?mode=ro&_pragma=busy_timeout(1000)")
	if err != nil {
		return 0, err
	}
	defer raw.Close()
	var n int64
	err = raw.QueryRow("SELECT count(*) FROM puzzles").Scan(&n)
	return n, err
}

// TestStoreImportChild is the child process of TestStoreImportKilled.
func TestStoreImportChild(t *testing.T) {
	path := os.Getenv("BULK_CHILD_DB")
	if path == "" {
		t.Skip("child process of TestStoreImportKilled")
	}
	batch, _ := strconv.Atoi(os.Getenv("BULK_CHILD_BATCH"))
	db := mustOpenDB(t, path)
	in, err := os.Open(os.Getenv("BULK_CHILD_SRC"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Import(context.Background(), db, []Input{{"in", in}}, Options{BatchSize: batch}); err != nil {
		t.Fatal(err)
	}
}

// storeWith returns a store holding the given puzzle text.
func storeWith(tb testing.TB, text string) *store.DB {
	tb.Helper()
	db := mustOpenDB(tb, filepath.Join(tb.TempDir(), "a.db"))
	if _, err := Import(context.Background(), db, []Input{{"in", strings.NewReader(text)}}, Options{}); err != nil {
		tb.Fatal(err)
	}
	return db
}

// TestStoreExportOrder exports in every sort and order and checks that the
// rows come in that order, ties broken by id, every puzzle once.
func TestStoreExportOrder(t *testing.T) {
	text, ps := collection(t, puzzletest.Norvig, 50)
	hard, hps := collection(t, puzzletest.Top1465, 30)
	db := storeWith(t, text+hard)
	want := len(ps) - 1 + len(hps)
	key := map[record.Sort]func(p record.Puzzle) []int64{
		record.SortDifficulty: func(p record.Puzzle) []int64 { return []int64{p.Backtracks, p.SolveNS, p.ID} },
		record.SortBacktracks: func(p record.Puzzle) []int64 { return []int64{p.Backtracks, p.ID} },
		record.SortSolveTime:  func(p record.Puzzle) []int64 { return []int64{p.SolveNS, p.ID} },
		record.SortSubmitted:  func(p record.Puzzle) []int64 { return []int64{p.ID} },
		record.SortClues:      func(p record.Puzzle) []int64 { return []int64{int64(p.Clues), p.ID} },
		record.SortGrade:      func(p record.Puzzle) []int64 { return []int64{p.GradeTenths(), p.ID} },
		// Nobody has played these puzzles: no player_seconds, so the
		// order is the ids' (puzzles without one come last in either
		// order; the store suite's tests cover the mixed case).
		record.SortPlayerTime: func(p record.Puzzle) []int64 { return []int64{record.OrZero(p.PlayerSeconds), p.ID} },
		// Unplayed and graded here: the grade's prior time (the store
		// suite's tests cover the rule and the mixed case).
		record.SortHuman: func(p record.Puzzle) []int64 { return []int64{p.HumanSeconds(), p.ID} },
	}
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s desc=%v", s, desc), func(t *testing.T) {
				var out bytes.Buffer
				if _, err := Export(context.Background(), db, &out, JSON, record.ListQuery{Sort: s, Desc: desc}); err != nil {
					t.Fatal(err)
				}
				var got []record.Puzzle
				for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
					var p record.Puzzle
					if err := json.Unmarshal([]byte(l), &p); err != nil {
						t.Fatal(err)
					}
					got = append(got, p)
				}
				if len(got) != want {
					t.Fatalf("exported %d puzzles, want %d", len(got), want)
				}
				sorted := slices.IsSortedFunc(got, func(a, b record.Puzzle) int {
					c := slices.Compare(key[s](a), key[s](b))
					if desc {
						c = -c
					}
					return c
				})
				if !sorted {
					t.Errorf("export is not in %s order (desc %v)", s, desc)
				}
			})
		}
	}
}

// TestStoreRoundTrip exports a store in every format and imports each into
// a fresh store: the same puzzles, solutions and measures come back.
func TestStoreRoundTrip(t *testing.T) {
	text, _ := collection(t, puzzletest.Diabolical, 100)
	src := storeWith(t, text)
	all := func(db *store.DB) map[sudoku.Grid]record.Puzzle {
		m := map[sudoku.Grid]record.Puzzle{}
		err := db.Export(context.Background(), record.ListQuery{Sort: record.SortSubmitted}, func(p record.Puzzle) error {
			p.ID, p.SolveNS, p.SubmittedAt = 0, 0, time.Time{} // the new archive's own
			m[p.Givens] = p
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	want := all(src)
	for _, f := range Formats {
		t.Run(string(f), func(t *testing.T) {
			var out bytes.Buffer
			if _, err := Export(context.Background(), src, &out, f, record.ListQuery{}); err != nil {
				t.Fatal(err)
			}
			dst := mustOpenDB(t, filepath.Join(t.TempDir(), "b.db"))
			sum, err := Import(context.Background(), dst, []Input{{"x", &out}}, Options{})
			if err != nil || sum.Imported != 100 || sum.Duplicates != 0 || sum.Rejected != 0 {
				t.Fatalf("import of the %s export: %v, %v; want 100 imported", f, sum, err)
			}
			if diff := cmp.Diff(want, all(dst)); diff != "" {
				t.Errorf("round trip (-exported +imported):\n%s", diff)
			}
		})
	}
}
