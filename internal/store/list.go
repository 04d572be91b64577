package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// Puzzle returns the puzzle with the given id, or record.ErrNotFound.
func (db *DB) Puzzle(ctx context.Context, id int64) (record.Puzzle, error) {
	if db.isClosed() {
		return record.Puzzle{}, ErrClosed
	}
	p, err := scanPuzzle(db.getStmt.QueryRowContext(ctx, id).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return record.Puzzle{}, fmt.Errorf("puzzle %d: %w", id, record.ErrNotFound)
	}
	if err != nil {
		return record.Puzzle{}, fmt.Errorf("load puzzle %d: %w", id, err)
	}
	return p, nil
}

// List returns one page of the archive in q's order, of the puzzles in
// q.Band when it is set (a page of one band is an index seek in every
// order; see migration 00005). Paging is by keyset:
// the cursor carries the key of the row it continues from, so a deep page
// costs what the first one does. It fails with ErrInvalidQuery for an
// unknown sort or a limit outside 1..record.MaxLimit (0 means
// record.DefaultLimit), and with record.ErrInvalidCursor for a cursor that
// List did not issue for this sort, direction and filter.
func (db *DB) List(ctx context.Context, q record.ListQuery) (record.Page, error) {
	if db.isClosed() {
		return record.Page{}, ErrClosed
	}
	q, err := normalize(q)
	if err != nil {
		return record.Page{}, err
	}
	cur, err := listCursor(q)
	if err != nil {
		return record.Page{}, err
	}

	// One read transaction, so the total and the rows agree.
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return record.Page{}, fmt.Errorf("list: %w", err)
	}
	defer tx.Rollback()
	pg := &pager{db: db, ctx: ctx, tx: tx, q: q, base: listingOf(q)}
	if some, err := pg.planTechniques(); err != nil || !some {
		// Some technique asked for is used by no puzzle: an empty page.
		return record.Page{Puzzles: []record.Puzzle{}}, err
	}
	if pg.page.Total, err = pg.total(); err != nil {
		return record.Page{}, err
	}
	switch {
	case cur == nil && q.Around != 0:
		err = db.around(ctx, tx, q, &pg.page, pg.fetchN, pg.at)
	case cur == nil:
		err = pg.first()
	case !cur.before:
		err = pg.after(cur.key)
	default:
		err = pg.before(cur.key)
	}
	if err != nil {
		return record.Page{}, fmt.Errorf("list: %w", err)
	}
	if pg.page.Puzzles == nil {
		pg.page.Puzzles = []record.Puzzle{}
	}
	return pg.page, nil
}

// listCursor decodes q's cursor, nil when q has none. It fails with
// record.ErrInvalidCursor for a cursor List did not issue for q's sort,
// direction and filter.
func listCursor(q record.ListQuery) (*cursor, error) {
	if q.Cursor == "" {
		return nil, nil
	}
	cur, err := decodeCursor(q.Cursor, len(orders[q.Sort].keys))
	if err != nil {
		return nil, err
	}
	if cur.sort != q.Sort || cur.desc != q.Desc || cur.unique != q.UniqueOnly || cur.distinct != q.Distinct || cur.grades != (gradeRange(q) != nil) || cur.band != q.Band || cur.played != q.Played || cur.techniques != filterHash(q) || cur.collection != q.Collection {
		return nil, fmt.Errorf("%w: issued for another sort, order or filter", record.ErrInvalidCursor)
	}
	return cur, nil
}

// total counts the puzzles of the pager's filter.
func (pg *pager) total() (int64, error) {
	if pg.q.Techniques != "" {
		return pg.techniqueTotal()
	}
	return pg.db.listTotal(pg.ctx, pg.tx, pg.q)
}

