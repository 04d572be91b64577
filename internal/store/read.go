package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// orders maps each sort to its key columns (id always last, making the order
// total) and to the index that serves it. An empty index name means the
// table itself, in id order. The unique-only filter walks the same index and
// skips the puzzles with several solutions: each index more would slow every
// insert (five partial indexes for it made a bulk import's writes ~2x
// slower), while skipping costs only as much as such puzzles are common.
//
// A merged order has no index of its own: its index puts the band in front
// of the key (bandIndexes), and the whole archive is read as the five bands
// merged, each walked in order (SQLite's MERGE of a UNION ALL, no sort
// step). A page costs five short seeks instead of one, and every insert
// one index fewer (migration 00006).
var orders = map[sudoku.Sort]struct {
	keys   []string
	index  string
	merged bool
}{
	sudoku.SortDifficulty: {[]string{"backtracks", "solve_ns", "id"}, "puzzles_difficulty", false},
	sudoku.SortBacktracks: {[]string{"backtracks", "id"}, "puzzles_backtracks", false},
	sudoku.SortSolveTime:  {[]string{"solve_ns", "id"}, "puzzles_band_solve_ns", true},
	sudoku.SortSubmitted:  {[]string{"id"}, "", false},
	sudoku.SortClues:      {[]string{"clues", "id"}, "puzzles_band_clues", true},
	sudoku.SortGrade:      {[]string{"grade", "id"}, "puzzles_band_grade", true},
}

// bandIndexes names, for the orders whose key does not begin with
// backtracks, the index of migration 00005 that puts the band in front of
// the key, so a page of one band is a seek. The difficulty and backtracks
// orders need none: a band is a range of their leading key.
var bandIndexes = map[sudoku.Sort]string{
	sudoku.SortSolveTime: "puzzles_band_solve_ns",
	sudoku.SortClues:     "puzzles_band_clues",
	sudoku.SortSubmitted: "puzzles_band_submitted",
	sudoku.SortGrade:     "puzzles_band_grade",
}

// keyOf returns p's values for the key columns of s.
func keyOf(s sudoku.Sort, p *sudoku.Puzzle) []int64 {
	switch s {
	case sudoku.SortDifficulty:
		return []int64{p.Backtracks, p.SolveNS, p.ID}
	case sudoku.SortBacktracks:
		return []int64{p.Backtracks, p.ID}
	case sudoku.SortSolveTime:
		return []int64{p.SolveNS, p.ID}
	case sudoku.SortClues:
		return []int64{int64(p.Clues), p.ID}
	case sudoku.SortGrade:
		return []int64{p.GradeTenths(), p.ID}
	default:
		return []int64{p.ID}
	}
}

// A page that continues from a key (k1, ..., id) is read in up to two
// steps, each a plain index seek: first the rest of the key's tie group
// (k1, ... equal, id beyond), then the rows whose leading keys lie beyond
// ((k1, ...) beyond, any id). A single row-value range (k1, ..., id) > (...)
// would be simpler, but SQLite does not seek on the rowid inside a row
// value: it seeks on the leading keys and then filters the whole tie group,
// which made page 10,000 by clues of a million puzzles cost 8 ms.
type part uint8

const (
	start  part = iota // from the first row of the order
	ties               // leading keys equal to the cursor's, id beyond its id
	beyond             // leading keys beyond the cursor's
)

// listKey names one statement of the fixed table: the order, its direction,
// the filters and the part. A band statement takes the band's bounds as its
// first arguments (see bandArgs).
type listKey struct {
	sort         sudoku.Sort
	desc, unique bool
	distinct     bool
	part         part
	band         bool
	grades       bool // a grade range: two arguments after the band's
}

// pageRows is the most rows a listing reads: a full page and one more, to
// tell whether another page follows. It is written into the statements
// rather than bound, because SQLite recompiles a statement whose LIMIT
// parameter is bound anew (the planner takes the limit into account): that
// doubled the cost of a page. A listing stops reading at the rows it needs.
const pageRows = sudoku.MaxLimit + 1

