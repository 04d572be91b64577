package store

// insert.go holds the bulk insert of many puzzles in one transaction
// (insertMany), shared by SubmitMany, AddMany and Batch: SQLite's many-row
// INSERTs, PostgreSQL's unnest arrays, and telling the new rows from the
// repeats.

import (
	"bytes"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// insertMany stores ps in tx, counts the new ones in t and returns which
// were duplicates. It inserts ps in order, manyRows to an INSERT that skips
// the givens archived already (the dialect's insertIgnore), tells which rows
// a statement added, and then, when countRepeats, counts the repeats as
// submissions, one UPDATE per repeated givens.
//
// Why not an upsert: a statement of many rows that may stop halfway (an
// upsert's UPDATE, or any ABORT, the default conflict policy) makes SQLite
// copy every page it changes into a statement journal first, in case the
// statement must be undone alone; that took a tenth of a bulk import's
// writes. (PostgreSQL cannot upsert one row twice in a statement either.) An
// ignored row must be a repeat: its UPDATE must find the row, or the
// transaction fails.
//
// Which rows are new: on SQLite, whose writer is alone, every row is usually
// new and takes the next id, and newRows reads back the rows past the last
// id when a statement skipped some. On PostgreSQL the statement returns the
// ids and keys of the rows it added (returned), since other servers'
// transactions take ids in between.
func (db *DB) insertMany(tx *sql.Tx, ps []record.Puzzle, t *tally, countRepeats bool) ([]bool, error) {
	now := time.Now().UTC().UnixNano()
	last, err := db.beforeInsert(tx, ps, t)
	if err != nil {
		return nil, err
	}
	manyRows := db.d.manyRows
	// The full statement is compiled once per call: a Stmt prepared on the
	// connection would be compiled again by every tx.Stmt (database/sql
	// re-prepares a Conn's statements in a Tx).
	var many *sql.Stmt
	if len(ps) >= manyRows && !db.d.postgres {
		if many, err = tx.Prepare(db.insertManySQL(manyRows)); err != nil {
			return nil, fmt.Errorf("prepare insert: %w", err)
		}
		defer many.Close()
	}
	args := make([]any, 0, manyRows*len(insertColumns))
	dup := make([]bool, len(ps))
	for start := 0; start < len(ps); start += manyRows {
		part := ps[start:min(start+manyRows, len(ps))]
		args = args[:0]
		for i := range part {
			args = insertArgs(args, &part[i], now)
		}
		var err error
		if db.d.postgres {
			var rows *sql.Rows
			rows, err = tx.Query(unnestSQL, unnestArgs(insertColumns, args, len(part))...)
			if err == nil {
				err = returned(rows, part, dup[start:], &t.ids)
			}
			if err != nil {
				return nil, fmt.Errorf("puzzles %d-%d: %w", start+1, start+len(part), err)
			}
			continue
		}
		var res sql.Result
		if len(part) == manyRows {
			res, err = many.Exec(args...)
		} else {
			res, err = tx.Exec(db.insertManySQL(len(part)), args...)
		}
		var n int64
		if err == nil {
			n, err = res.RowsAffected()
		}
		if err != nil {
			return nil, fmt.Errorf("puzzles %d-%d: %w", start+1, start+len(part), err)
		}
		// Usually every row is new, and took the ids after last. If some
		// were skipped, the rows added tell which.
		if n < int64(len(part)) {
			d, err := newRows(tx, last, part)
			if err != nil {
				return nil, err
			}
			copy(dup[start:], d)
		}
		for id := last + 1; id <= last+n; id++ {
			t.ids = append(t.ids, id)
		}
		last += n
	}
	t.addNew(ps, dup)
	if countRepeats {
		if err := db.countRepeats(tx, ps, dup); err != nil {
			return nil, err
		}
	}
	return dup, nil
}

// beforeInsert readies insertMany's write of ps: it refuses a hidden
// puzzle, brings the known classes up to date (freshClasses), files each
// puzzle under its class (t.classes), and on SQLite returns the last id
// taken so far.
func (db *DB) beforeInsert(tx *sql.Tx, ps []record.Puzzle, t *tally) (last int64, err error) {
	if !db.d.postgres {
		if err := tx.QueryRow("SELECT coalesce(max(id), 0) FROM puzzles").Scan(&last); err != nil {
			return 0, fmt.Errorf("read last id: %w", err)
		}
	}
	if err := refuseHidden(tx, ps); err != nil {
		return 0, err
	}
	if err := db.freshClasses(tx); err != nil {
		return 0, err
	}
	if err := t.classes(tx, ps); err != nil {
		return 0, err
	}
	return last, nil
}

// countRepeats counts the puzzles of ps that dup marks as repeats as
// submissions of their stored rows, one UPDATE per repeated givens.
func (db *DB) countRepeats(tx *sql.Tx, ps []record.Puzzle, dup []bool) error {
	// By givens key: the same givens with other rules are another puzzle.
	repeats := map[string]int64{} // submissions to add
	givens := map[string]sudoku.Grid{}
	for i := range ps {
		if dup[i] {
			k := string(ps[i].GivensKey())
			repeats[k]++
			givens[k] = ps[i].Givens
		}
	}
	// In key order, so that two servers counting repeats of the same
	// puzzles lock their rows in the same order.
	keys := make([]string, 0, len(repeats))
	for k := range repeats {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		g := givens[k]
		res, err := tx.Exec(db.d.sql("UPDATE puzzles SET submissions = submissions + ? WHERE givens_key = ?"), repeats[k], []byte(k))
		if err != nil {
			return fmt.Errorf("count a repeat of %s: %w", g, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return fmt.Errorf("puzzle %s was not stored (%d rows, %v)", g, n, err)
		}
	}
	return nil
}

// returned reads the rows an INSERT of ps added (RETURNING id, givens_key),
// marks the others in dup and appends the new ids to ids, in the order of
// ps. Of several copies of the same givens in ps, the first is the one
// inserted.
func returned(rows *sql.Rows, ps []record.Puzzle, dup []bool, ids *[]int64) error {
	defer rows.Close()
	added := make(map[string]int64, len(ps))
	for rows.Next() {
		var id int64
		var key []byte
		if err := rows.Scan(&id, &key); err != nil {
			return err
		}
		added[string(key)] = id
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range ps {
		k := string(ps[i].GivensKey())
		id, ok := added[k]
		if !ok {
			dup[i] = true
			continue
		}
		delete(added, k) // later copies are repeats
		*ids = append(*ids, id)
	}
	if len(added) > 0 {
		return fmt.Errorf("%d new rows match none of the puzzles", len(added))
	}
	return nil
}

// newRows reads the rows past id last, those that an INSERT added for ps,
// and returns which of ps were duplicates (not inserted). The rows were
// inserted in the order of ps and a new row takes the next id, so the new
// rows are, in id order, the first copies of the givens keys that were not
// archived before: ps and the new rows are walked side by side, and every
// new row must match. The rows are matched by givens key, not givens: the
// same givens with other rules are another puzzle.
func newRows(tx *sql.Tx, last int64, ps []record.Puzzle) ([]bool, error) {
	rows, err := tx.Query("SELECT givens_key FROM puzzles WHERE id > ? ORDER BY id", last)
	if err != nil {
		return nil, fmt.Errorf("read new rows: %w", err)
	}
	defer rows.Close()
	var k []byte
	next := func() (ok bool, err error) {
		if !rows.Next() {
			return false, rows.Err()
		}
		if err := rows.Scan(&k); err != nil {
			return false, err
		}
		return true, nil
	}
	ok, err := next()
	dup := make([]bool, len(ps))
	for i := range ps {
		if err != nil {
			break
		}
		if ok && bytes.Equal(k, ps[i].GivensKey()) {
			ok, err = next()
		} else {
			dup[i] = true
		}
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("read new rows: %w", err)
	case ok:
		return nil, fmt.Errorf("new row with givens key %x matches none of the puzzles in order", k)
	}
	return dup, nil
}

// unnestSQL is insertManySQL on PostgreSQL: the rows come as one array per
// column (unnestArgs), which the server takes apart far faster than it
// parses the placeholders of a many-row VALUES: writing the rated 17-clue
// file (BenchmarkWrite17) took 3.3 s with VALUES of 256 rows (3.8 s with
// 64, 5.7 s with 1,024), 2.2 s with arrays of 2,048.
var unnestSQL = func() string {
	var arrays, cols []string
	for i, c := range insertColumns {
		arrays = append(arrays, fmt.Sprintf("$%d::%s[]", i+1, c.kind.pgType()))
		cols = append(cols, fmt.Sprintf("c%d", i+1))
	}
	return `INSERT INTO puzzles (` + names(insertColumns, "") + `)
SELECT ` + strings.Join(cols, ", ") + `
FROM unnest(` + strings.Join(arrays, ", ") + `)
    WITH ORDINALITY AS u (` + strings.Join(cols, ", ") + `, n)
ORDER BY n
ON CONFLICT DO NOTHING RETURNING id, givens_key`
}()

// unnestArgs turns args, the values of cs for n rows (row after row), into
// one array per column for an unnest of PostgreSQL.
func unnestArgs(cs []*column, args []any, n int) []any {
	arrays := make([]any, len(cs))
	for c, col := range cs {
		at := func(r int) any { return args[r*len(cs)+c] }
		switch col.kind {
		case colText:
			a := make([]pgtype.Text, n)
			for r := range n {
				if v, ok := at(r).(string); ok {
					a[r] = pgtype.Text{String: v, Valid: true}
				}
			}
			arrays[c] = a
		case colBytes:
			a := make([][]byte, n)
			for r := range n {
				a[r], _ = at(r).([]byte)
			}
			arrays[c] = a
		default:
			a := make([]pgtype.Int8, n)
			for r := range n {
				if v, ok := at(r).(int64); ok {
					a[r] = pgtype.Int8{Int64: v, Valid: true}
				}
			}
			arrays[c] = a
		}
	}
	return arrays
}

// insertManySQL inserts n new puzzles at once, skipping those archived
// already (SQLite; see unnestSQL for PostgreSQL).
func (db *DB) insertManySQL(n int) string {
	var q strings.Builder
	q.WriteString(db.d.insertIgnore + ` puzzles (` + names(insertColumns, "") + `) VALUES `)
	row := placeholders(len(insertColumns))
	for i := range n {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString(row)
	}
	return q.String()
}
