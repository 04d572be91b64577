package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// Daily returns the puzzle of the day recorded for date (YYYY-MM-DD), or
// sudoku.ErrNotFound.
func (db *DB) Daily(ctx context.Context, date string) (sudoku.Puzzle, error) {
	if db.isClosed() {
		return sudoku.Puzzle{}, ErrClosed
	}
	var id int64
	err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT puzzle_id FROM daily WHERE date = ?"), date).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return sudoku.Puzzle{}, fmt.Errorf("puzzle of the day %s: %w", date, sudoku.ErrNotFound)
	}
	if err != nil {
		return sudoku.Puzzle{}, fmt.Errorf("puzzle of the day %s: %w", date, err)
	}
	return db.Puzzle(ctx, id)
}

// SetDaily records the archived puzzle p (p.ID set) as the puzzle of date,
// unless the date has one already, and returns the date's puzzle: p, or the
// one recorded first (by another server on the same archive, say). It fails
// with sudoku.ErrDailyRepeat when p's class is the puzzle of another date.
func (db *DB) SetDaily(ctx context.Context, date string, p sudoku.Puzzle) (sudoku.Puzzle, error) {
	if p.ID <= 0 || p.Canonical == (sudoku.Grid{}) {
		return sudoku.Puzzle{}, fmt.Errorf("%w: the puzzle of the day must be archived", ErrInvalidPuzzle)
	}
	// Another server may record the date, or p's class for another date,
	// at the same moment: the INSERT skips a row that conflicts with either
	// (waiting for the other transaction), and what it finds after says
	// which.
	var id int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(db.d.sql(db.d.insertIgnore+" daily (date, puzzle_id, canonical_key) VALUES (?, ?, ?)"+db.d.ignoreTail),
			date, p.ID, p.Canonical.Key()); err != nil {
			return err
		}
		if err := tx.QueryRow(db.d.sql("SELECT puzzle_id FROM daily WHERE date = ?"), date).Scan(&id); err == nil {
			return nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var other string
		if err := tx.QueryRow(db.d.sql("SELECT date FROM daily WHERE canonical_key = ?"), p.Canonical.Key()).Scan(&other); err != nil {
			return err
		}
		return fmt.Errorf("%w (%s)", sudoku.ErrDailyRepeat, other)
	})
	if err != nil {
		return sudoku.Puzzle{}, fmt.Errorf("record puzzle of the day %s: %w", date, err)
	}
	return db.Puzzle(ctx, id)
}