// listSQL writes the statement for k; export statements have no limit. Only
// the fixed names of orders go into the text; every value is a parameter.
// INDEXED BY pins the index, so the plan cannot drift to a sort step, and a
// missing index is an error at Open.
func (d dialect) listSQL(k listKey, export bool) string {
	return d.selectSQL(k, export, columns)
}

// selectSQL is listSQL selecting cols instead of every column; a merged
// order selects its key columns too, after cols, for the merge to compare.
// Parameters are numbered (?1, ?2, ...), so that the arms of a merge share
// them.
func (d dialect) selectSQL(k listKey, export bool, cols string) string {
	o := orders[k.sort]
	lead := o.keys[:len(o.keys)-1] // the keys before id
	index := o.index
	var where []string
	if k.band {
		bi, ok := bandIndexes[k.sort]
		switch {
		case ok:
			index = bi
			where = append(where, "band = ?")
		// The orders led by backtracks bound the band only where the
		// cursor does not: a row tied with the cursor's is in its band,
		// and beyond the cursor only the band's far end is left. A second
		// bound on backtracks would make SQLite seek on the band's edge
		// and filter its way to the cursor.
		case k.part == start:
			where = append(where, "backtracks BETWEEN ? AND ?")
		case k.part == beyond && k.desc:
			where = append(where, "backtracks >= ?")
		case k.part == beyond:
			where = append(where, "backtracks <= ?")
		}
	}
	// A puzzle with several solutions has no band (its counts depend on
	// the order of the digits), so a band's listing leaves it out.
	if k.unique || k.band {
		where = append(where, "solutions = 1")
	}
	if k.distinct {
		where = append(where, "same_as IS NULL")
	}
	if k.grades {
		where = append(where, "grade BETWEEN ? AND ?")
	}
	dir, cmp := " ASC", " > "
	if k.desc {
		dir, cmp = " DESC", " < "
	}
	switch {
	case k.part == ties:
		for _, c := range lead {
			where = append(where, c+" = ?")
		}
		where = append(where, "id"+cmp+"?")
	case k.part == beyond && len(lead) == 0:
		where = append(where, "id"+cmp+"?")
	case k.part == beyond && len(lead) == 1:
		where = append(where, lead[0]+cmp+"?")
	case k.part == beyond:
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(lead)), ", ")
		where = append(where, "("+strings.Join(lead, ", ")+")"+cmp+"("+marks+")")
	}
	cond := numberParams(strings.Join(where, " AND "))

	var b strings.Builder
	arm := func(band string) {
		b.WriteString("SELECT " + cols + " FROM puzzles")
		b.WriteString(d.indexedBy(index))
		switch {
		case band != "" && cond != "":
			b.WriteString(" WHERE " + band + " AND " + cond)
		case band != "":
			b.WriteString(" WHERE " + band)
		case cond != "":
			b.WriteString(" WHERE " + cond)
		}
	}
	if o.merged && !k.band {
		if cols != columns {
			cols += ", " + strings.Join(o.keys, ", ")
		}
		for i := range sudoku.Bands {
			if i > 0 {
				b.WriteString(" UNION ALL ")
			}
			arm("band = " + strconv.Itoa(i))
		}
	} else {
		arm("")
	}
	b.WriteString(" ORDER BY ")
	for i, c := range o.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c + dir)
	}
	if !export {
		b.WriteString(" LIMIT " + strconv.Itoa(pageRows))
	}
	return d.sql(b.String())
}

// numberParams numbers the parameters (?) of s from 1.
func numberParams(s string) string {
	var b strings.Builder
	n := 0
	for _, part := range strings.SplitAfter(s, "?") {
		b.WriteString(part)
		if strings.HasSuffix(part, "?") {
			n++
			b.WriteString(strconv.Itoa(n))
		}
	}
	return b.String()
}

// bandArgs returns the leading arguments of the band statements of sort s
// for band b: its rank for an order with a band index, else its backtracks
// bounds. nil for no band.
func bandArgs(s sudoku.Sort, b sudoku.Band) []int64 {
	if b == "" {
		return nil
	}
	i := bandRank(b)
	if _, ok := bandIndexes[s]; ok {
		return []int64{int64(i)}
	}
	return []int64{sudoku.Bands[i].Min, sudoku.Bands[i].Max}
}

