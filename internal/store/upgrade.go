package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Rows measured by an older engine, or not graded yet, are brought up to
// date in place by the caller (see package bulk's Remeasure and Grade): it
// reads them a page at a time in id order with Stale or Ungraded, measures
// them, and writes the new values back with Remeasure or SetGrades, each page
// in one transaction. A row keeps its old values until its new ones are
// committed, so the work can stop at any moment and resume where it left off.

// CountStale returns how many rows were measured by another engine version
// than sudoku.EngineVersion. Variant rows are not counted: the variant
// engine measured them (variant.EngineVersion), and the classic engine's
// remeasure must never rate them.
func (db *DB) CountStale(ctx context.Context) (int64, error) {
	var n int64
	err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles WHERE engine_version <> ? AND rules = '' AND "+visible), sudoku.EngineVersion).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count stale rows: %w", err)
	}
	return n, nil
}

// Stale returns up to n rows after id after, in id order, that were measured
// by another engine version than sudoku.EngineVersion (classic rows only,
// as CountStale).
func (db *DB) Stale(ctx context.Context, after int64, n int) ([]record.Puzzle, error) {
	return db.pending(ctx, "SELECT "+columns+" FROM puzzles WHERE id > ? AND engine_version <> ? AND rules = '' AND "+visible+" ORDER BY id LIMIT ?",
		after, sudoku.EngineVersion, n)
}

// LastID returns the highest puzzle id archived (0 for an empty archive):
// where a drain of the grading queue stops (bulk.Graders.Drain).
func (db *DB) LastID(ctx context.Context) (int64, error) {
	var id int64
	if err := db.reader.QueryRowContext(ctx, "SELECT coalesce(max(id), 0) FROM puzzles").Scan(&id); err != nil {
		return 0, fmt.Errorf("read the last id: %w", err)
	}
	return id, nil
}

// CountUngraded returns how many rows wait for a grade.
func (db *DB) CountUngraded(ctx context.Context) (int64, error) {
	var n int64
	err := db.reader.QueryRowContext(ctx, "SELECT count(*) FROM puzzles"+db.d.indexedBy("puzzles_pending")+" WHERE grade_version IS NULL AND "+visible).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count ungraded rows: %w", err)
	}
	return n, nil
}

// Ungraded returns up to n rows after id after, in id order, that were not
// graded yet (or whose grade ResetGrades withdrew).
func (db *DB) Ungraded(ctx context.Context, after int64, n int) ([]record.Puzzle, error) {
	return db.pending(ctx, "SELECT "+columns+" FROM puzzles"+db.d.indexedBy("puzzles_pending")+" WHERE grade_version IS NULL AND id > ? AND "+visible+" ORDER BY id LIMIT ?",
		after, n)
}

func (db *DB) pending(ctx context.Context, q string, args ...any) ([]record.Puzzle, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	rows, err := db.reader.QueryContext(ctx, db.d.sql(q), args...)
	if err != nil {
		return nil, fmt.Errorf("read pending rows: %w", err)
	}
	defer rows.Close()
	var ps []record.Puzzle
	for rows.Next() {
		p, err := scanPuzzle(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("read pending rows: %w", err)
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read pending rows: %w", err)
	}
	return ps, nil
}

// ResetGrades withdraws the grades given by another solver version than
// version, so that they are graded again; a variant row keeps its grade
// version (record.VariantUngraded), which the classic graders must never
// take. It returns how many it withdrew.
// Start-up no longer calls it (a withdrawn grade takes its row out of the
// band lists until it is graded again: regrade.go); tests and benchmarks
// use it to make rows wait for a grade.
func (db *DB) ResetGrades(ctx context.Context, version string) (int64, error) {
	var n int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.Exec(db.d.sql("UPDATE puzzles SET grade_version = NULL WHERE grade_version <> ? AND rules = '' AND "+visible), version)
		if err == nil {
			n, err = res.RowsAffected()
		}
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("reset grades: %w", err)
	}
	return n, nil
}

