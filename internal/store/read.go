package store

import (
	"context"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Export calls fn for every archived puzzle in q's order and filters (q's
// Limit, Cursor and Around are ignored), streaming its rows: memory stays
// flat however large the archive. The rows are read in batches, each from
// a short read transaction of its own (see exportReader), so a slow reader
// never holds a snapshot: every puzzle archived before the export began is
// in it once, but for a puzzle whose sort key changes while it runs (a
// grade arriving, players' times), which may be missed or written twice in
// an order by that key. An error from fn stops the export and is returned.
func (db *DB) Export(ctx context.Context, q record.ListQuery, fn func(record.Puzzle) error) error {
	n := len(export.packAt)
	r := make([]any, len(readColumns))
	var dest []any // reused row after row
	return exportRows(ctx, db, q, export.sql, func(cols []string) func(func(...any) error, *[]any) error {
		// The key columns an order needs are selected after the
		// export's values (unless among them); they are read and dropped.
		dest = make([]any, len(cols))
		extra := make([]any, len(cols)-n)
		for i := range extra {
			dest[n+i] = &extra[i]
		}
		return func(scan func(...any) error, v *[]any) error {
			if *v == nil {
				*v = make([]any, n)
			}
			for i := range *v {
				dest[i] = &(*v)[i]
			}
			return scan(dest...)
		}
	}, func(v *[]any) (record.Puzzle, error) { return export.unpack(*v, r) }, fn)
}

// ExportGivens is Export for a caller that needs only each puzzle's givens
// (a text export): reading one column instead of twelve made a million-puzzle
// export about a third faster.
func (db *DB) ExportGivens(ctx context.Context, q record.ListQuery, fn func(sudoku.Grid) error) error {
	return exportRows(ctx, db, q, "givens", func(cols []string) func(func(...any) error, *sudoku.Grid) error {
		// The order's key columns follow the givens; they are read and
		// dropped.
		v := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range dest {
			dest[i] = &v[i]
		}
		return func(scan func(...any) error, g *sudoku.Grid) error {
			if err := scan(dest...); err != nil {
				return err
			}
			var err error
			*g, err = givensOf(v[0])
			return err
		}
	}, func(g *sudoku.Grid) (sudoku.Grid, error) { return *g, nil }, fn)
}

// givensOf converts the value of a givens column.
func givensOf(v any) (sudoku.Grid, error) {
	s, ok := v.(string)
	if !ok {
		return sudoku.Grid{}, fmt.Errorf("givens hold %T, want text", v)
	}
	g, err := gridOf(s)
	if err != nil {
		return g, fmt.Errorf("givens: %w", err)
	}
	return g, nil
}

// exportChunk is how many puzzles the reading goroutine of an export hands
// over at once, and exportAhead how many such chunks may wait: memory stays
// a few hundred kilobytes however large the archive.
const (
	exportChunk = 256
	exportAhead = 4
)

// grow returns ps one element longer. A chunk back from pipe's free list
// keeps its old rows past its length: scan overwrites them (and reuses what
// they hold, such as a slice).
func grow[R any](ps []R) []R {
	if len(ps) < cap(ps) {
		return ps[:len(ps)+1]
	}
	var zero R
	return append(ps, zero)
}

// exportRows reads the export of q selecting cols on a goroutine of its
// own (exportReader: batches of short read transactions), each row by the
// scan that setup returns for the statement's columns into an R, while the
// caller's goroutine converts the rows already read to T by conv and runs
// fn on them, so that SQLite and the caller's encoding use two cores. The
// reading goroutine is the slower one (SQLite's work on every row), so it
// only scans: the conversion waits for the other side. Chunks go back to
// the reader through free once fn is done with them, so the steady state
// allocates no slices.
//
// An export either hands fn every row or returns an error: the end of
// ctx (a deadline, a client gone) is an error, never a short, quiet end.
func exportRows[R, T any](parent context.Context, db *DB, q record.ListQuery, cols string, setup func([]string) func(func(...any) error, *R) error, conv func(*R) (T, error), fn func(T) error) error {
	if db.isClosed() {
		return ErrClosed
	}
	q.Limit, q.Cursor, q.Around = 0, "", 0
	q, err := normalize(q)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	full := make(chan []R, exportAhead)
	free := make(chan []R, exportAhead+2)
	x := newExportReader(db, q, cols)
	var readErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(full)
		defer x.close()
		readErr = readExport(ctx, parent, x, setup, full, free)
	}()
	for ps := range full {
		for i := range ps {
			var p T
			if p, err = conv(&ps[i]); err != nil {
				err = fmt.Errorf("export: %w", err)
				break
			}
			if err = fn(p); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
		select {
		case free <- ps:
		default:
		}
	}
	// Stop the reader (if fn failed) and wait for it: rows, and the
	// transaction under them, must not be closed while it reads.
	cancel()
	<-done
	if err != nil {
		return err
	}
	return readErr
}

// readExport is the reading goroutine of exportRows: chunks of rows from
// x, each handed to full. Before it waits for room there, or once its
// snapshot is exportSnapshot old, it ends x's read transaction.
func readExport[R any](ctx, parent context.Context, x *exportReader, setup func([]string) func(func(...any) error, *R) error, full, free chan []R) error {
	var scan func(func(...any) error, *R) error
	for {
		var ps []R
		select {
		case ps = <-free:
			ps = ps[:0]
		default:
			ps = make([]R, 0, exportChunk)
		}
		for len(ps) < exportChunk {
			row, err := x.next(ctx)
			if err != nil {
				return stopped(parent, err)
			}
			if row == nil {
				break
			}
			if scan == nil {
				scan = setup(x.cols)
			}
			ps = grow(ps)
			if err := scan(row, &ps[len(ps)-1]); err != nil {
				return fmt.Errorf("export: %w", err)
			}
		}
		if len(ps) == 0 {
			return stopped(parent, nil)
		}
		// No snapshot is held while the consumer is behind, nor
		// for longer than exportSnapshot.
		if blocked := len(full) == cap(full); blocked || x.old() {
			if err := x.pause(false); err != nil {
				return fmt.Errorf("export: %w", err)
			}
		}
		if err := send(ctx, x, full, ps); err != nil {
			if ctx.Err() != nil {
				return stopped(parent, nil)
			}
			return fmt.Errorf("export: %w", err)
		}
		if len(ps) < exportChunk {
			return stopped(parent, nil)
		}
	}
}

// exportHold is how long an export waiting for its consumer keeps its
// connection (with its mapping of the file) before it hands it back to
// the pool: a consumer a moment behind (sudoku export writing a file)
// finds it still mapped; a slow download holds none of the pool's few
// connections while it waits.
const exportHold = 50 * time.Millisecond

// send hands ps to full, ending x's read transaction and releasing its
// connection if that takes longer than exportHold; it fails when ctx ends
// (or the rows cannot be closed).
func send[R any](ctx context.Context, x *exportReader, full chan []R, ps []R) error {
	select {
	case full <- ps:
		return nil
	default:
	}
	t := time.NewTimer(exportHold)
	defer t.Stop()
	select {
	case full <- ps:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		if err := x.pause(true); err != nil {
			return err
		}
	}
	select {
	case full <- ps:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stopped is the reading goroutine's error: err, or the end of parent
// (database/sql ends the rows when the context ends, and Next then says
// false as at the last row, with no error: without this check an export
// cut short by its deadline looked complete).
func stopped(parent context.Context, err error) error {
	if perr := parent.Err(); perr != nil {
		return fmt.Errorf("export stopped before the last row: %w", context.Cause(parent))
	}
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// gridOf decodes the canonical text of a stored grid.
func gridOf(s string) (sudoku.Grid, error) {
	var g sudoku.Grid
	if len(s) != len(g) {
		return g, fmt.Errorf("stored grid has %d characters, want 81", len(s))
	}
	for i := range len(s) {
		switch c := s[i]; {
		case c == '.':
		case c >= '1' && c <= '9':
			g[i] = c - '0'
		default:
			return g, fmt.Errorf("stored grid has %q at %d", c, i)
		}
	}
	return g, nil
}