// partArgs returns the band arguments of statement k out of bounds, the
// query's bandArgs: all of them for a band index, else the ones listSQL
// wrote for k's part.
func partArgs(k listKey, bounds []int64) []int64 {
	if _, ok := bandIndexes[k.sort]; ok || !k.band {
		return bounds
	}
	switch {
	case k.part == start:
		return bounds
	case k.part == ties:
		return nil
	case k.desc:
		return bounds[:1]
	default:
		return bounds[1:]
	}
}

// gradeRange returns the arguments of a grade range filter, lowest and
// highest grade in tenths, or nil for none.
func gradeRange(q sudoku.ListQuery) []int64 {
	if q.GradeMin <= 0 && q.GradeMax <= 0 {
		return nil
	}
	hi := q.GradeMax
	if hi <= 0 {
		hi = 1 << 31
	}
	return []int64{max(q.GradeMin, 1), hi}
}

// bandRank is b's position in sudoku.Bands, the value of the band column;
// -1 for no band.
func bandRank(b sudoku.Band) int {
	return slices.IndexFunc(sudoku.Bands, func(i sudoku.BandInfo) bool { return i.Band == b })
}

// bandListKeys enumerates the band statements: those of listKeys, filtered
// by band.
func bandListKeys() []listKey {
	ks := listKeys()
	for i := range ks {
		ks[i].band = true
	}
	return ks
}

// listKeys enumerates every statement of the table. The submitted order has
// no ties part: its key is id alone.
func listKeys() []listKey {
	var ks []listKey
	for _, s := range sudoku.Sorts {
		for _, desc := range []bool{false, true} {
			for _, unique := range []bool{false, true} {
				for _, distinct := range []bool{false, true} {
					for _, p := range []part{start, ties, beyond} {
						if p == ties && len(orders[s].keys) == 1 {
							continue
						}
						ks = append(ks, listKey{s, desc, unique, distinct, p, false, false})
						ks = append(ks, listKey{s, desc, unique, distinct, p, false, true})
					}
				}
			}
		}
	}
	return ks
}

func (db *DB) prepareReads(ctx context.Context) error {
	var err error
	if db.getStmt, err = db.reader.PrepareContext(ctx, db.d.sql("SELECT "+columns+" FROM puzzles WHERE id = ?")); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	if db.countStmt, err = db.reader.PrepareContext(ctx, "SELECT total, uniq, classes, uniq_classes FROM counts WHERE id = 1"); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	db.listStmts = make(map[listKey]*sql.Stmt)
	db.exportStmts = make(map[listKey]*sql.Stmt)
	db.givensStmts = make(map[listKey]*sql.Stmt)
	for _, k := range append(listKeys(), bandListKeys()...) {
		s, err := db.reader.PrepareContext(ctx, db.d.listSQL(k, false))
		if err != nil {
			return fmt.Errorf("prepare listing %+v: %w", k, err)
		}
		db.listStmts[k] = s
		if k.part != start {
			continue
		}
		if s, err = db.reader.PrepareContext(ctx, db.d.listSQL(k, true)); err != nil {
			return fmt.Errorf("prepare export %+v: %w", k, err)
		}
		db.exportStmts[k] = s
		if s, err = db.reader.PrepareContext(ctx, db.d.selectSQL(k, true, "givens")); err != nil {
			return fmt.Errorf("prepare export %+v: %w", k, err)
		}
		db.givensStmts[k] = s
	}
	return nil
}

// Puzzle returns the puzzle with the given id, or sudoku.ErrNotFound.
func (db *DB) Puzzle(ctx context.Context, id int64) (sudoku.Puzzle, error) {
	if db.isClosed() {
		return sudoku.Puzzle{}, ErrClosed
	}
	p, err := scanPuzzle(db.getStmt.QueryRowContext(ctx, id).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return sudoku.Puzzle{}, fmt.Errorf("puzzle %d: %w", id, sudoku.ErrNotFound)
	}
	if err != nil {
		return sudoku.Puzzle{}, fmt.Errorf("load puzzle %d: %w", id, err)
	}
	return p, nil
}

