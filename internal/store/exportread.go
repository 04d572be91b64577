package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// An export used to read the whole archive in one read transaction, held
// for as long as its client took to download it. SQLite cannot reset its
// WAL while a reader's snapshot needs frames of it: one download at 20 KB/s
// during a write flood grew the -wal file to 592 MB (issue 38). So an
// export now reads in batches, each statement continuing from the key of
// the last row read (keyset, as a listing's pages do), and ends its read
// transaction whenever its consumer is behind (before it waits for room)
// and at least every exportSnapshot: no snapshot lives longer than that,
// however slow the client.
const (
	// exportSnapshot bounds how long an export keeps one read
	// transaction (one snapshot) open.
	exportSnapshot = time.Second
	// exportBatch is the LIMIT of each statement of an export: a
	// statement ended early (on PostgreSQL, its rest is read and
	// dropped) costs at most this many rows.
	exportBatch = 8192
)

// exportMmap is how much of the file an export maps (SQLite caps it at its
// compile-time limit, 2 GB by default).
const exportMmap = 1 << 40

// exportReader reads the rows of an export statement by statement, each
// continuing from the key of the last row read.
type exportReader struct {
	db       *DB
	listings []listing // the export's listings, read one after the other
	keys     []string  // the order's key columns
	sel      string    // the select list: the caller's columns, then the keys it lacks
	cols     []string  // the statements' column names (after the first query)
	keyAt    []int     // where each key is among cols
	li       int       // the listing being read
	ph       part      // its part being read
	from     []int64   // the key of the last row read in this listing (nil: none)
	n        int       // rows read from the statement
	conn     *sql.Conn
	tx       *sql.Tx
	begun    time.Time // when tx began
	rows     *sql.Rows
}

func newExportReader(db *DB, q record.ListQuery, cols string) *exportReader {
	keys := orders[q.Sort].keys
	have := strings.Split(cols, ", ")
	for _, k := range keys {
		if !slices.Contains(have, k) {
			cols += ", " + k
		}
	}
	return &exportReader{db: db, listings: exportListings(q), keys: keys, sel: cols}
}

// next moves to the next row and returns the function that scans it (and
// notes its key), or nil after the last row.
func (x *exportReader) next(ctx context.Context) (func(...any) error, error) {
	for x.li < len(x.listings) {
		if x.rows == nil {
			if err := x.query(ctx); err != nil {
				return nil, err
			}
		}
		if x.rows.Next() {
			x.n++
			return x.scan, nil
		}
		if err := x.rows.Err(); err != nil {
			return nil, err
		}
		x.rows.Close()
		x.rows = nil
		x.advance()
	}
	return nil, nil
}

// advance moves on from a statement read to its end.
func (x *exportReader) advance() {
	switch {
	case x.n == x.limit():
		x.ph = x.resume() // it stopped at its LIMIT
	case x.ph == ties:
		x.ph = beyond
	default:
		x.li, x.ph, x.from = x.li+1, start, nil
	}
}

// resume is the part that continues from x.from: the rest of its tie
// group first, when the order has keys before id.
func (x *exportReader) resume() part {
	if len(x.keys) > 1 {
		return ties
	}
	return beyond
}

// query runs the statement of the current listing and part, from x.from,
// beginning a read transaction if none is open.
func (x *exportReader) query(ctx context.Context) error {
	if x.tx == nil {
		if err := x.begin(ctx); err != nil {
			return err
		}
	}
	l := x.listings[x.li]
	l.part, l.from, l.limit = x.ph, x.from, x.limit()
	sq := x.db.d.listQuery(l, true, x.sel)
	st, err := x.db.stmtOf(ctx, x.tx, sq)
	if err != nil {
		return err
	}
	if x.rows, err = st.QueryContext(ctx, sq.args...); err != nil {
		return err
	}
	x.n = 0
	if x.cols != nil {
		return nil
	}
	if x.cols, err = x.rows.Columns(); err != nil {
		return err
	}
	for _, k := range x.keys {
		i := slices.Index(x.cols, k)
		if i < 0 {
			return fmt.Errorf("the export selects no column %s (it has %q)", k, x.cols)
		}
		x.keyAt = append(x.keyAt, i)
	}
	return nil
}

