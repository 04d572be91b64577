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
	err := db.reader.QueryRowContext(ctx, "SELECT puzzle_id FROM daily WHERE date = ?", date).Scan(&id)
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
	var id int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRow("SELECT puzzle_id FROM daily WHERE date = ?", date).Scan(&id); err == nil {
			return nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var other string
		switch err := tx.QueryRow("SELECT date FROM daily WHERE canonical_key = ?", p.Canonical.Key()).Scan(&other); {
		case err == nil:
			return fmt.Errorf("%w (%s)", sudoku.ErrDailyRepeat, other)
		case !errors.Is(err, sql.ErrNoRows):
			return err
		}
		id = p.ID
		_, err := tx.Exec("INSERT INTO daily (date, puzzle_id, canonical_key) VALUES (?, ?, ?)", date, p.ID, p.Canonical.Key())
		return err
	})
	if err != nil {
		return sudoku.Puzzle{}, fmt.Errorf("record puzzle of the day %s: %w", date, err)
	}
	return db.Puzzle(ctx, id)
}