// List returns one page of the archive in q's order, of the puzzles in
// q.Band when it is set (a page of one band is an index seek in every
// order; see migration 00005). Paging is by keyset:
// the cursor carries the key of the row it continues from, so a deep page
// costs what the first one does. It fails with ErrInvalidQuery for an
// unknown sort or a limit outside 1..sudoku.MaxLimit (0 means
// sudoku.DefaultLimit), and with sudoku.ErrInvalidCursor for a cursor that
// List did not issue for this sort, direction and filter.
func (db *DB) List(ctx context.Context, q sudoku.ListQuery) (sudoku.Page, error) {
	if db.isClosed() {
		return sudoku.Page{}, ErrClosed
	}
	q, err := normalize(q)
	if err != nil {
		return sudoku.Page{}, err
	}
	var cur *cursor
	if q.Cursor != "" {
		if cur, err = decodeCursor(q.Cursor, len(orders[q.Sort].keys)); err != nil {
			return sudoku.Page{}, err
		}
		if cur.sort != q.Sort || cur.desc != q.Desc || cur.unique != q.UniqueOnly || cur.distinct != q.Distinct || cur.grades != (gradeRange(q) != nil) || cur.band != q.Band {
			return sudoku.Page{}, fmt.Errorf("%w: issued for another sort, order or filter", sudoku.ErrInvalidCursor)
		}
	}

	// One read transaction, so the total and the rows agree.
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return sudoku.Page{}, fmt.Errorf("list: %w", err)
	}
	defer tx.Rollback()
	var page sudoku.Page
	var total, uniq, classes, uniqClasses int64
	if err := tx.StmtContext(ctx, db.countStmt).QueryRowContext(ctx).Scan(&total, &uniq, &classes, &uniqClasses); err != nil {
		return sudoku.Page{}, fmt.Errorf("list: count: %w", err)
	}
	switch {
	case q.Distinct && q.UniqueOnly:
		page.Total = uniqClasses
	case q.Distinct:
		page.Total = classes
	case q.UniqueOnly:
		page.Total = uniq
	default:
		page.Total = total
	}
	switch {
	case gradeRange(q) != nil:
		if page.Total, err = db.gradeTotal(ctx, tx, q); err != nil {
			return sudoku.Page{}, fmt.Errorf("list: count grades: %w", err)
		}
	case q.Band != "":
		info, _ := q.Band.Info()
		if page.Total, err = db.bandTotal(ctx, tx, info, q.Distinct); err != nil {
			return sudoku.Page{}, fmt.Errorf("list: count band %s: %w", q.Band, err)
		}
	}

	at := func(c cursor) string {
		c.sort, c.desc, c.unique, c.distinct, c.band = q.Sort, q.Desc, q.UniqueOnly, q.Distinct, q.Band
		c.grades = gradeRange(q) != nil
		return c.encode()
	}
	bounds, grades := bandArgs(q.Sort, q.Band), gradeRange(q)
	fetchN := func(desc bool, from []int64, n int) ([]sudoku.Puzzle, error) {
		return db.fetch(ctx, tx, listKey{q.Sort, desc, q.UniqueOnly, q.Distinct, start, q.Band != "", grades != nil}, bounds, grades, from, n)
	}
	fetch := func(desc bool, from []int64) ([]sudoku.Puzzle, error) { return fetchN(desc, from, q.Limit+1) }
	firstPage := func() error {
		rows, err := fetch(q.Desc, nil)
		if err != nil {
			return err
		}
		if len(rows) > q.Limit {
			rows = rows[:q.Limit]
			page.NextCursor = at(cursor{key: keyOf(q.Sort, &rows[len(rows)-1])})
		}
		page.Puzzles = rows
		return nil
	}

	switch {
	case cur == nil && q.Around != 0:
		err = db.around(ctx, tx, q, &page, fetchN, at)
	case cur == nil:
		err = firstPage()
	case !cur.before:
		var rows []sudoku.Puzzle
		if rows, err = fetch(q.Desc, cur.key); err != nil {
			break
		}
		if len(rows) > q.Limit {
			rows = rows[:q.Limit]
			page.NextCursor = at(cursor{key: keyOf(q.Sort, &rows[len(rows)-1])})
		}
		page.Puzzles = rows
		if len(rows) > 0 {
			page.PrevCursor = at(cursor{before: true, key: keyOf(q.Sort, &rows[0])})
		} else {
			// Nothing after the key: the page before ends with the
			// key's own row. "Before id±1" includes it.
			key := slices.Clone(cur.key)
			if q.Desc {
				key[len(key)-1]--
			} else {
				key[len(key)-1]++
			}
			page.PrevCursor = at(cursor{before: true, key: key})
		}
	default:
		// The page before the key: walk the opposite way from it, then
		// turn the rows round. Fewer than a full page before it means
		// the first page.
		var rows []sudoku.Puzzle
		if rows, err = fetch(!q.Desc, cur.key); err != nil {
			break
		}
		if len(rows) <= q.Limit {
			err = firstPage()
			break
		}
		rows = rows[:q.Limit]
		slices.Reverse(rows)
		page.Puzzles = rows
		page.PrevCursor = at(cursor{before: true, key: keyOf(q.Sort, &rows[0])})
		page.NextCursor = at(cursor{key: keyOf(q.Sort, &rows[len(rows)-1])})
	}
	if err != nil {
		return sudoku.Page{}, fmt.Errorf("list: %w", err)
	}
	if page.Puzzles == nil {
		page.Puzzles = []sudoku.Puzzle{}
	}
	return page, nil
}