// listTotal counts the puzzles of q's filter (played, band, grade range,
// unique, distinct), in tx so the count agrees with the rows listed.
func (db *DB) listTotal(ctx context.Context, tx *sql.Tx, q record.ListQuery) (int64, error) {
	switch {
	case q.Collection != 0:
		n, err := db.collectionTotal(ctx, tx, q)
		if err != nil {
			return 0, fmt.Errorf("list: count collection %d: %w", q.Collection, err)
		}
		return n, nil
	case q.Played != "":
		n, err := db.playedTotal(ctx, tx, q)
		if err != nil {
			return 0, fmt.Errorf("list: count %s: %w", q.Played, err)
		}
		return n, nil
	case q.Variant != "":
		return db.variantTotal(ctx, tx, q)
	case gradeRange(q) != nil:
		n, err := db.gradeTotal(ctx, tx, q)
		if err != nil {
			return 0, fmt.Errorf("list: count grades: %w", err)
		}
		return n, nil
	case q.Band != "":
		info, _ := q.Band.Info()
		n, err := db.bandTotal(ctx, tx, info, q.Distinct)
		if err != nil {
			return 0, fmt.Errorf("list: count band %s: %w", q.Band, err)
		}
		return n, nil
	}
	var total, uniq, classes, uniqClasses int64
	if err := tx.StmtContext(ctx, db.countStmt).QueryRowContext(ctx).Scan(&total, &uniq, &classes, &uniqClasses); err != nil {
		return 0, fmt.Errorf("list: count: %w", err)
	}
	switch {
	case q.Distinct && q.UniqueOnly:
		return uniqClasses, nil
	case q.Distinct:
		return classes, nil
	case q.UniqueOnly:
		return uniq, nil
	default:
		return total, nil
	}
}

// pager fills one page of a List in one read transaction: the first page,
// the page after a cursor's key or the page before it.
type pager struct {
	db   *DB
	ctx  context.Context
	tx   *sql.Tx
	q    record.ListQuery
	base listing // q's listing from its start
	page record.Page
	// counts are the puzzles of each technique of q's filter.
	counts map[string]int64
}

// at is the cursor c encoded for the pager's query.
func (pg *pager) at(c cursor) string {
	q := pg.q
	c.sort, c.desc, c.unique, c.distinct, c.band = q.Sort, q.Desc, q.UniqueOnly, q.Distinct, q.Band
	c.grades, c.played, c.techniques, c.collection = gradeRange(q) != nil, q.Played, filterHash(q), q.Collection
	return c.encode()
}

// fetchN returns up to n rows in order desc from the key from (the start
// when nil).
func (pg *pager) fetchN(desc bool, from []int64, n int) ([]record.Puzzle, error) {
	l := pg.base
	l.desc = desc
	if pendingLast(pg.q) {
		return pg.db.fetchPendingLast(pg.ctx, pg.tx, l, from, n)
	}
	return pg.db.fetch(pg.ctx, pg.tx, l, from, n)
}

// fetch returns a page of rows and one more, which tells whether a page
// follows.
func (pg *pager) fetch(desc bool, from []int64) ([]record.Puzzle, error) {
	return pg.fetchN(desc, from, pg.q.Limit+1)
}

// first fills the first page.
func (pg *pager) first() error {
	rows, err := pg.fetch(pg.q.Desc, nil)
	if err != nil {
		return err
	}
	if len(rows) > pg.q.Limit {
		rows = rows[:pg.q.Limit]
		pg.page.NextCursor = pg.at(cursor{key: keyOf(pg.q.Sort, &rows[len(rows)-1])})
	}
	pg.page.Puzzles = rows
	return nil
}

// after fills the page that follows the key.
func (pg *pager) after(key []int64) error {
	q := pg.q
	rows, err := pg.fetch(q.Desc, key)
	if err != nil {
		return err
	}
	if len(rows) > q.Limit {
		rows = rows[:q.Limit]
		pg.page.NextCursor = pg.at(cursor{key: keyOf(q.Sort, &rows[len(rows)-1])})
	}
	pg.page.Puzzles = rows
	if len(rows) > 0 {
		pg.page.PrevCursor = pg.at(cursor{before: true, key: keyOf(q.Sort, &rows[0])})
		return nil
	}
	// Nothing after the key: the page before ends with the key's own
	// row. "Before id±1" includes it.
	key = slices.Clone(key)
	if q.Desc {
		key[len(key)-1]--
	} else {
		key[len(key)-1]++
	}
	pg.page.PrevCursor = pg.at(cursor{before: true, key: key})
	return nil
}

// before fills the page before the key: it walks the opposite way from
// it, then turns the rows round. Fewer than a full page before it means
// the first page.
func (pg *pager) before(key []int64) error {
	q := pg.q
	rows, err := pg.fetch(!q.Desc, key)
	if err != nil {
		return err
	}
	if len(rows) <= q.Limit {
		return pg.first()
	}
	rows = rows[:q.Limit]
	slices.Reverse(rows)
	pg.page.Puzzles = rows
	pg.page.PrevCursor = pg.at(cursor{before: true, key: keyOf(q.Sort, &rows[0])})
	pg.page.NextCursor = pg.at(cursor{key: keyOf(q.Sort, &rows[len(rows)-1])})
	return nil
}

