package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// orders maps each sort to its key columns (id always last, making the order
// total) and to the index that serves it, for all puzzles and for unique
// ones. An empty index name means the table itself, in id order.
var orders = map[sudoku.Sort]struct {
	keys        []string
	index, uniq string
}{
	sudoku.SortDifficulty: {[]string{"backtracks", "solve_ns", "id"}, "puzzles_difficulty", "puzzles_unique_difficulty"},
	sudoku.SortBacktracks: {[]string{"backtracks", "id"}, "puzzles_backtracks", "puzzles_unique_backtracks"},
	sudoku.SortSolveTime:  {[]string{"solve_ns", "id"}, "puzzles_solve_ns", "puzzles_unique_solve_ns"},
	sudoku.SortSubmitted:  {[]string{"id"}, "", "puzzles_unique_submitted"},
	sudoku.SortClues:      {[]string{"clues", "id"}, "puzzles_clues", "puzzles_unique_clues"},
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
	default:
		return []int64{p.ID}
	}
}

// listKey names one statement of the fixed table: the order, its direction,
// the filter, and whether it starts after a key (a cursor) or at the start.
type listKey struct {
	sort               sudoku.Sort
	desc, unique, from bool
}

// listSQL writes the statement for k. Only the fixed names of orders go into
// the text; every value is a parameter. INDEXED BY pins the index, so the
// plan cannot drift to a sort step, and a missing index is an error at Open.
func listSQL(k listKey) string {
	o := orders[k.sort]
	var b strings.Builder
	b.WriteString("SELECT " + columns + " FROM puzzles")
	index := o.index
	if k.unique {
		index = o.uniq
	}
	if index != "" {
		b.WriteString(" INDEXED BY " + index)
	}
	var where []string
	if k.unique {
		where = append(where, "solutions = 1")
	}
	dir, cmp := " ASC", ">"
	if k.desc {
		dir, cmp = " DESC", "<"
	}
	if k.from {
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(o.keys)), ", ")
		where = append(where, "("+strings.Join(o.keys, ", ")+") "+cmp+" ("+marks+")")
	}
	if len(where) > 0 {
		b.WriteString(" WHERE " + strings.Join(where, " AND "))
	}
	b.WriteString(" ORDER BY ")
	for i, c := range o.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(c + dir)
	}
	b.WriteString(" LIMIT ?")
	return b.String()
}

// listKeys enumerates every statement of the table.
func listKeys() []listKey {
	var ks []listKey
	for _, s := range sudoku.Sorts {
		for _, desc := range []bool{false, true} {
			for _, unique := range []bool{false, true} {
				for _, from := range []bool{false, true} {
					ks = append(ks, listKey{s, desc, unique, from})
				}
			}
		}
	}
	return ks
}

func (db *DB) prepareReads(ctx context.Context) error {
	var err error
	if db.getStmt, err = db.reader.PrepareContext(ctx, "SELECT "+columns+" FROM puzzles WHERE id = ?"); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	if db.countStmt, err = db.reader.PrepareContext(ctx, "SELECT total, uniq FROM counts WHERE id = 1"); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	db.listStmts = make(map[listKey]*sql.Stmt)
	for _, k := range listKeys() {
		s, err := db.reader.PrepareContext(ctx, listSQL(k))
		if err != nil {
			return fmt.Errorf("prepare listing %+v: %w", k, err)
		}
		db.listStmts[k] = s
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

// List returns one page of the archive in q's order. Paging is by keyset:
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
		if cur.sort != q.Sort || cur.desc != q.Desc || cur.unique != q.UniqueOnly {
			return sudoku.Page{}, fmt.Errorf("%w: issued for another sort, order or filter", sudoku.ErrInvalidCursor)
		}
	}

	// One read transaction, so the total and the rows agree.
	tx, err := db.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return sudoku.Page{}, fmt.Errorf("list: %w", err)
	}
	defer tx.Rollback()
	var page sudoku.Page
	var total, uniq int64
	if err := tx.StmtContext(ctx, db.countStmt).QueryRowContext(ctx).Scan(&total, &uniq); err != nil {
		return sudoku.Page{}, fmt.Errorf("list: count: %w", err)
	}
	page.Total = total
	if q.UniqueOnly {
		page.Total = uniq
	}

	at := func(c cursor) string { c.sort, c.desc, c.unique = q.Sort, q.Desc, q.UniqueOnly; return c.encode() }
	fetch := func(desc bool, from []int64) ([]sudoku.Puzzle, error) {
		return db.fetch(ctx, tx, listKey{q.Sort, desc, q.UniqueOnly, from != nil}, from, int64(q.Limit+1))
	}
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
	return q, nil
}