// normalize fills in q's defaults and checks it.
func normalize(q sudoku.ListQuery) (sudoku.ListQuery, error) {
	if q.Sort == "" {
		q.Sort = sudoku.SortDifficulty
	}
	if _, ok := orders[q.Sort]; !ok {
		return q, fmt.Errorf("%w: unknown sort %q", ErrInvalidQuery, q.Sort)
	}
	if q.Limit == 0 {
		q.Limit = sudoku.DefaultLimit
	}
	if q.Limit < 1 || q.Limit > sudoku.MaxLimit {
		return q, fmt.Errorf("%w: limit %d is outside 1..%d", ErrInvalidQuery, q.Limit, sudoku.MaxLimit)
	}
	if q.Band != "" && !q.Band.Valid() {
		return q, fmt.Errorf("%w: unknown band %q", ErrInvalidQuery, q.Band)
	}
	return q, nil
}

// fetch reads up to n (at most pageRows) rows in the order of k (whose part
// is ignored), from the start or, given a key from, after the row with that
// key. bounds are the band arguments of a band statement (bandArgs).
func (db *DB) fetch(ctx context.Context, tx *sql.Tx, k listKey, bounds, grades, from []int64, n int) ([]sudoku.Puzzle, error) {
	ps := make([]sudoku.Puzzle, 0, n)
	if from == nil {
		k.part = start
		return db.fetchPart(ctx, tx, k, concat(partArgs(k, bounds), grades), ps, n)
	}
	lead := from[:len(from)-1]
	var err error
	if len(lead) > 0 {
		k.part = ties
		if ps, err = db.fetchPart(ctx, tx, k, concat(concat(partArgs(k, bounds), grades), from), ps, n); err != nil || len(ps) == n {
			return ps, err
		}
	} else {
		lead = from
	}
	k.part = beyond
	return db.fetchPart(ctx, tx, k, concat(concat(partArgs(k, bounds), grades), lead), ps, n)
}

// concat returns a new slice of a's elements then b's.
func concat(a, b []int64) []int64 { return append(slices.Clip(a), b...) }

// fetchPart appends to ps the rows of statement k with arguments args until
// ps holds n.
func (db *DB) fetchPart(ctx context.Context, tx *sql.Tx, k listKey, args []int64, ps []sudoku.Puzzle, n int) ([]sudoku.Puzzle, error) {
	anys := make([]any, len(args))
	for i, v := range args {
		anys[i] = v
	}
	rows, err := tx.StmtContext(ctx, db.listStmts[k]).QueryContext(ctx, anys...)
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

// exportMmap is how much of the file an export maps (SQLite caps it at its
// compile-time limit, 2 GB by default).
const exportMmap = 1 << 40

// Export calls fn for every archived puzzle in q's order and filters (q's
// Limit, Cursor and Around are ignored), streaming rows from one read transaction:
// memory stays flat however large the archive, and the puzzles are a
// consistent snapshot. An error from fn stops the export and is returned.
func (db *DB) Export(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Puzzle) error) error {
	return db.export(ctx, q, db.exportStmts, func(rows *sql.Rows) error {
		return pipe(ctx, rows, scanRow, puzzleOf, fn)
	})
}

