package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// The played filter (ListQuery.Played) is a condition on the player's
// attempts, matched by class as an attempt's first is (attempts.class_key
// is the puzzle's coalesce(canonical_key, givens_key) when the attempt
// began). Each subquery names outcome the way the partial indexes of
// migration 00013 do (attempts_class: outcome <> 'open'; attempts_open:
// outcome = 'open'), so that each is a seek on (player_id, class_key) or a
// walk of the player's open attempts. The listing itself still walks its
// order's index and skips the rows the filter leaves out: a page of the
// puzzles a player solved costs up to the rows walked to find them.
const (
	playedClass   = "class_key = coalesce(puzzles.canonical_key, puzzles.givens_key)"
	playedSolved  = "EXISTS (SELECT 1 FROM attempts WHERE player_id = ? AND " + playedClass + " AND outcome <> 'open' AND outcome = 'solved')"
	playedNothing = "NOT EXISTS (SELECT 1 FROM attempts WHERE player_id = ? AND " + playedClass + " AND outcome <> 'open')" +
		" AND NOT EXISTS (SELECT 1 FROM attempts WHERE player_id = ? AND " + playedClass + " AND outcome = 'open')"
)

// collectionCond keeps the puzzles of one collection: a probe of
// collection_puzzles' primary key for each row the listing walks (migration
// 00016). Like the played filter, a page costs up to the rows walked to
// find its puzzles.
const collectionCond = "EXISTS (SELECT 1 FROM collection_puzzles WHERE collection_id = ? AND puzzle_id = puzzles.id)"

// addCollection adds l's collection filter, if any, to where.
func addCollection(where *conds, l listing) {
	if l.listKey.collection {
		where.and(collectionCond, l.coll)
	}
}

// addPlayed adds l's played filter, if any, to where.
func addPlayed(where *conds, l listing) {
	switch l.played {
	case record.PlayedSolved:
		where.and(playedSolved, l.player)
	case record.PlayedUnplayed:
		where.and(playedNothing, l.player, l.player)
	}
}

// filterConds are the conditions of q's filters, for counting its rows.
func filterConds(q record.ListQuery) conds {
	var where conds
	where.and(visible)
	l := listingOf(q)
	if q.Band != "" {
		where.and("band = ?", int64(l.band))
	}
	if q.UniqueOnly || q.Band != "" {
		where.and("solutions = 1")
	}
	if q.Distinct {
		where.and("same_as IS NULL")
	}
	if l.listKey.grades {
		where.and("grade BETWEEN ? AND ?", l.grades[0], l.grades[1])
	}
	addPlayed(&where, l)
	addCollection(&where, l)
	addVariant(&where, l)
	return where
}

// playedTotal counts the puzzles of a listing with a played filter, with
// every condition of the listing: exact, at the cost of reading the
// filtered rows (the filter depends on the player, so no counter holds it).
func (db *DB) playedTotal(ctx context.Context, tx *sql.Tx, q record.ListQuery) (int64, error) {
	where := filterConds(q)
	var n int64
	err := tx.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles WHERE "+strings.Join(where.text, " AND ")), where.args...).Scan(&n)
	return n, err
}

// inPlayed reports whether puzzle id passes q's played filter (true when q
// has none).
func (db *DB) inPlayed(ctx context.Context, tx *sql.Tx, q record.ListQuery, id int64) (bool, error) {
	if q.Played == "" && q.Techniques == "" {
		return true, nil
	}
	var where conds
	where.and("id = ?", id)
	addPlayed(&where, listingOf(q))
	addTechniques(&where, listingOf(q))
	var n int64
	if err := tx.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles WHERE "+strings.Join(where.text, " AND ")), where.args...).Scan(&n); err != nil {
		return false, fmt.Errorf("puzzle %d played: %w", id, err)
	}
	return n > 0, nil
}

// collectionTotal counts the puzzles of a listing of one collection, with
// every other condition of the listing: from the collection's rows, so the
// count costs the collection's size, not the archive's. Without another
// condition it counts the collection's own rows, not joined to puzzles.
func (db *DB) collectionTotal(ctx context.Context, tx *sql.Tx, q record.ListQuery) (int64, error) {
	c := q.Collection
	q.Collection = 0
	where := filterConds(q)
	if len(where.text) == 0 {
		var n int64
		err := tx.QueryRowContext(ctx, db.d.sql("SELECT "+collectionSize+" FROM collections WHERE id = ?"), c).Scan(&n)
		if errors.Is(err, sql.ErrNoRows) {
			return 0, nil
		}
		return n, err
	}
	where.and(visible) // as every listing: never a hidden puzzle
	text := "SELECT count(*) FROM collection_puzzles JOIN puzzles ON puzzles.id = collection_puzzles.puzzle_id WHERE collection_puzzles.collection_id = ?"
	args := append([]any{c}, where.args...)
	if len(where.text) > 0 {
		text += " AND " + strings.Join(where.text, " AND ")
	}
	var n int64
	err := tx.QueryRowContext(ctx, db.d.sql(text), args...).Scan(&n)
	return n, err
}
