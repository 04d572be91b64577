package store

import (
	"context"
	"database/sql"
	"math"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// The grade order puts the puzzles without a grade (pending, or with
// several solutions: grade 0 in the table) after the graded ones in both
// directions (docs/api.md). Descending, that is the index's own order;
// ascending, the listing is two walks of the same index: the graded rows
// (grade 1 and up) by grade, then the ungraded ones (grade 0) by id. A key
// (0, id) is one of the second walk, so cursors need no new field. An
// export reads the two walks one after the other.

// pendingLast reports whether q's listing walks the graded rows first,
// then the ungraded: an ascending grade order with no grade range (a range
// leaves the ungraded out), or an ascending NoneLast order (player_time:
// the rows with a value, then those without).
func pendingLast(q record.ListQuery) bool {
	if info, _ := q.Sort.Info(); info.NoneLast {
		return !q.Desc
	}
	return q.Sort == record.SortGrade && !q.Desc && gradeRange(q) == nil
}

// A valuedPart is a part of a NoneLast order's rows (listKey.valued).
type valuedPart uint8

const (
	everyRow   valuedPart = iota
	valuedOnly            // leading key > 0
	noneOnly              // leading key = 0
)

// valuedParts are the parts of s's rows its statements read: every row,
// and for a NoneLast order each part alone.
func valuedParts(s record.Sort) []valuedPart {
	if info, _ := s.Info(); info.NoneLast {
		return []valuedPart{everyRow, valuedOnly, noneOnly}
	}
	return []valuedPart{everyRow}
}

// exportListings are the listings an export of q reads, one after the
// other: q's own, or for a pendingLast order the graded rows, then the
// ungraded.
func exportListings(q record.ListQuery) []listing {
	l := listingOf(q)
	if !pendingLast(q) {
		return []listing{l}
	}
	graded, ungraded := splitGraded(l)
	return []listing{graded, ungraded}
}

// splitGraded returns l limited to the graded rows and to the others (for
// a NoneLast order: the rows with a value and the others).
func splitGraded(l listing) (graded, ungraded listing) {
	graded, ungraded = l, l
	if info, _ := l.sort.Info(); info.NoneLast {
		graded.valued, ungraded.valued = valuedOnly, noneOnly
		return graded, ungraded
	}
	graded.listKey.grades, graded.grades = true, [2]int64{1, math.MaxInt64}
	ungraded.listKey.grades, ungraded.grades = true, [2]int64{0, 0}
	return graded, ungraded
}

// fetchPendingLast is fetch for a pendingLast listing l: forward (l.desc
// false) the graded rows then the ungraded, backward the other way round,
// from the row with key from (nil: from the start of that direction).
func (db *DB) fetchPendingLast(ctx context.Context, tx *sql.Tx, l listing, from []int64, n int) ([]record.Puzzle, error) {
	graded, ungraded := splitGraded(l)
	inUngraded := from != nil && from[0] == 0
	first, second := graded, ungraded
	firstFrom := from
	switch {
	case !l.desc && inUngraded:
		return db.fetch(ctx, tx, ungraded, from, n)
	case l.desc && from != nil && !inUngraded:
		return db.fetch(ctx, tx, graded, from, n)
	case l.desc:
		first, second = ungraded, graded
	}
	ps, err := db.fetch(ctx, tx, first, firstFrom, n)
	if err != nil || len(ps) == n {
		return ps, err
	}
	more, err := db.fetch(ctx, tx, second, nil, n-len(ps))
	return append(ps, more...), err
}