// ExportGivens is Export for a caller that needs only each puzzle's givens
// (a text export): reading one column instead of twelve made a million-puzzle
// export about a third faster.
func (db *DB) ExportGivens(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Grid) error) error {
	return db.export(ctx, q, db.givensStmts, func(rows *sql.Rows) error {
		cols, err := rows.Columns()
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		// A merged order selects its key columns after the givens;
		// they are read and dropped.
		v := make([]any, len(cols))
		dest := make([]any, len(cols))
		for i := range dest {
			dest[i] = &v[i]
		}
		return pipe(ctx, rows, func(scan func(...any) error, g *sudoku.Grid) error {
			if err := scan(dest...); err != nil {
				return err
			}
			var err error
			*g, err = givensOf(v[0])
			return err
		}, func(g *sudoku.Grid) (sudoku.Grid, error) { return *g, nil }, fn)
	})
}

// givensOf converts the value of a givens column.
func givensOf(v any) (sudoku.Grid, error) {
	s, ok := v.(string)
	if !ok {
		return sudoku.Grid{}, fmt.Errorf("givens hold %T, want text", v)
	}
	g, err := gridOf(s)
	if err != nil {
		return g, fmt.Errorf("givens: %w", err)
	}
	return g, nil
}

// export runs the statement of stmts for q in a read transaction and hands
// its rows to each.
func (db *DB) export(ctx context.Context, q sudoku.ListQuery, stmts map[listKey]*sql.Stmt, each func(*sql.Rows) error) error {
	if db.isClosed() {
		return ErrClosed
	}
	q.Limit, q.Cursor, q.Around = 0, "", 0
	q, err := normalize(q)
	if err != nil {
		return err
	}
	conn, err := db.reader.Conn(ctx)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer conn.Close()
	// An export in any order but id order reads the table at random: with
	// the file mapped into memory those reads cost no system call, which
	// saved a quarter of the time for a million puzzles. The mapping (and
	// the resident pages it brings) ends with the export, before the
	// connection goes back to the pool. (SQLite only.)
	if !db.d.postgres {
		if _, err := conn.ExecContext(ctx, "PRAGMA mmap_size = "+strconv.Itoa(exportMmap)); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		defer func() {
			if _, err := conn.ExecContext(context.Background(), "PRAGMA mmap_size = 0"); err != nil {
				// Do not pool a connection that may still map the file.
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
	}
	tx, err := conn.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer tx.Rollback()
	var args []any
	for _, v := range concat(bandArgs(q.Sort, q.Band), gradeRange(q)) {
		args = append(args, v)
	}
	rows, err := tx.StmtContext(ctx, stmts[listKey{q.Sort, q.Desc, q.UniqueOnly, q.Distinct, start, q.Band != "", gradeRange(q) != nil}]).QueryContext(ctx, args...)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer rows.Close()
	return each(rows)
}

// exportChunk is how many puzzles the reading goroutine of an export hands
// over at once, and exportAhead how many such chunks may wait: memory stays
// a few hundred kilobytes however large the archive.
const (
	exportChunk = 256
	exportAhead = 4
)

// pipe reads rows on a goroutine of its own, each by scan into an R,
// while the caller's goroutine converts the rows already read to T by conv
// and runs fn on them, so that SQLite and the caller's encoding use two
// cores. The reading goroutine is the slower one (SQLite's work on every
// row), so it only scans: the conversion waits for the other side. Chunks
// go back to the reader through free once fn is done with them, so the
// steady state allocates no slices.
//
// An export either hands fn every row or returns an error: the end of
// ctx (a deadline, a client gone) is an error, never a short, quiet end.
func pipe[R, T any](parent context.Context, rows *sql.Rows, scan func(func(...any) error, *R) error, conv func(*R) (T, error), fn func(T) error) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	full := make(chan []R, exportAhead)
	free := make(chan []R, exportAhead+2)
	var readErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer close(full)
		for {
			var ps []R
			select {
			case ps = <-free:
				ps = ps[:0]
			default:
				ps = make([]R, 0, exportChunk)
			}
			for len(ps) < exportChunk && rows.Next() {
				var zero R
				ps = append(ps, zero)
				if err := scan(rows.Scan, &ps[len(ps)-1]); err != nil {
					readErr = fmt.Errorf("export: %w", err)
					return
				}
			}
			if len(ps) > 0 {
				select {
				case full <- ps:
				case <-ctx.Done():
					if err := parent.Err(); err != nil {
						readErr = fmt.Errorf("export stopped before the last row: %w", context.Cause(parent))
					}
					return
				}
			}
			if len(ps) < exportChunk {
				if err := rows.Err(); err != nil {
					readErr = fmt.Errorf("export: %w", err)
				} else if err := parent.Err(); err != nil {
					// database/sql ends the rows when the context ends,
					// and Next then says false as at the last row, with
					// no error: without this check an export cut short
					// by its deadline looked complete.
					readErr = fmt.Errorf("export stopped before the last row: %w", context.Cause(parent))
				}
				return
			}
		}
	}()
	var err error
	for ps := range full {
		for i := range ps {
			var p T
			if p, err = conv(&ps[i]); err != nil {
				err = fmt.Errorf("export: %w", err)
				break
			}
			if err = fn(p); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
		select {
		case free <- ps:
		default:
		}
	}
	// Stop the reader (if fn failed) and wait for it: rows, and the
	// transaction under them, must not be closed while it reads.
	cancel()
	<-done
	if err != nil {
		return err
	}
	return readErr
}

// scanPuzzle reads one row of columns through scan (a Row's or Rows'
// Scan). It scans into interface values and converts by hand, which skips
// database/sql's reflection (and, for an int field, its round trip through
// strconv) on every column of every row of an export.
func scanPuzzle(scan func(...any) error) (sudoku.Puzzle, error) {
	var v row
	if err := scanRow(scan, &v); err != nil {
		return sudoku.Puzzle{}, err
	}
	return puzzleOf(&v)
}

// A row is the values of columns as the driver returns them.
type row [18]any

// scanRow reads one row of columns into v.
func scanRow(scan func(...any) error, v *row) error {
	return scan(&v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10], &v[11],
		&v[12], &v[13], &v[14], &v[15], &v[16], &v[17])
}