// normalize fills in q's defaults and checks it.
func normalize(q record.ListQuery) (record.ListQuery, error) {
	if q.Sort == "" {
		q.Sort = record.SortDifficulty
	}
	if _, ok := orders[q.Sort]; !ok {
		return q, fmt.Errorf("%w: unknown sort %q", ErrInvalidQuery, q.Sort)
	}
	if q.Limit == 0 {
		q.Limit = record.DefaultLimit
	}
	if q.Limit < 1 || q.Limit > record.MaxLimit {
		return q, fmt.Errorf("%w: limit %d is outside 1..%d", ErrInvalidQuery, q.Limit, record.MaxLimit)
	}
	if q.Band != "" && !q.Band.Valid() {
		return q, fmt.Errorf("%w: unknown band %q", ErrInvalidQuery, q.Band)
	}
	if q.Played != "" && !q.Played.Valid() {
		return q, fmt.Errorf("%w: unknown played filter %q", ErrInvalidQuery, q.Played)
	}
	if q.Collection < 0 {
		return q, fmt.Errorf("%w: collection %d", ErrInvalidQuery, q.Collection)
	}
	if q.Collection != 0 && q.Techniques != "" {
		// Each filter has its own read path and cursor (techniques.go,
		// collections.go); a collection is paged without the other.
		return q, fmt.Errorf("%w: a collection's listing takes no technique filter", ErrInvalidQuery)
	}
	if err := checkVariantFilter(q.Variant); err != nil {
		return q, err
	}
	if q.Played != "" && q.Player <= 0 {
		return q, fmt.Errorf("%w: the played filter %q needs a player", ErrInvalidQuery, q.Played)
	}
	return q, nil
}

// listingOf returns the listing of q from its start.
func listingOf(q record.ListQuery) listing {
	l := listing{listKey: listKey{sort: q.Sort, desc: q.Desc, unique: q.UniqueOnly, distinct: q.Distinct, part: start}}
	if q.Band != "" {
		l.listKey.band, l.band = true, bandRank(q.Band)
	}
	if r := gradeRange(q); r != nil {
		l.listKey.grades, l.grades = true, [2]int64{r[0], r[1]}
	}
	l.listKey.played, l.player = q.Played, q.Player
	l.techniques = q.Techniques.Names()
	l.listKey.techniques = len(l.techniques)
	l.listKey.collection, l.coll = q.Collection != 0, q.Collection
	l.setVariant(q)
	return l
}

// fetch reads up to n (at most pageRows) rows of listing l (whose part and
// key are ignored), from the start or, given a key from, after the row with
// that key.
func (db *DB) fetch(ctx context.Context, tx *sql.Tx, l listing, from []int64, n int) ([]record.Puzzle, error) {
	ps := make([]record.Puzzle, 0, n)
	l.from = from
	if from == nil {
		l.part = start
		return db.fetchPart(ctx, tx, db.d.listQuery(l, false, columns), ps, n)
	}
	var err error
	if len(orders[l.sort].keys) > 1 {
		l.part = ties
		if ps, err = db.fetchPart(ctx, tx, db.d.listQuery(l, false, columns), ps, n); err != nil || len(ps) == n {
			return ps, err
		}
	}
	l.part = beyond
	return db.fetchPart(ctx, tx, db.d.listQuery(l, false, columns), ps, n)
}

// fetchPart appends to ps the rows of q until ps holds n.
func (db *DB) fetchPart(ctx context.Context, tx *sql.Tx, q query, ps []record.Puzzle, n int) ([]record.Puzzle, error) {
	st, err := db.stmtOf(ctx, tx, q)
	if err != nil {
		return ps, err
	}
	rows, err := st.QueryContext(ctx, q.args...)
	if err != nil {
		return ps, err
	}
	defer rows.Close()
	for len(ps) < n && rows.Next() {
		p, err := scanPuzzle(rows.Scan)
		if err != nil {
			return ps, err
		}
		ps = append(ps, p)
	}
	return ps, rows.Err()
}