// Remeasure stores the new measures of rows read with Stale, rated again by
// the current engine (ps[i].ID names the row; ps in id order), in one
// transaction. It files each row under its class: the first row of a class
// by id is its head, the others get same_as. Grades go with them when set.
func (db *DB) Remeasure(ctx context.Context, ps []record.Puzzle) error {
	for i, p := range ps {
		if p.ID <= 0 || i > 0 && p.ID <= ps[i-1].ID {
			return fmt.Errorf("remeasure: %w: rows out of id order", ErrInvalidPuzzle)
		}
		if err := check(p); err != nil {
			return fmt.Errorf("remeasure puzzle %d: %w", p.ID, err)
		}
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		find, err := tx.Prepare(db.d.sql(findClassSQL))
		if err != nil {
			return err
		}
		defer find.Close()
		update, err := tx.Prepare(db.d.sql(remeasureSQL))
		if err != nil {
			return err
		}
		defer update.Close()
		var classes, uniq int64
		heads := map[int]int64{}
		for i := range ps {
			p := &ps[i]
			key := p.CanonicalKey()
			var first int64
			var same *int64
			switch err := find.QueryRow(key).Scan(&first); {
			case errors.Is(err, sql.ErrNoRows):
				if _, err := tx.Exec(db.d.sql("INSERT INTO classes (canonical_key, first_id) VALUES (?, ?)"), key, p.ID); err != nil {
					return err
				}
				classes++
				if p.Solutions == 1 {
					uniq++
					heads[sudoku.BacktracksBucket(p.Backtracks)]++
				}
			case err != nil:
				return err
			case first != p.ID:
				same = &first
			}
			q := *p
			q.SameAs = same
			args := appendArgs(make([]any, 0, len(measureColumns)+2), measureColumns, &q)
			res, err := update.Exec(append(args, p.ID, p.GivensKey())...)
			if err != nil {
				return fmt.Errorf("puzzle %d: %w", p.ID, err)
			}
			if n, err := res.RowsAffected(); err != nil || n != 1 {
				return fmt.Errorf("puzzle %d with givens %s is not archived (%d rows, %v)", p.ID, p.Givens, n, err)
			}
		}
		if _, err := tx.Exec(db.d.sql("UPDATE counts SET classes = classes + ?, uniq_classes = uniq_classes + ? WHERE id = "+db.d.shard), classes, uniq); err != nil {
			return err
		}
		for _, b := range slices.Sorted(maps.Keys(heads)) {
			if _, err := tx.Exec(db.d.sql(`INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq, heads) VALUES (`+db.d.shard+`, 'backtracks', ?, 0, 0, ?)`+onHeadBucketSQL(db.d)), b, heads[b]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("remeasure %d puzzles: %w", len(ps), err)
	}
	return nil
}

// SetGrades stores the grades of rows read with Ungraded (ps[i].ID names the
// row, ps[i].GradeVersion must be set), in one transaction.
func (db *DB) SetGrades(ctx context.Context, ps []record.Puzzle) error {
	for i := range ps {
		if ps[i].GradeVersion == "" {
			return fmt.Errorf("set %d grades: puzzle %d: %w: no grade version", len(ps), ps[i].ID, ErrInvalidPuzzle)
		}
	}
	if db.d.postgres {
		return db.setGradesArrays(ctx, ps)
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		update, err := tx.Prepare(db.d.sql("UPDATE puzzles SET " + assignments(gradeColumns) + " WHERE id = ? AND " + visible))
		if err != nil {
			return err
		}
		defer update.Close()
		for i := range ps {
			args := appendArgs(make([]any, 0, len(gradeColumns)+1), gradeColumns, &ps[i])
			if _, err := update.Exec(append(args, ps[i].ID)...); err != nil {
				return fmt.Errorf("puzzle %d: %w", ps[i].ID, err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("set %d grades: %w", len(ps), err)
	}
	return nil
}

// setGradesArrays is SetGrades on PostgreSQL: one statement for the page,
// its values as one array per column, instead of a round trip to the server
// for each row: `sudoku import` of the 17-clue file, grading included,
// took 27 s that way and 15 s this way (as long as on SQLite).
func (db *DB) setGradesArrays(ctx context.Context, ps []record.Puzzle) error {
	n := len(ps)
	args := make([]any, 0, n*len(setGradesColumns))
	for i := range ps {
		args = appendArgs(args, setGradesColumns, &ps[i])
	}
	ids := make([]int64, n)
	for i := range ps {
		ids[i] = ps[i].ID
	}
	// One shard, so grading runs beside the submissions of every server:
	// the rows are locked in givens-key order first, the lock order of a
	// one-shard transaction (see tx.go).
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		if _, err := tx.Exec("SELECT 1 FROM puzzles WHERE id = ANY($1) ORDER BY givens_key FOR UPDATE", ids); err != nil {
			return err
		}
		_, err := tx.Exec(setGradesArraysSQL, unnestArgs(setGradesColumns, args, n)...)
		return err
	})
	if err != nil {
		return fmt.Errorf("set %d grades: %w", n, err)
	}
	return nil
}

// remeasureSQL rewrites a row's measures and grade (Remeasure).
var remeasureSQL = "UPDATE puzzles SET " + assignments(measureColumns) + " WHERE id = ? AND givens_key = ? AND " + visible

// setGradesColumns are the values setGradesArraysSQL takes for each row:
// the grade's columns, then the id.
var setGradesColumns = append(slices.Clone(gradeColumns), columnsWhere(func(c *column) bool { return c.name == "id" })...)

// setGradesArraysSQL writes the grades of many rows, one array per column
// of setGradesColumns.
var setGradesArraysSQL = func() string {
	var set, arrays []string
	for i, c := range setGradesColumns {
		arrays = append(arrays, fmt.Sprintf("$%d::%s[]", i+1, c.kind.pgType()))
		if c.name != "id" {
			set = append(set, c.name+" = u."+c.name)
		}
	}
	return "UPDATE puzzles AS p SET " + strings.Join(set, ", ") + `
FROM unnest(` + strings.Join(arrays, ", ") + ") AS u (" + names(setGradesColumns, "") + `)
WHERE p.id = u.id AND p.` + visible
}()

// write runs fn in a transaction of the writer goroutine that holds every
// counter shard.
func (db *DB) write(ctx context.Context, fn func(*sql.Tx) error) error {
	return db.writeIn(ctx, allShards, fn)
}

// writeIn runs fn in a transaction of scope of the writer goroutine.
func (db *DB) writeIn(ctx context.Context, scope txScope, fn func(*sql.Tx) error) error {
	_, err := db.do(ctx, &op{ctx: ctx, w: maintenance{func(*sql.Conn) error { return db.inScopedTx(scope, fn) }}})
	return err
}