// begin opens a read transaction, on the export's connection (taken from
// the pool if it has none).
func (x *exportReader) begin(ctx context.Context) error {
	if x.conn == nil {
		conn, err := x.db.reader.Conn(ctx)
		if err != nil {
			return err
		}
		x.conn = conn
		// An export in any order but id order reads the table at
		// random: with the file mapped into memory those reads cost
		// no system call, which saved a quarter of the time for a
		// million puzzles. The mapping ends when the connection goes
		// back to the pool (release). (SQLite only.)
		if !x.db.d.postgres {
			if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA mmap_size = %d", exportMmap)); err != nil {
				return err
			}
		}
	}
	tx, err := x.conn.BeginTx(ctx, x.db.d.readTx)
	if err != nil {
		return err
	}
	x.tx, x.begun = tx, time.Now()
	return nil
}

// scan scans the current row into dest (pointers to any at the keys'
// places) and notes its key.
func (x *exportReader) scan(dest ...any) error {
	if err := x.rows.Scan(dest...); err != nil {
		return err
	}
	if x.from == nil {
		x.from = make([]int64, len(x.keys))
	}
	for i, at := range x.keyAt {
		p, ok := dest[at].(*any)
		if !ok {
			return fmt.Errorf("export: key %s scanned into %T, want *any", x.keys[i], dest[at])
		}
		k, err := keyInt(*p)
		if err != nil {
			return fmt.Errorf("export: key %s: %w", x.keys[i], err)
		}
		x.from[i] = k
	}
	return nil
}

// keyInt is the integer value of a key column as a driver hands it.
func keyInt(v any) (int64, error) {
	switch v := v.(type) {
	case int64:
		return v, nil
	case int32:
		return int64(v), nil
	case int16:
		return int64(v), nil
	case nil:
		return 0, nil
	}
	return 0, fmt.Errorf("holds %T, want an integer", v)
}

// limit is the LIMIT of each statement: exportBatch but in tests.
func (x *exportReader) limit() int {
	if x.db.exportLimit > 0 {
		return x.db.exportLimit
	}
	return exportBatch
}

// old reports whether the read transaction has been open exportSnapshot.
func (x *exportReader) old() bool {
	age := exportSnapshot
	if x.db.exportAge > 0 {
		age = x.db.exportAge
	}
	return x.tx != nil && time.Since(x.begun) >= age
}

// pause ends the read transaction: the next row comes from a new one,
// continuing from the last row read. With release, the connection goes
// back to the pool too.
func (x *exportReader) pause(release bool) error {
	if x.rows != nil {
		err := x.rows.Close()
		x.rows = nil
		if err != nil {
			return err
		}
		x.ph = x.resume() // it had rows: x.from is the last one's key
	}
	if x.tx != nil {
		_ = x.tx.Rollback() // read only
		x.tx = nil
	}
	if release {
		x.release()
	}
	return nil
}

// release hands the connection back to the pool, unmapped.
func (x *exportReader) release() {
	if x.conn == nil {
		return
	}
	if !x.db.d.postgres {
		if _, err := x.conn.ExecContext(context.Background(), "PRAGMA mmap_size = 0"); err != nil {
			// Do not pool a connection that may still map the file.
			_ = x.conn.Raw(func(any) error { return driver.ErrBadConn })
		}
	}
	_ = x.conn.Close()
	x.conn = nil
}

// close ends whatever the reader holds.
func (x *exportReader) close() {
	if x.rows != nil {
		x.rows.Close()
		x.rows = nil
	}
	if x.tx != nil {
		_ = x.tx.Rollback()
		x.tx = nil
	}
	x.release()
}
