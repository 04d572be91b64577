package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// statsSQL reads every counter the stats page shows: a few dozen rows (the
// tables of migrations 00003 and 00004), whatever the archive's size. The
// store counts the rows it inserts, once per transaction (tally); the
// triggers left since migration 00006 count rows updated or deleted by hand.
// Each counter is the sum of its shards' rows (migration 00012).
const statsSQL = `SELECT 'total', 0, CAST(sum(total) AS BIGINT), CAST(sum(uniq) AS BIGINT) FROM counts
UNION ALL SELECT 'classes', 0, CAST(sum(classes) AS BIGINT), CAST(sum(uniq_classes) AS BIGINT) FROM counts
UNION ALL SELECT 'submissions', 0, CAST(sum(submissions) AS BIGINT), 0 FROM counts
UNION ALL SELECT kind, bucket, CAST(sum(n) AS BIGINT), CAST(sum(uniq) AS BIGINT) FROM stat_buckets GROUP BY kind, bucket HAVING sum(n) > 0`

// Stats returns the archive's counts and histograms, from one read
// transaction so they agree with each other.
func (db *DB) Stats(ctx context.Context) (record.Stats, error) {
	if db.isClosed() {
		return record.Stats{}, ErrClosed
	}
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return record.Stats{}, fmt.Errorf("stats: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, statsSQL)
	if err != nil {
		return record.Stats{}, fmt.Errorf("stats: %w", err)
	}
	defer rows.Close()
	var s record.Stats
	add := func(h *[]int64, k int, n int64) {
		for len(*h) <= k {
			*h = append(*h, 0)
		}
		(*h)[k] = n
	}
	for rows.Next() {
		var kind string
		var bucket int
		var n, uniq int64
		if err := rows.Scan(&kind, &bucket, &n, &uniq); err != nil {
			return record.Stats{}, fmt.Errorf("stats: %w", err)
		}
		if bucket < 0 || bucket > 81 {
			return record.Stats{}, fmt.Errorf("stats: %s bucket %d out of range", kind, bucket)
		}
		switch kind {
		case "total":
			s.Total, s.Unique = n, uniq
		case "submissions":
			s.Submissions = n
		case "classes":
			s.Distinct = n
		case "backtracks":
			add(&s.Backtracks, bucket, n)
		case "solve_ns":
			add(&s.SolveTime, bucket, n)
		case "clues":
			add(&s.Clues, bucket, n)
		}
	}
	if err := rows.Err(); err != nil {
		return record.Stats{}, fmt.Errorf("stats: %w", err)
	}
	rows.Close()
	if s.Grades, err = gradeCounts(ctx, tx); err != nil {
		return record.Stats{}, fmt.Errorf("stats: %w", err)
	}
	// The rows waiting for a grade are few but for the moments after an
	// import or an upgrade: count them on their own partial index.
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM puzzles"+db.d.indexedBy("puzzles_pending")+" WHERE grade_version IS NULL AND solutions = 1 AND "+visible).Scan(&s.Ungraded); err != nil {
		return record.Stats{}, fmt.Errorf("stats: %w", err)
	}
	return s, tx.Commit()
}

// bandTotal is the number of puzzles in band b, from the grade counters
// (a band is a range of grades: exactly the rows grade_counts counts). One
// row per puzzle, the band's entries that are another way of writing an
// archived puzzle (same_as set) come off: counted on whichever index holds
// fewer rows to visit, every such entry of the archive (the partial index
// puzzles_same_as) or the band's entries (the band and grade index), as
// the class counters tell. Either is exact; the first is what keeps a
// band of a million-puzzle archive with few such entries cheap (counting
// a band's entries cost 1.5-9 s there).
func (db *DB) bandTotal(ctx context.Context, tx *sql.Tx, b sudoku.BandInfo, distinct bool) (int64, error) {
	var n int64
	err := tx.QueryRowContext(ctx, db.d.sql("SELECT coalesce(sum(n), 0) FROM grade_counts WHERE grade BETWEEN ? AND ?"), b.Min, min(b.Max, 1<<31)).Scan(&n)
	if err != nil || !distinct {
		return n, err
	}
	var total, classes int64
	if err := tx.QueryRowContext(ctx, "SELECT total, classes FROM counts WHERE id = 1").Scan(&total, &classes); err != nil {
		return 0, err
	}
	rank := int64(b.Band.Rank())
	if total-classes < n {
		var others int64
		err := tx.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles"+db.d.indexedBy("puzzles_same_as")+" WHERE same_as IS NOT NULL AND band = ? AND "+visible), rank).Scan(&others)
		return n - others, err
	}
	err = tx.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles"+db.d.indexedBy("puzzles_band_grade")+" WHERE band = ? AND same_as IS NULL AND "+visible), rank).Scan(&n)
	return n, err
}

