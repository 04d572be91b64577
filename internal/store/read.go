package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strconv"
	"time"

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
	return db.export(ctx, q, exportColumns, func(rows *sql.Rows) error {
		cols, err := rows.Columns()
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		// A merged order selects its key columns after the packed ones;
		// they are read and dropped.
		extra := make([]any, len(cols)-len(packed{}))
		dest := make([]any, len(cols)) // reused row after row
		for i := range extra {
			dest[len(packed{})+i] = &extra[i]
		}
		return pipe(ctx, rows, func(scan func(...any) error, v *packed) error {
			for i := range v {
				dest[i] = &v[i]
			}
			return scan(dest...)
		}, unpack, fn)
	})
}

// exportColumns is columns packed into fewer values for an export, whose
// reading goroutine steps the database one column at a time (with the
// SQLite driver, several calls and a mutex per column): the three grids as
// one text, and solutions with the grade floor as one integer. unpack
// turns a row of them back into a puzzle. The orders' key columns (clues,
// grade, solve_ns, ...) stay columns of their own.
const exportColumns = `id, givens || solution || coalesce(canonical, ''), clues, solutions | (grade_floor << 2), backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions, same_as, grade, technique, grade_version`

// A packed row is the values of exportColumns.
type packed [15]any

// unpack converts a row of exportColumns.
func unpack(v *packed) (sudoku.Puzzle, error) {
	var r row
	grids, ok := v[1].(string)
	if !ok || len(grids) != 2*81 && len(grids) != 3*81 {
		return sudoku.Puzzle{}, fmt.Errorf("puzzle %v: stored grids hold %T of %d characters, want 162 or 243", v[0], v[1], len(grids))
	}
	r[1], r[2] = grids[:81], grids[81:162]
	if len(grids) == 3*81 {
		r[12] = grids[162:]
	}
	n, ok := v[3].(int64)
	if !ok {
		return sudoku.Puzzle{}, fmt.Errorf("puzzle %v: solutions and grade floor hold %T, want an integer", v[0], v[3])
	}
	r[4], r[15] = n&3, n>>2
	r[0], r[3] = v[0], v[2]
	copy(r[5:12], v[4:11]) // backtracks ... submissions
	r[13], r[14], r[16], r[17] = v[11], v[12], v[13], v[14]
	return puzzleOf(&r)
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
	sq := db.d.listQuery(listingOf(q), true, cols)
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
				var zero R
				ps = append(ps, zero)
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

// scanPuzzle reads one row of columns through scan (a Row's or Rows'
// Scan). It scans into interface values and converts by hand, which skips
// database/sql's reflection (and, for an int field, its round trip through
// strconv) on every column of every row of an export.
func scanPuzzle(scan func(...any) error) (sudoku.Puzzle, error) {
	var v row
	if err := scanRow(scan, &v); err != nil {
		return sudoku.Puzzle{}, err
	}
	return puzzleOf(&v)
}

// A row is the values of columns as the driver returns them.
type row [18]any

// scanRow reads one row of columns into v.
func scanRow(scan func(...any) error, v *row) error {
	return scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11],
		&v[12], &v[13], &v[14], &v[15], &v[16], &v[17])
}

// puzzleOf converts a row of columns.
func puzzleOf(v *row) (sudoku.Puzzle, error) {
	var bad error
	num := func(i int) int64 {
		n, ok := v[i].(int64)
		if !ok && bad == nil {
			bad = fmt.Errorf("column %d holds %T, want an integer", i, v[i])
		}
		return n
	}
	text := func(i int) string {
		s, ok := v[i].(string)
		if !ok && bad == nil {
			bad = fmt.Errorf("column %d holds %T, want text", i, v[i])
		}
		return s
	}
	p := sudoku.Puzzle{
		ID: num(0), Clues: int(num(3)), Solutions: int(num(4)),
		Backtracks: num(5), Guesses: num(6), Nodes: num(7), SolveNS: num(8),
		EngineVersion: text(9), SubmittedAt: time.Unix(0, num(10)).UTC(), Submissions: num(11),
	}
	p.Unique = p.Solutions == 1
	if v[13] != nil {
		id := num(13)
		p.SameAs = &id
	}
	p.SetGradeTenths(num(14))
	p.GradeFloor = num(15) != 0
	p.Technique = text(16)
	if v[17] != nil {
		p.GradeVersion = text(17)
	} else {
		p.Band = "" // waiting for a grade (again): no band, as the band column says
	}
	givens, solution := text(1), text(2)
	var canonical string
	if v[12] != nil {
		canonical = text(12)
	}
	if bad != nil {
		return p, fmt.Errorf("puzzle %d: %w", p.ID, bad)
	}
	var err error
	if p.Givens, err = gridOf(givens); err != nil {
		return p, fmt.Errorf("puzzle %d: givens: %w", p.ID, err)
	}
	if p.Solution, err = gridOf(solution); err != nil {
		return p, fmt.Errorf("puzzle %d: solution: %w", p.ID, err)
	}
	if canonical != "" {
		if p.Canonical, err = gridOf(canonical); err != nil {
			return p, fmt.Errorf("puzzle %d: canonical: %w", p.ID, err)
		}
	}
	return p, nil
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