// puzzleOf converts a row of columns.
func puzzleOf(v *row) (sudoku.Puzzle, error) {
	var bad error
	num := func(i int) int64 {
		n, ok := v[i].(int64)
		if !ok && bad == nil {
			bad = fmt.Errorf("column %d holds %T, want an integer", i, v[i])
		}
		return n
	}
	text := func(i int) string {
		s, ok := v[i].(string)
		if !ok && bad == nil {
			bad = fmt.Errorf("column %d holds %T, want text", i, v[i])
		}
		return s
	}
	p := sudoku.Puzzle{
		ID: num(0), Clues: int(num(3)), Solutions: int(num(4)),
		Backtracks: num(5), Guesses: num(6), Nodes: num(7), SolveNS: num(8),
		EngineVersion: text(9), SubmittedAt: time.Unix(0, num(10)).UTC(), Submissions: num(11),
	}
	p.Unique = p.Solutions == 1
	p.Band = sudoku.BandFor(p.Solutions, p.Backtracks)
	if v[13] != nil {
		id := num(13)
		p.SameAs = &id
	}
	p.SetGradeTenths(num(14))
	p.GradeFloor = num(15) != 0
	p.Technique = text(16)
	if v[17] != nil {
		p.GradeVersion = text(17)
	}
	givens, solution := text(1), text(2)
	var canonical string
	if v[12] != nil {
		canonical = text(12)
	}
	if bad != nil {
		return p, fmt.Errorf("puzzle %d: %w", p.ID, bad)
	}
	var err error
	if p.Givens, err = gridOf(givens); err != nil {
		return p, fmt.Errorf("puzzle %d: givens: %w", p.ID, err)
	}
	if p.Solution, err = gridOf(solution); err != nil {
		return p, fmt.Errorf("puzzle %d: solution: %w", p.ID, err)
	}
	if canonical != "" {
		if p.Canonical, err = gridOf(canonical); err != nil {
			return p, fmt.Errorf("puzzle %d: canonical: %w", p.ID, err)
		}
	}
	return p, nil
}

