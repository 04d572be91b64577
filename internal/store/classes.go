package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// maxEquivalents caps the entries Equivalents lists.
const maxEquivalents = 100

// Equivalents returns the archived entries of p's class (the other ways of
// writing the same puzzle, p's own entry included), in id order, the first
// entry first; at most 100.
func (db *DB) Equivalents(ctx context.Context, p record.Puzzle) ([]record.Puzzle, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	head := p.ID
	if p.SameAs != nil {
		head = *p.SameAs
	}
	rows, err := db.reader.QueryContext(ctx,
		db.d.sql("SELECT "+columns+" FROM puzzles WHERE id = ?1 AND "+visible+" UNION ALL SELECT "+columns+" FROM puzzles WHERE same_as = ?1 AND "+visible+" ORDER BY id LIMIT ?2"),
		head, maxEquivalents)
	if err != nil {
		return nil, fmt.Errorf("equivalents of puzzle %d: %w", p.ID, err)
	}
	defer rows.Close()
	var ps []record.Puzzle
	for rows.Next() {
		q, err := scanPuzzle(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("equivalents of puzzle %d: %w", p.ID, err)
		}
		ps = append(ps, q)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("equivalents of puzzle %d: %w", p.ID, err)
	}
	return ps, nil
}

// ByCanonical returns the first archived entry of the class with canonical
// form c, or record.ErrNotFound.
func (db *DB) ByCanonical(ctx context.Context, c sudoku.Grid) (record.Puzzle, error) {
	if db.isClosed() {
		return record.Puzzle{}, ErrClosed
	}
	var id int64
	err := db.reader.QueryRowContext(ctx, db.d.sql(findClassSQL), c.Key()).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return record.Puzzle{}, fmt.Errorf("canonical form %s: %w", c, record.ErrNotFound)
	}
	if err != nil {
		return record.Puzzle{}, fmt.Errorf("find canonical form %s: %w", c, err)
	}
	return db.Puzzle(ctx, id)
}

// PuzzleByGivens returns the archived puzzle with exactly these givens, or
// record.ErrNotFound: one seek of the givens key.
func (db *DB) PuzzleByGivens(ctx context.Context, givens sudoku.Grid) (record.Puzzle, error) {
	if db.isClosed() {
		return record.Puzzle{}, ErrClosed
	}
	p, err := scanPuzzle(db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+columns+" FROM puzzles WHERE givens_key = ? AND "+visible), givens.Key()).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return record.Puzzle{}, fmt.Errorf("givens %s: %w", givens, record.ErrNotFound)
	}
	if err != nil {
		return record.Puzzle{}, fmt.Errorf("find givens %s: %w", givens, err)
	}
	return p, nil
}
