package store

// tables.go holds what `sudoku copy` needs of the archive's tables beyond
// the puzzles (Restore): the declared list of the tables it carries row for
// row and of those it only compares, and the generic reads and writes
// that copy and compare a table whatever its columns.

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// A Table is one table of the archive as `sudoku copy` treats it.
type Table struct {
	// Name is the table's name (the same in both dialects:
	// TestSchemaParity).
	Name string
	// Key lists the primary key's columns: rows are read, and compared, in
	// its order.
	Key []string
	// TextKey names the key's column of text, if any: PostgreSQL orders
	// it by bytes (COLLATE "C"), as SQLite does.
	TextKey string
	// Serial says the table's id is an identity column: on PostgreSQL
	// its sequence is moved past the copied ids.
	Serial bool
	// One and Many name a row and rows in the copy's summary (One is ""
	// for a table the copy derives and does not count).
	One, Many string
	// Query, for a derived table compared but not copied, selects what
	// is compared in place of its rows (a counter summed over its
	// shards, say), the columns Columns; "" for the rows themselves.
	Query   string
	Columns []string
}

// CopiedTables are the tables `sudoku copy` carries row for row, ids and
// all, in an order that respects their foreign keys, after the puzzles
// (Restore) but technique_names, which goes first so that the puzzles'
// triggers (migration 00017) index techniques under the source's ids.
// They are every table of data but the puzzles and the settings (written
// apart) and login_failures, the login throttle's failures of the last
// fifteen minutes: a moved archive starts with no failed logins.
var CopiedTables = []Table{
	{Name: "technique_names", Key: []string{"id"}, Serial: true, One: "technique name", Many: "technique names"},
	{Name: "players", Key: []string{"id"}, Serial: true, One: "player", Many: "players"},
	{Name: "sessions", Key: []string{"token_hash"}, One: "session", Many: "sessions"},
	{Name: "tokens", Key: []string{"id"}, Serial: true, One: "token", Many: "tokens"},
	{Name: "attempts", Key: []string{"id"}, Serial: true, One: "attempt", Many: "attempts"},
	{Name: "player_grades", Key: []string{"player_id", "grade"}, One: "player grade row", Many: "player grade rows"},
	{Name: "player_techniques", Key: []string{"player_id", "technique"}, TextKey: "technique", One: "player technique row", Many: "player technique rows"},
	{Name: "class_ratings", Key: []string{"class_key"}, One: "class rating", Many: "class ratings"},
	{Name: "hidden_puzzles", Key: []string{"puzzle_id"}, One: "hidden puzzle", Many: "hidden puzzles"},
	{Name: "flags", Key: []string{"id"}, Serial: true, One: "flag", Many: "flags"},
	{Name: "audit", Key: []string{"id"}, Serial: true, One: "audit entry", Many: "audit entries"},
	{Name: "collections", Key: []string{"id"}, Serial: true, One: "collection", Many: "collections"},
	{Name: "collection_puzzles", Key: []string{"collection_id", "puzzle_id"}, One: "collection entry", Many: "collection entries"},
	{Name: "daily", Key: []string{"date"}, TextKey: "date", One: "puzzle of the day", Many: "puzzles of the day"},
}

// DerivedTables are the tables a copy does not write, since the
// destination's own tally and triggers fill them as the puzzles arrive,
// but compares after it: the puzzles themselves (every column, as
// stored) and their players' figures (written by Restore with them), the classes, the techniques' index, and the techniques'
// counts summed over their shards (0 where the source keeps a row that
// counts nothing). The other counters (counts, stat_buckets,
// grade_counts) are compared as the archive's Stats.
var DerivedTables = []Table{
	{Name: "puzzles", Key: []string{"id"}, One: "puzzle", Many: "puzzles"},
	{Name: "puzzle_figures", Key: []string{"puzzle_id"}, Many: "puzzles' players' figures"},
	{Name: "classes", Key: []string{"canonical_key"}, Many: "classes"},
	{Name: "puzzle_techniques", Key: []string{"technique", "puzzle_id"}, Many: "technique index rows"},
	{Name: "technique_counts", Key: []string{"technique"}, Many: "technique counts",
		Query:   "SELECT technique, CAST(sum(n) AS BIGINT) AS n FROM technique_counts GROUP BY technique HAVING sum(n) <> 0 ORDER BY technique",
		Columns: []string{"technique", "n"}},
}

