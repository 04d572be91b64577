package store

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// Restore stores ps, rows read from another archive (ExportAll),
// exactly as they are: their ids (puzzle URLs name them), submission times
// and counts, classes (same_as), grades, players' figures, submitters and
// hidden state, all in one transaction. The counters are kept by the same
// tally as new submissions, and a hidden row is then taken out of them as
// HidePuzzle takes it, so they come out as the source's. (Who hid it, when
// and why are the hidden_puzzles row, copied apart: CopiedTables.) ps must
// be in id order and past every row archived already: Restore fills an
// archive, it does not merge into one.
func (db *DB) Restore(ctx context.Context, ps []record.Puzzle) error {
	for i, p := range ps {
		if p.ID <= 0 || i > 0 && p.ID <= ps[i-1].ID {
			return fmt.Errorf("restore: %w: rows out of id order", ErrInvalidPuzzle)
		}
		if p.Submissions < 1 {
			return fmt.Errorf("restore puzzle %d: %w: %d submissions", p.ID, ErrInvalidPuzzle, p.Submissions)
		}
		if !p.HasCanonical() {
			return fmt.Errorf("restore puzzle %d: %w: no canonical form (an archive not upgraded yet: start sudoku serve on it once)", p.ID, ErrInvalidPuzzle)
		}
		if err := check(p); err != nil {
			return fmt.Errorf("restore puzzle %d: %w", p.ID, err)
		}
	}
	if len(ps) == 0 {
		return nil
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		var last int64
		if err := tx.QueryRow("SELECT coalesce(max(id), 0) FROM puzzles").Scan(&last); err != nil {
			return fmt.Errorf("read last id: %w", err)
		}
		if ps[0].ID <= last {
			return fmt.Errorf("puzzle %d is not past the last archived id %d", ps[0].ID, last)
		}
		t := db.newTally()
		var repeats int64 // submissions past each row's first: the tally counts one a row
		args := make([]any, 0, restoreRows*len(restoreColumns))
		for start := 0; start < len(ps); start += restoreRows {
			part := ps[start:min(start+restoreRows, len(ps))]
			args = args[:0]
			for i := range part {
				p := &part[i]
				args = appendArgs(args, restoreColumns, p)
				t.add(p)
				repeats += p.Submissions - 1
			}
			if _, err := tx.Exec(db.d.sql(restoreSQL(len(part))), args...); err != nil {
				return fmt.Errorf("puzzles %d-%d: %w", part[0].ID, part[len(part)-1].ID, err)
			}
		}
		// The tally files the heads of classes (rows without same_as) in
		// classes and counts them; rows with same_as keep theirs.
		if err := t.commit(tx); err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("UPDATE counts SET submissions = submissions + ? WHERE id = "+db.d.shard), repeats); err != nil {
			return fmt.Errorf("count submissions: %w", err)
		}
		if err := restoreHidden(tx, db.d, ps); err != nil {
			return err
		}
		if err := restoreFigures(tx, db.d, ps); err != nil {
			return err
		}
		if db.d.postgres {
			// Rows inserted with their ids leave the identity's sequence
			// where it was: the next submission must get an id past them.
			if _, err := tx.Exec("SELECT setval(pg_get_serial_sequence('puzzles', 'id'), (SELECT max(id) FROM puzzles))"); err != nil {
				return fmt.Errorf("move the id sequence past the copied rows: %w", err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("restore puzzles %d-%d: %w", ps[0].ID, ps[len(ps)-1].ID, err)
	}
	return nil
}

// restoreHidden hides the rows of ps that are hidden, as HidePuzzle does
// to the puzzles and the counters (the techniques' counts by trigger).
func restoreHidden(tx *sql.Tx, d dialect, ps []record.Puzzle) error {
	var s share
	hidden := 0
	for i := range ps {
		if !ps[i].Hidden {
			continue
		}
		hidden++
		f, err := readFacts(tx, d, ps[i].ID)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(d.sql("UPDATE puzzles SET hidden = 1 WHERE id = ?"), f.id); err != nil {
			return fmt.Errorf("hide puzzle %d: %w", f.id, err)
		}
		s.row(&f, -1)
	}
	if hidden == 0 {
		return nil
	}
	return s.apply(tx, d)
}

// restoreFigures writes the players' figures of the rows of ps that have
// plays (puzzle_figures, migration 00022; player_seconds came with the
// row).
func restoreFigures(tx *sql.Tx, d dialect, ps []record.Puzzle) error {
	for i := range ps {
		p := &ps[i]
		if p.Plays == 0 {
			continue
		}
		if _, err := tx.Exec(d.sql("INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds) VALUES (?, ?, ?, ?)"),
			p.ID, p.Plays, p.Solves, record.OrZero(p.MedianSeconds)); err != nil {
			return fmt.Errorf("puzzle %d's players' figures: %w", p.ID, err)
		}
	}
	return nil
}

// ExportAll calls fn for every archived puzzle, hidden ones too, in id
// order, with its submitter's id (SubmitterID), streaming rows from one
// read transaction: what a copy reads for Restore.
func (db *DB) ExportAll(ctx context.Context, fn func(record.Puzzle) error) error {
	if db.isClosed() {
		return ErrClosed
	}
	tx, err := db.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer tx.Rollback() //nolint:errcheck // read only
	rows, err := tx.QueryContext(ctx, "SELECT "+columns+", submitted_by FROM puzzles ORDER BY id")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var by sql.NullInt64
		p, err := scanPuzzle(func(dest ...any) error { return rows.Scan(append(dest, &by)...) })
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		p.SubmitterID = by.Int64
		if err := fn(p); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// A DailyEntry is one recorded puzzle of the day.
type DailyEntry struct {
	Date     string // YYYY-MM-DD
	PuzzleID int64
}

// Dailies returns every recorded puzzle of the day, by date, but those of
// hidden puzzles (a past day keeps its puzzle when it is hidden).
func (db *DB) Dailies(ctx context.Context) ([]DailyEntry, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	rows, err := db.reader.QueryContext(ctx, "SELECT daily.date, daily.puzzle_id FROM daily JOIN puzzles ON puzzles.id = daily.puzzle_id WHERE puzzles."+visible+" ORDER BY daily.date")
	if err != nil {
		return nil, fmt.Errorf("read the puzzles of the day: %w", err)
	}
	defer rows.Close()
	var ds []DailyEntry
	for rows.Next() {
		var d DailyEntry
		if err := rows.Scan(&d.Date, &d.PuzzleID); err != nil {
			return nil, fmt.Errorf("read the puzzles of the day: %w", err)
		}
		ds = append(ds, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the puzzles of the day: %w", err)
	}
	return slices.Clip(ds), nil
}

// restoreRows is how many rows one INSERT of Restore carries (a statement
// per row made a copy half as fast).
const restoreRows = 64

// restoreSQL inserts n rows with their ids.
func restoreSQL(n int) string {
	var q strings.Builder
	q.WriteString("INSERT INTO puzzles (" + names(restoreColumns, "") + ") VALUES ")
	row := placeholders(len(restoreColumns))
	for i := range n {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString(row)
	}
	return q.String()
}

// Settings returns the archive's settings rows (the secret Secret keeps,
// say) by name, without making any.
func (db *DB) Settings(ctx context.Context) (map[string][]byte, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	rows, err := db.reader.QueryContext(ctx, "SELECT name, value FROM settings")
	if err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	defer rows.Close()
	m := map[string][]byte{}
	for rows.Next() {
		var name string
		var value []byte
		if err := rows.Scan(&name, &value); err != nil {
			return nil, fmt.Errorf("read settings: %w", err)
		}
		m[name] = value
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read settings: %w", err)
	}
	return m, nil
}

// PutSettings writes settings rows, replacing those of the same names: a
// copied archive keeps its source's secret, so forms served before a move
// are still accepted after it.
func (db *DB) PutSettings(ctx context.Context, m map[string][]byte) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if _, err := tx.Exec(db.d.sql(`INSERT INTO settings (name, value) VALUES (?, ?)
ON CONFLICT (name) DO UPDATE SET value = excluded.value`), name, m[name]); err != nil {
				return fmt.Errorf("setting %s: %w", name, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("write settings: %w", err)
	}
	return nil
}
