package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/store"
)

// copyBatch is how many rows `sudoku copy` commits at a time: a copy cut
// short leaves whole batches.
const copyBatch = 4096

// copyUnits names what the copy's progress bars count: rows of every
// table, not puzzles alone.
const copyUnits = "rows"

// puzzlesTable is the puzzles as the copy's counts and messages name them.
var puzzlesTable = store.Table{Name: "puzzles", One: "puzzle", Many: "puzzles"}

// runCopy is `sudoku copy --from SRC --to DST`: it moves an archive from
// one database to another (an SQLite file or a PostgreSQL URL, either
// way) row for row, ids and all, into an empty destination: the puzzles,
// every table of store.CopiedTables and the settings. Then it reads both
// back and compares them table by table.
func runCopy(ctx context.Context, e *env, args []string) (err error) {
	fs := newFlagSet(e, "copy", "--from SRC --to DST")
	from := fs.String("from", "", "the archive to copy: an SQLite file or a postgres:// URL")
	to := fs.String("to", "", "the empty archive to fill: an SQLite file (created) or a postgres:// URL (an existing database)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case fs.NArg() > 0:
		return errUsage{fmt.Sprintf("copy takes no arguments, got %q", fs.Args())}
	case *from == "" || *to == "":
		return errUsage{"copy needs --from and --to"}
	case *from == *to:
		return errUsage{"--from and --to name the same archive"}
	}
	if missingArchive(*from) {
		return fmt.Errorf("copy: no archive at %s: check --from (copy does not create the source)", *from)
	}
	src, err := store.Open(ctx, *from)
	if err != nil {
		return err
	}
	defer closeInto(src, &err)
	// Rows graded before migration 00017 are indexed by technique after
	// it (sudoku serve does it on start): the destination's triggers
	// index every row, so the two indexes would differ.
	if n, err := src.TechniquesToIndex(ctx); err != nil || n > 0 {
		return cmp.Or(err, fmt.Errorf("copy: the techniques of %d puzzles of %s are not indexed yet: start sudoku serve on it once to index them, then copy", n, store.Redact(*from)))
	}
	dst, err := store.Open(ctx, *to)
	if err != nil {
		return err
	}
	defer closeInto(dst, &err)
	if err := checkEmpty(ctx, dst, *to); err != nil {
		return err
	}
	counts, total, err := countRows(ctx, src)
	if err != nil {
		return err
	}

	start := time.Now()
	bar := newUnitBar(e.stderr, "copying", copyUnits)
	n, err := copyAll(ctx, src, dst, total, bar.set)
	bar.finish()
	if err != nil {
		return fmt.Errorf("copy: %w (the destination keeps the %d rows committed before; empty it to start again)", err, n)
	}
	fmt.Fprintf(e.stdout, "copied %s in %.2fs\n", copySummary(counts), time.Since(start).Seconds())

	start = time.Now()
	bar = newUnitBar(e.stderr, "verifying", copyUnits)
	names, err := verifyCopy(ctx, src, dst, total, bar.set)
	bar.finish()
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	fmt.Fprintf(e.stdout, "verified: every row of %d tables (%s), the counters and the settings are the same in both, in %.2fs\n",
		len(names), strings.Join(names, ", "), time.Since(start).Seconds())
	return nil
}

// closeInto closes db, joining a failure to *err.
func closeInto(db *store.DB, err *error) {
	if cerr := db.Close(); cerr != nil {
		*err = errors.Join(*err, cerr)
	}
}

// checkEmpty refuses a destination that holds a puzzle or a row of any
// table a copy fills.
func checkEmpty(ctx context.Context, dst *store.DB, to string) error {
	for _, t := range append([]store.Table{puzzlesTable}, store.CopiedTables...) {
		n, err := dst.CountRows(ctx, t.Name)
		if err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("copy: %s holds %s already: the destination must be an empty archive", store.Redact(to), rowCount(t, n))
		}
	}
	return nil
}

// A tableCount is how many rows of a table the source holds.
type tableCount struct {
	t store.Table
	n int64
}

// countRows counts the source's rows of the puzzles and of each copied
// table, in the copy's order, and their sum.
func countRows(ctx context.Context, src *store.DB) ([]tableCount, int64, error) {
	var counts []tableCount
	var total int64
	for _, t := range append([]store.Table{puzzlesTable}, store.CopiedTables...) {
		n, err := src.CountRows(ctx, t.Name)
		if err != nil {
			return nil, 0, err
		}
		counts = append(counts, tableCount{t, n})
		total += n
	}
	return counts, total, nil
}