func (db *DB) fetch(ctx context.Context, tx *sql.Tx, k listKey, from []int64, limit int64) ([]sudoku.Puzzle, error) {
	args := make([]any, 0, len(from)+1)
	for _, v := range from {
		args = append(args, v)
	}
	args = append(args, limit)
	rows, err := tx.StmtContext(ctx, db.listStmts[k]).QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ps := make([]sudoku.Puzzle, 0, min(limit, sudoku.MaxLimit+1))
	for rows.Next() {
		p, err := scanPuzzle(rows.Scan)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	return ps, rows.Err()
}

// Export calls fn for every archived puzzle in q's order and filter (q's
// Limit and Cursor are ignored), streaming rows from one read transaction:
// memory stays flat however large the archive, and the puzzles are a
// consistent snapshot. An error from fn stops the export and is returned.
func (db *DB) Export(ctx context.Context, q sudoku.ListQuery, fn func(sudoku.Puzzle) error) error {
	if db.isClosed() {
		return ErrClosed
	}
	q.Limit, q.Cursor = 0, ""
	q, err := normalize(q)
	if err != nil {
		return err
	}
	tx, err := db.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer tx.Rollback()
	// LIMIT -1 is SQLite's "no limit".
	rows, err := tx.StmtContext(ctx, db.listStmts[listKey{q.Sort, q.Desc, q.UniqueOnly, false}]).QueryContext(ctx, -1)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		p, err := scanPuzzle(rows.Scan)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// scanPuzzle reads one row of columns through scan (a Row's or Rows' Scan).
func scanPuzzle(scan func(...any) error) (sudoku.Puzzle, error) {
	var p sudoku.Puzzle
	var givens, solution string
	var submitted int64
	if err := scan(&p.ID, &givens, &solution, &p.Clues, &p.Solutions, &p.Backtracks, &p.Guesses,
		&p.Nodes, &p.SolveNS, &p.EngineVersion, &submitted, &p.Submissions); err != nil {
		return p, err
	}
	var err error
	if p.Givens, err = gridOf(givens); err != nil {
		return p, fmt.Errorf("puzzle %d: givens: %w", p.ID, err)
	}
	if p.Solution, err = gridOf(solution); err != nil {
		return p, fmt.Errorf("puzzle %d: solution: %w", p.ID, err)
	}
	p.Unique = p.Solutions == 1
	p.SubmittedAt = time.Unix(0, submitted).UTC()
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
	key                  []int64
}

// cursorVersion is the first byte of every cursor: bump it when the layout
// changes, and old cursors are refused instead of misread.
const cursorVersion = 1

const (
	flagDesc = 1 << iota
	flagUnique
	flagBefore
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
	}{{c.desc, flagDesc}, {c.unique, flagUnique}, {c.before, flagBefore}} {
		if f.on {
			b[2] |= f.bit
		}
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
	if int(b[1]) >= len(sudoku.Sorts) || b[2]&^(flagDesc|flagUnique|flagBefore) != 0 {
		return nil, invalid("unknown format")
	}
	c := &cursor{
		sort:   sudoku.Sorts[b[1]],
		desc:   b[2]&flagDesc != 0,
		unique: b[2]&flagUnique != 0,
		before: b[2]&flagBefore != 0,
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
