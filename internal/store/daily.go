package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// Daily returns the puzzle of the day recorded for date (YYYY-MM-DD), or
// record.ErrNotFound.
func (db *DB) Daily(ctx context.Context, date string) (record.Puzzle, error) {
	if db.isClosed() {
		return record.Puzzle{}, ErrClosed
	}
	var id int64
	err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT puzzle_id FROM daily WHERE date = ?"), date).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return record.Puzzle{}, fmt.Errorf("puzzle of the day %s: %w", date, record.ErrNotFound)
	}
	if err != nil {
		return record.Puzzle{}, fmt.Errorf("puzzle of the day %s: %w", date, err)
	}
	return db.Puzzle(ctx, id)
}

// SetDaily records the archived puzzle p (p.ID set) as the puzzle of date,
// unless the date has one already, and returns the date's puzzle: p, or the
// one recorded first (by another server on the same archive, say). It fails
// with record.ErrDailyRepeat when p's class is the puzzle of another date.
func (db *DB) SetDaily(ctx context.Context, date string, p record.Puzzle) (record.Puzzle, error) {
	if p.ID <= 0 || !p.HasCanonical() {
		return record.Puzzle{}, fmt.Errorf("%w: the puzzle of the day must be archived", ErrInvalidPuzzle)
	}
	// Another server may record the date, or p's class for another date,
	// at the same moment: the INSERT skips a row that conflicts with either
	// (waiting for the other transaction), and what it finds after says
	// which.
	var id int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(db.d.sql(db.d.insertIgnore+" daily (date, puzzle_id, canonical_key) VALUES (?, ?, ?)"+db.d.ignoreTail),
			date, p.ID, p.CanonicalKey()); err != nil {
			return err
		}
		if err := tx.QueryRow(db.d.sql("SELECT puzzle_id FROM daily WHERE date = ?"), date).Scan(&id); err == nil {
			return nil
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var other string
		if err := tx.QueryRow(db.d.sql("SELECT date FROM daily WHERE canonical_key = ?"), p.CanonicalKey()).Scan(&other); err != nil {
			return err
		}
		return fmt.Errorf("%w (%s)", record.ErrDailyRepeat, other)
	})
	if err != nil {
		return record.Puzzle{}, fmt.Errorf("record puzzle of the day %s: %w", date, err)
	}
	return db.Puzzle(ctx, id)
}

// dailySecretName is the settings row of DailySecret.
const dailySecretName = "daily-secret"

// dailySecretBytes is daily.SecretBytes (the store does not import daily).
const dailySecretBytes = 32

// DailySecret returns the archive's secret for the puzzles of the day:
// random bytes made by the first call on this archive (the first start of
// the first server) and the same ever after, for every server on it. The
// days' puzzles are derived from it, so that nobody can compute a day's
// puzzle before it (issue 45); it lives only here, in the settings table
// (migration 00009, both databases), never in source or logs.
func (db *DB) DailySecret(ctx context.Context) ([]byte, error) {
	return db.keptSecret(ctx, dailySecretName, dailySecretBytes, "the daily secret")
}