// rowCount says n rows of t: "1 player", "12 players".
func rowCount(t store.Table, n int64) string {
	if n == 1 {
		return "1 " + t.One
	}
	return fmt.Sprintf("%d %s", n, t.Many)
}

// copySummary lists the counts: "1000 puzzles, 12 players ... and 2
// puzzles of the day".
func copySummary(counts []tableCount) string {
	parts := make([]string, len(counts))
	for i, c := range counts {
		parts[i] = rowCount(c.t, c.n)
	}
	last := len(parts) - 1
	return strings.Join(parts[:last], ", ") + " and " + parts[last]
}

// copyAll copies the technique names, the puzzles, then the other tables
// of store.CopiedTables in their order, and returns how many rows it
// committed.
func copyAll(ctx context.Context, src, dst *store.DB, total int64, progress func(done, total int64)) (int64, error) {
	var n int64
	step := func(done int64) { progress(n+done, total) }
	for i, t := range store.CopiedTables {
		if i == 1 { // after the technique names: the puzzles' triggers index under their ids
			k, err := copyPuzzles(ctx, src, dst, step)
			n += k
			if err != nil {
				return n, err
			}
		}
		k, err := copyTable(ctx, src, dst, t, step)
		n += k
		if err != nil {
			return n, err
		}
	}
	settings, err := src.Settings(ctx)
	if err != nil {
		return n, err
	}
	return n, dst.PutSettings(ctx, settings)
}

// copyPuzzles streams the puzzles of src, hidden ones too, in id order
// into dst, copyBatch to a transaction, and returns how many it
// committed.
func copyPuzzles(ctx context.Context, src, dst *store.DB, progress func(done int64)) (int64, error) {
	return inBatches(func(each func(record.Puzzle) error) error { return src.ExportAll(ctx, each) },
		func(batch []record.Puzzle) error { return dst.Restore(ctx, batch) }, progress)
}

// copyTable streams the rows of t from src in key order into dst,
// copyBatch to a transaction, and returns how many it committed.
func copyTable(ctx context.Context, src, dst *store.DB, t store.Table, progress func(done int64)) (int64, error) {
	cols, err := src.Columns(ctx, t.Name)
	if err != nil {
		return 0, err
	}
	return inBatches(func(each func([]any) error) error { return src.ReadRows(ctx, t, cols, each) },
		func(batch [][]any) error { return dst.InsertRows(ctx, t, cols, batch) }, progress)
}