// gradeTotal counts the puzzles of a listing with a grade range: from the
// grade counters alone (a band is a range of grades too), or, one row per
// puzzle, by counting the range on the band and grade index (a seek per
// band; its cost grows with the puzzles in the range, not with the
// archive).
func (db *DB) gradeTotal(ctx context.Context, tx *sql.Tx, q record.ListQuery) (int64, error) {
	r := gradeRange(q)
	var n int64
	if b, ok := q.Band.Info(); ok {
		r = []int64{max(r[0], b.Min), min(r[1], b.Max)}
	}
	if !q.Distinct {
		err := tx.QueryRowContext(ctx, db.d.sql("SELECT coalesce(sum(n), 0) FROM grade_counts WHERE grade BETWEEN ? AND ?"), r[0], r[1]).Scan(&n)
		return n, err
	}
	bands := "0, 1, 2, 3, 4"
	if q.Band != "" {
		bands = strconv.Itoa(bandRank(q.Band))
	}
	cond := ""
	if q.Distinct {
		cond = " AND same_as IS NULL"
	}
	err := tx.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles"+db.d.indexedBy("puzzles_band_grade")+" WHERE band IN ("+bands+
		") AND grade BETWEEN ? AND ? AND solutions = 1 AND "+visible+cond), r[0], r[1]).Scan(&n)
	return n, err
}

// around fills page with the page of q that holds puzzle q.Around: up to
// q.Limit/2 puzzles before it in q's order, the puzzle, and the rest after
// it, with cursors to page on either way. An id that is not archived, or not
// in q's listing (filtered out by q.UniqueOnly or q.Band), gives
// record.ErrNotFound.
func (db *DB) around(ctx context.Context, tx *sql.Tx, q record.ListQuery, page *record.Page,
	fetch func(desc bool, from []int64, n int) ([]record.Puzzle, error), at func(cursor) string) error {
	p, err := scanPuzzle(tx.StmtContext(ctx, db.getStmt).QueryRowContext(ctx, q.Around).Scan)
	if errors.Is(err, sql.ErrNoRows) || err == nil && (q.UniqueOnly && !p.Unique || q.Band != "" && p.Band != q.Band || q.Distinct && p.SameAs != nil) {
		return fmt.Errorf("puzzle %d in this listing: %w", q.Around, record.ErrNotFound)
	}
	if err != nil {
		return err
	}
	if in, err := db.inPlayed(ctx, tx, q, p.ID); err != nil || !in {
		return cmp.Or(err, fmt.Errorf("puzzle %d in this listing: %w", q.Around, record.ErrNotFound))
	}
	key := keyOf(q.Sort, &p)
	half := q.Limit / 2
	before, err := fetch(!q.Desc, key, half+1)
	if err != nil {
		return err
	}
	moreBefore := len(before) > half
	before = before[:min(len(before), half)]
	slices.Reverse(before)
	need := q.Limit - len(before) - 1
	after, err := fetch(q.Desc, key, need+1)
	if err != nil {
		return err
	}
	moreAfter := len(after) > need
	after = after[:min(len(after), need)]
	rows := append(append(before, p), after...)
	if moreBefore {
		page.PrevCursor = at(cursor{before: true, key: keyOf(q.Sort, &rows[0])})
	}
	if moreAfter {
		page.NextCursor = at(cursor{key: keyOf(q.Sort, &rows[len(rows)-1])})
	}
	page.Puzzles = rows
	return nil
}

// gradeCounts reads the grade counters, hardest first, leaving out the
// ungradable entries (several solutions).
func gradeCounts(ctx context.Context, tx *sql.Tx) ([]record.GradeCount, error) {
	rows, err := tx.QueryContext(ctx, "SELECT grade, technique, CAST(sum(n) AS BIGINT) FROM grade_counts WHERE grade > 0 GROUP BY grade, technique HAVING sum(n) > 0 ORDER BY grade DESC, technique")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var gs []record.GradeCount
	for rows.Next() {
		var g record.GradeCount
		if err := rows.Scan(&g.Tenths, &g.Technique, &g.N); err != nil {
			return nil, err
		}
		gs = append(gs, g)
	}
	return gs, rows.Err()
}
