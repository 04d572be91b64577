package store

import (
	"context"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// A new solver version used to withdraw every older grade at start-up
// (ResetGrades): the rows left their bands (the band is computed from a
// grade and its version) and the band lists emptied for as long as the
// graders took to grade the archive again, hours for a large one (issue
// 50). The regrade (bulk.Regrader) now reads the rows an older solver
// graded with StaleGrades and writes their new grades over the old ones
// with SetGrades: a row keeps its grade, its band and its place in the
// technique index until its new grade is committed.

// CountStaleGrades returns how many rows hold a grade given by another
// solver version than version: classic rows only, since a variant row's
// version (record.VariantUngraded) is never the classic solver's and it
// must never grade one.
func (db *DB) CountStaleGrades(ctx context.Context, version string) (int64, error) {
	var n int64
	err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles WHERE grade_version IS NOT NULL AND grade_version <> ? AND rules = '' AND "+visible),
		version).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("count rows graded by another solver: %w", err)
	}
	return n, nil
}

// StaleGrades returns up to n rows after id after, in id order, whose grade
// another solver version than version gave. It walks the table in id
// order (no index holds these rows: they are all the graded rows once
// per solver version), so a whole pass reads the table about once.
func (db *DB) StaleGrades(ctx context.Context, version string, after int64, n int) ([]record.Puzzle, error) {
	return db.pending(ctx, "SELECT "+columns+" FROM puzzles WHERE id > ? AND grade_version IS NOT NULL AND grade_version <> ? AND rules = '' AND "+visible+" ORDER BY id LIMIT ?",
		after, version, n)
}