// Columns returns the names of table's columns, in the table's order.
func (db *DB) Columns(ctx context.Context, table string) ([]string, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	q := "SELECT name FROM pragma_table_xinfo(?) WHERE hidden <> 1 ORDER BY cid" // generated columns too
	if db.d.postgres {
		q = "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position"
	}
	rows, err := db.reader.QueryContext(ctx, q, table)
	if err != nil {
		return nil, fmt.Errorf("read the columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			return nil, fmt.Errorf("read the columns of %s: %w", table, err)
		}
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the columns of %s: %w", table, err)
	}
	if len(cols) == 0 {
		return nil, fmt.Errorf("read the columns of %s: no such table", table)
	}
	return cols, nil
}

// CountRows returns how many rows table holds.
func (db *DB) CountRows(ctx context.Context, table string) (int64, error) {
	if db.isClosed() {
		return 0, ErrClosed
	}
	var n int64
	if err := db.reader.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		return 0, fmt.Errorf("count the rows of %s: %w", table, err)
	}
	return n, nil
}

// quoted lists cols for a statement, each quoted (flags has a column
// named text).
func quoted(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = `"` + c + `"`
	}
	return strings.Join(q, ", ")
}

// ReadRows calls fn with every row of t, cols in that order, in the order
// of t's key (or the rows of t.Query), from one read transaction. Values
// are int64, float64, string, []byte or nil whatever the dialect; fn may
// keep the slice.
func (db *DB) ReadRows(ctx context.Context, t Table, cols []string, fn func([]any) error) error {
	if db.isClosed() {
		return ErrClosed
	}
	q := t.Query
	if q == "" {
		key := quoted(t.Key)
		if db.d.postgres && t.TextKey != "" {
			key = strings.Replace(key, `"`+t.TextKey+`"`, `"`+t.TextKey+`" COLLATE "C"`, 1)
		}
		q = "SELECT " + quoted(cols) + " FROM " + t.Name + " ORDER BY " + key
	}
	tx, err := db.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("read %s: %w", t.Name, err)
	}
	defer tx.Rollback() //nolint:errcheck // read only
	rows, err := tx.QueryContext(ctx, q)
	if err != nil {
		return fmt.Errorf("read %s: %w", t.Name, err)
	}
	defer rows.Close()
	n, err := rows.Columns()
	if err != nil {
		return fmt.Errorf("read %s: %w", t.Name, err)
	}
	for rows.Next() {
		v := make([]any, len(n))
		dest := make([]any, len(v))
		for i := range v {
			dest[i] = &v[i]
		}
		if err := rows.Scan(dest...); err != nil {
			return fmt.Errorf("read %s: %w", t.Name, err)
		}
		if err := fn(v); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read %s: %w", t.Name, err)
	}
	return nil
}

// InsertRows writes rows (values of cols, as ReadRows reads them) into t
// as they are, in one transaction; on PostgreSQL it then moves the id
// sequence of a serial table past them, so the next row made gets a new
// id. It fills an archive: a row whose key is taken fails the whole call.
func (db *DB) InsertRows(ctx context.Context, t Table, cols []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	// Rows a statement: PostgreSQL takes at most 65535 parameters.
	per := max(1, min(restoreRows, 65535/len(cols)))
	err := db.write(ctx, func(tx *sql.Tx) error {
		args := make([]any, 0, per*len(cols))
		for start := 0; start < len(rows); start += per {
			part := rows[start:min(start+per, len(rows))]
			args = args[:0]
			for _, r := range part {
				if len(r) != len(cols) {
					return fmt.Errorf("a row of %d values for %d columns", len(r), len(cols))
				}
				args = append(args, r...)
			}
			q := "INSERT INTO " + t.Name + " (" + quoted(cols) + ") VALUES " +
				strings.TrimSuffix(strings.Repeat(placeholders(len(cols))+", ", len(part)), ", ")
			if _, err := tx.Exec(db.d.sql(q), args...); err != nil {
				return err
			}
		}
		if db.d.postgres && t.Serial {
			if _, err := tx.Exec("SELECT setval(pg_get_serial_sequence('" + t.Name + "', 'id'), (SELECT max(id) FROM " + t.Name + "))"); err != nil {
				return fmt.Errorf("move the id sequence past the copied rows: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write %d rows of %s: %w", len(rows), t.Name, err)
	}
	return nil
}
