package store

// variantbrowse.go holds the two reads that browse the archive by variant
// outside the listing: the count of each variant (/stats) and the newest
// variants (the home page). Both read the variant rows alone, through the
// partial index puzzles_variant (migration 00028), so their cost follows
// the variants archived, not the archive; both databases run the same SQL.

import (
	"context"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// VariantCounts returns how many visible puzzles have each variant (a
// short name of variant.FamilyNames; a puzzle of two variants counts in
// each) and how many have rules at all, so that the classic ones are the
// archive's total less variants.
func (db *DB) VariantCounts(ctx context.Context) (byName map[string]int64, variants int64, err error) {
	if db.isClosed() {
		return nil, 0, ErrClosed
	}
	rows, err := db.reader.QueryContext(ctx, "SELECT variant, count(*) FROM puzzles WHERE rules <> '' AND "+visible+" GROUP BY variant")
	if err != nil {
		return nil, 0, fmt.Errorf("count variants: %w", err)
	}
	defer rows.Close()
	byName = map[string]int64{}
	for rows.Next() {
		var list string
		var n int64
		if err := rows.Scan(&list, &n); err != nil {
			return nil, 0, fmt.Errorf("count variants: %w", err)
		}
		variants += n
		for _, name := range record.Variants(list).List() {
			byName[name] += n
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("count variants: %w", err)
	}
	return byName, variants, nil
}

// RecentVariants returns the n newest visible variant puzzles, newest
// first.
func (db *DB) RecentVariants(ctx context.Context, n int) ([]record.Puzzle, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	rows, err := db.reader.QueryContext(ctx, db.d.sql("SELECT "+columns+" FROM puzzles WHERE rules <> '' AND "+visible+" ORDER BY id DESC LIMIT ?"), n)
	if err != nil {
		return nil, fmt.Errorf("recent variants: %w", err)
	}
	defer rows.Close()
	var out []record.Puzzle
	for rows.Next() {
		p, err := scanPuzzle(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("recent variants: %w", err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("recent variants: %w", err)
	}
	return out, nil
}