// gridOf decodes the canonical text of a stored grid.
func gridOf(s string) (sudoku.Grid, error) {
	var g sudoku.Grid
	if len(s) != len(g) {
		return g, fmt.Errorf("stored grid has %d characters, want 81", len(s))
	}
	for i := range len(s) {
		switch c := s[i]; {
		case c == '.':
		case c >= '1' && c <= '9':
			g[i] = c - '0'
		default:
			return g, fmt.Errorf("stored grid has %q at %d", c, i)
		}
	}
	return g, nil
}

// A cursor is the position a page continues from: the key of a row (its
// sort's key columns, id last), and whether the page wanted lies after that
// row or before it. It also records the query it belongs to, so that a
// cursor cannot be replayed against another order or filter.
type cursor struct {
	sort                 sudoku.Sort
	desc, unique, before bool
	distinct, grades     bool
	band                 sudoku.Band // "" for every band
	key                  []int64
}

// cursorVersion is the first byte of every cursor: bump it when the layout
// changes, and old cursors are refused instead of misread.
const cursorVersion = 1

const (
	flagDesc = 1 << iota
	flagUnique
	flagBefore
	flagDistinct = 1 << 6 // bits 3-5 hold the band
	flagGrades   = 1 << 7
)

// The band filter is in bits 3-5 of the flags byte: 0 for every band, else
// 1 + its position in sudoku.Bands. Cursors from before bands have zeros
// there, which still reads right.
const (
	bandShift = 3
	bandMask  = 7 << bandShift
)

// encode returns the cursor as base64url of: version, sort index, flags, then
// each key as a signed varint.
func (c cursor) encode() string {
	b := make([]byte, 3, 3+len(c.key)*binary.MaxVarintLen64)
	b[0] = cursorVersion
	b[1] = byte(slices.Index(sudoku.Sorts, c.sort))
	for _, f := range []struct {
		on  bool
		bit byte
	}{{c.desc, flagDesc}, {c.unique, flagUnique}, {c.before, flagBefore}, {c.distinct, flagDistinct}, {c.grades, flagGrades}} {
		if f.on {
			b[2] |= f.bit
		}
	}
	if c.band != "" {
		b[2] |= byte(bandRank(c.band)+1) << bandShift
	}
	for _, k := range c.key {
		b = binary.AppendVarint(b, k)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor parses s, which must hold exactly nkeys keys.
func decodeCursor(s string, nkeys int) (*cursor, error) {
	invalid := func(why string) error { return fmt.Errorf("%w: %s", sudoku.ErrInvalidCursor, why) }
	if len(s) > 128 {
		return nil, invalid("too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, invalid("not base64url")
	}
	if len(b) < 3 || b[0] != cursorVersion {
		return nil, invalid("unknown format")
	}
	if int(b[1]) >= len(sudoku.Sorts) || b[2]&^(flagDesc|flagUnique|flagBefore|flagDistinct|flagGrades|bandMask) != 0 {
		return nil, invalid("unknown format")
	}
	band := int(b[2]&bandMask) >> bandShift
	if band > len(sudoku.Bands) {
		return nil, invalid("unknown band")
	}
	c := &cursor{
		sort:     sudoku.Sorts[b[1]],
		desc:     b[2]&flagDesc != 0,
		unique:   b[2]&flagUnique != 0,
		before:   b[2]&flagBefore != 0,
		distinct: b[2]&flagDistinct != 0,
		grades:   b[2]&flagGrades != 0,
	}
	if band > 0 {
		c.band = sudoku.Bands[band-1].Band
	}
	if len(orders[c.sort].keys) != nkeys {
		return nil, invalid("issued for another sort")
	}
	b = b[3:]
	for range nkeys {
		k, n := binary.Varint(b)
		if n <= 0 || k < 0 {
			return nil, invalid("bad key")
		}
		c.key = append(c.key, k)
		b = b[n:]
	}
	if len(b) != 0 {
		return nil, invalid("trailing bytes")
	}
	return c, nil
}