// inBatches hands what read streams to write copyBatch at a time (the last
// batch shorter), telling progress the count written after each, and
// returns how many write took.
func inBatches[T any](read func(each func(T) error) error, write func([]T) error, progress func(done int64)) (int64, error) {
	var n int64
	batch := make([]T, 0, copyBatch)
	flush := func() error {
		if err := write(batch); err != nil {
			return err
		}
		n += int64(len(batch))
		batch = batch[:0]
		progress(n)
		return nil
	}
	err := read(func(v T) error {
		batch = append(batch, v)
		if len(batch) == copyBatch {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	return n, err
}

// verifyCopy compares src and dst: every row of every table a copy
// writes or its destination derives (store.DerivedTables then
// store.CopiedTables), read side by side in key order, then the counters
// and the settings. It reports the first difference, and returns the
// names of the tables compared.
func verifyCopy(ctx context.Context, src, dst *store.DB, total int64, progress func(done, total int64)) ([]string, error) {
	var names []string
	var n int64
	for _, t := range append(append([]store.Table{}, store.DerivedTables...), store.CopiedTables...) {
		k, err := compareTable(ctx, src, dst, t, func(done int64) { progress(n+done, total) })
		if err != nil {
			return nil, err
		}
		if t.One != "" { // a table of the copy's count: the puzzles, store.CopiedTables
			n += k
		}
		names = append(names, t.Name)
	}
	for _, f := range []struct {
		what string
		read func(*store.DB) (any, error)
	}{
		{"the counters", func(db *store.DB) (any, error) { return db.Stats(ctx) }},
		{"the settings", func(db *store.DB) (any, error) { return db.Settings(ctx) }},
	} {
		want, err := f.read(src)
		if err != nil {
			return nil, err
		}
		got, err := f.read(dst)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(want, got) {
			return nil, fmt.Errorf("%s differ: the source has %v, the destination %v", f.what, want, got)
		}
	}
	return names, nil
}

// compareTable reads t from both archives side by side in key order and
// reports the first row that differs (by table, key and column), is
// missing or is extra. It returns how many rows it compared.
func compareTable(ctx context.Context, src, dst *store.DB, t store.Table, progress func(done int64)) (int64, error) {
	cols := t.Columns
	if cols == nil {
		var err error
		if cols, err = src.Columns(ctx, t.Name); err != nil {
			return 0, err
		}
	}
	key, keyOrder := keyOf(t, cols)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	rows := make(chan []any, 256)
	readErr := make(chan error, 1)
	go func() {
		defer close(rows)
		readErr <- dst.ReadRows(ctx, t, cols, func(r []any) error {
			select {
			case rows <- r:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	var n int64
	err := src.ReadRows(ctx, t, cols, func(want []any) error {
		got, ok := <-rows
		if !ok {
			return fmt.Errorf("%s: the row %s is missing from the destination, which ends after %d rows", t.Name, key(want), n)
		}
		switch k := keyOrder(want, got); {
		case k < 0:
			return fmt.Errorf("%s: the row %s is missing from the destination", t.Name, key(want))
		case k > 0:
			return fmt.Errorf("%s: the destination has the row %s, which the source has not", t.Name, key(got))
		}
		for i, c := range cols {
			if !sameValue(want[i], got[i]) {
				return fmt.Errorf("%s: the row %s differs: %s is %s in the source, %s in the destination",
					t.Name, key(want), c, showColumn(c, want[i]), showColumn(c, got[i]))
			}
		}
		n++
		if n%copyBatch == 0 {
			progress(n)
		}
		return nil
	})
	if err == nil {
		if got, ok := <-rows; ok {
			err = fmt.Errorf("%s: the destination has the row %s, which the source has not (past its %d rows)", t.Name, key(got), n)
		}
	}
	cancel()
	for range rows {
	}
	if rerr := <-readErr; err == nil && rerr != nil {
		err = rerr
	}
	progress(n)
	return n, err
}

// keyOf returns what names a row of t read as cols, its key's columns
// and values ("player_id=3, grade=25"), and how two rows' keys compare,
// in the order ReadRows reads them.
func keyOf(t store.Table, cols []string) (name func(row []any) string, order func(a, b []any) int) {
	at := make([]int, len(t.Key))
	for i, k := range t.Key {
		for j, c := range cols {
			if c == k {
				at[i] = j
			}
		}
	}
	name = func(row []any) string {
		parts := make([]string, len(at))
		for i, j := range at {
			parts[i] = t.Key[i] + "=" + showColumn(t.Key[i], row[j])
		}
		return strings.Join(parts, ", ")
	}
	order = func(a, b []any) int {
		for _, j := range at {
			if c := compareValues(a[j], b[j]); c != 0 {
				return c
			}
		}
		return 0
	}
	return name, order
}

// compareValues orders two key values: numbers by value, text and bytes
// by their bytes (as both dialects order keys), and values of two types
// by type name, so that they differ.
func compareValues(a, b any) int {
	switch x := a.(type) {
	case int64:
		if y, ok := b.(int64); ok {
			return cmp.Compare(x, y)
		}
	case string:
		if y, ok := b.(string); ok {
			return strings.Compare(x, y)
		}
	case []byte:
		if y, ok := b.([]byte); ok {
			return bytes.Compare(x, y)
		}
	}
	if sameValue(a, b) {
		return 0
	}
	return strings.Compare(fmt.Sprintf("%T", a), fmt.Sprintf("%T", b))
}

// sameValue reports whether a and b, values of one column as
// store.ReadRows reads them from either dialect, are equal: the same
// type and value.
func sameValue(a, b any) bool {
	if x, ok := a.([]byte); ok {
		y, ok := b.([]byte)
		return ok && bytes.Equal(x, y)
	}
	if _, ok := b.([]byte); ok {
		return false
	}
	return a == b
}

// showValue writes v for a message: bytes in hex, text quoted, NULL.
// tenthsColumns are the columns that keep a grade in tenths (101 for
// 10.1): the check shows them as grades.
var tenthsColumns = map[string]bool{"grade": true, "grade_ep": true, "grade_ed": true}

// showColumn is showValue for a value of the column col: a grade as a
// grade ("10.1"), not as the tenths the archive keeps.
func showColumn(col string, v any) string {
	if n, ok := v.(int64); ok && tenthsColumns[col] {
		return strconv.FormatFloat(float64(n)/10, 'f', 1, 64)
	}
	return showValue(v)
}

func showValue(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case []byte:
		return fmt.Sprintf("x'%x'", v)
	case string:
		return fmt.Sprintf("%q", v)
	default:
		return fmt.Sprint(v)
	}
}
