package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// exportMmap is how much of the file an export maps (SQLite caps it at its
// compile-time limit, 2 GB by default).
const exportMmap = 1 << 40

// Export calls fn for every archived puzzle in q's order and filters (q's
// Limit, Cursor and Around are ignored), streaming rows from one read transaction:
// memory stays flat however large the archive, and the puzzles are a
// consistent snapshot. An error from fn stops the export and is returned.
func (db *DB) Export(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Puzzle) error) error {
	return db.export(ctx, q, export.sql, func(rows *sql.Rows) error {
		cols, err := rows.Columns()
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		// A merged order selects its key columns after the export's
		// values; they are read and dropped.
		n := len(export.packAt)
		dest := make([]any, len(cols)) // reused row after row
		extra := make([]any, len(cols)-n)
		for i := range extra {
			dest[n+i] = &extra[i]
		}
		r := make([]any, len(readColumns))
		return pipe(ctx, rows, func(scan func(...any) error, v *[]any) error {
			if *v == nil {
				*v = make([]any, n)
			}
			for i := range *v {
				dest[i] = &(*v)[i]
			}
			return scan(dest...)
		}, func(v *[]any) (sudoku.Puzzle, error) { return export.unpack(*v, r) }, fn)
	})
}

// ExportGivens is Export for a caller that needs only each puzzle's givens
// (a text export): reading one column instead of twelve made a million-puzzle
// export about a third faster.
func (db *DB) ExportGivens(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Grid) error) error {
	return db.export(ctx, q, "givens", func(rows *sql.Rows) error {
		cols, err := rows.Columns()
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		// A merged order selects its key columns after the givens;
		// they are read and dropped.
		v := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range dest {
			dest[i] = &v[i]
		}
		return pipe(ctx, rows, func(scan func(...any) error, g *sudoku.Grid) error {
			if err := scan(dest...); err != nil {
				return err
			}
			var err error
			*g, err = givensOf(v[0])
			return err
		}, func(g *sudoku.Grid) (sudoku.Grid, error) { return *g, nil }, fn)
	})
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

// export runs the export statement of q selecting cols in a read
// transaction and hands its rows to each.
func (db *DB) export(ctx context.Context, q sudoku.ListQuery, cols string, each func(*sql.Rows) error) error {
	if db.isClosed() {
		return ErrClosed
	}
	q.Limit, q.Cursor, q.Around = 0, "", 0
	q, err := normalize(q)
	if err != nil {
		return err
	}
	conn, err := db.reader.Conn(ctx)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer conn.Close()
	// An export in any order but id order reads the table at random: with
	// the file mapped into memory those reads cost no system call, which
	// saved a quarter of the time for a million puzzles. The mapping (and
	// the resident pages it brings) ends with the export, before the
	// connection goes back to the pool. (SQLite only.)
	if !db.d.postgres {
		if _, err := conn.ExecContext(ctx, "PRAGMA mmap_size = "+strconv.Itoa(exportMmap)); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		defer func() {
			if _, err := conn.ExecContext(context.Background(), "PRAGMA mmap_size = 0"); err != nil {
				// Do not pool a connection that may still map the file.
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer tx.Rollback()
	for _, l := range exportListings(q) {
		if err := db.exportPart(ctx, tx, db.d.listQuery(l, true, cols), each); err != nil {
			return err
		}
	}
	return nil
}

// exportPart runs one statement of an export and hands its rows to each.
func (db *DB) exportPart(ctx context.Context, tx *sql.Tx, sq query, each func(*sql.Rows) error) error {
	st, err := db.stmtOf(ctx, tx, sq)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	rows, err := st.QueryContext(ctx, sq.args...)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer rows.Close()
	return each(rows)
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

// pipe reads rows on a goroutine of its own, each by scan into an R,
// while the caller's goroutine converts the rows already read to T by conv
// and runs fn on them, so that SQLite and the caller's encoding use two
// cores. The reading goroutine is the slower one (SQLite's work on every
// row), so it only scans: the conversion waits for the other side. Chunks
// go back to the reader through free once fn is done with them, so the
// steady state allocates no slices.
//
// An export either hands fn every row or returns an error: the end of
// ctx (a deadline, a client gone) is an error, never a short, quiet end.
func pipe[R, T any](parent context.Context, rows *sql.Rows, scan func(func(...any) error, *R) error, conv func(*R) (T, error), fn func(T) error) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	full := make(chan []R, exportAhead)
	free := make(chan []R, exportAhead+2)
	var readErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(full)
		for {
			var ps []R
			select {
			case ps = <-free:
				ps = ps[:0]
			default:
				ps = make([]R, 0, exportChunk)
			}
			for len(ps) < exportChunk && rows.Next() {
				ps = grow(ps)
				if err := scan(rows.Scan, &ps[len(ps)-1]); err != nil {
					readErr = fmt.Errorf("export: %w", err)
					return
				}
			}
			if len(ps) > 0 {
				select {
				case full <- ps:
				case <-ctx.Done():
					if err := parent.Err(); err != nil {
						readErr = fmt.Errorf("export stopped before the last row: %w", context.Cause(parent))
					}
					return
				}
			}
			if len(ps) < exportChunk {
				if err := rows.Err(); err != nil {
					readErr = fmt.Errorf("export: %w", err)
				} else if err := parent.Err(); err != nil {
					// database/sql ends the rows when the context ends,
					// and Next then says false as at the last row, with
					// no error: without this check an export cut short
					// by its deadline looked complete.
					readErr = fmt.Errorf("export stopped before the last row: %w", context.Cause(parent))
				}
				return
			}
		}
	}()
	var err error
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
