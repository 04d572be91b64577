package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// pageRows is the most rows a listing reads: a full page and one more, to
// tell whether another page follows. It is written into the statements
// rather than bound, because SQLite recompiles a statement whose LIMIT
// parameter is bound anew (the planner takes the limit into account): that
// doubled the cost of a page. A listing stops reading at the rows it needs.
const pageRows = record.MaxLimit + 1

// A query is the SQL of one statement and the values it binds, built side
// by side (a condition and its arguments are added in one call), so the
// values cannot drift apart from the placeholders they fill.
type query struct {
	sql  string
	args []any
}

// conds is the WHERE clause of a query being built.
type conds struct {
	text []string
	args []any
}

// and adds cond, whose placeholders (?) take args.
func (c *conds) and(cond string, args ...any) {
	c.text = append(c.text, cond)
	c.args = append(c.args, args...)
}

// A listing is one statement of the table (listKey) with its values: the
// band and grade range filtered on, and for a ties or beyond part the key
// of the row it continues from.
type listing struct {
	listKey
	band   int      // position in sudoku.Bands, when listKey.band
	grades [2]int64 // lowest and highest grade in tenths, when listKey.grades
	from   []int64  // the key continued from, for the ties and beyond parts
	player int64    // whose attempts listKey.played is of
	// techniques are the names of the technique filter, the rarest first
	// (it drives the listing when listKey.drive).
	techniques []string
	coll       int64 // the collection of listKey.collection
	// variants are the short names of the variant filter (each a
	// parameter), classic its "classic" (variantfilter.go).
	variants []string
	classic  bool
	// limit is the LIMIT of an export's statement (0: none), which
	// reads in batches (exportReader).
	limit int
}

// example returns a listing of k with values of the right shape, for
// preparing k's statement and for its plan.
func (k listKey) example() listing {
	return listing{listKey: k, grades: [2]int64{1, 1}, from: make([]int64, len(orders[k.sort].keys))}
}

// listSQL writes the statement for k; export statements have no limit.
func (d dialect) listSQL(k listKey, export bool) string {
	return d.listQuery(k.example(), export, columns).sql
}

// listQuery writes the statement of l selecting cols and binds its values;
// export statements have no limit. A merged order selects its key columns
// too, after cols, for the merge to compare. Only the fixed names of
// orders go into the text; every value is a parameter. On SQLite INDEXED
// BY pins the index, so the plan cannot drift to a sort step, and a missing
// index is an error (EveryListingPrepares prepares every statement).
// Parameters are numbered (?1, ?2, ...), so that the arms of a merge share
// them.
func (d dialect) listQuery(l listing, export bool, cols string) query {
	o := orders[l.sort]
	index := o.index
	if l.listKey.band {
		index = bandIndexes[l.sort]
	}
	where := listWhere(l)
	cond := numberParams(strings.Join(where.text, " AND "))
	orderBy := listOrderBy(l, export)
	var b strings.Builder
	if l.listKey.drive {
		// Driven by a rare technique's puzzles: found by id, then sorted
		// (techniques.go); no order index.
		b.WriteString("SELECT " + cols + " FROM puzzles" + d.notIndexed() + " WHERE " + cond)
		b.WriteString(orderBy)
		return query{d.sql(b.String()), where.args}
	}
	if !o.merged || l.listKey.band {
		d.writeArm(&b, cols, index, "", cond)
		b.WriteString(orderBy)
		return query{d.sql(b.String()), where.args}
	}
	// The merge orders the arms' rows by the keys: select those cols lacks.
	have := strings.Split(cols, ", ")
	for _, k := range o.keys {
		if !slices.Contains(have, k) {
			cols += ", " + k
		}
	}
	d.writeMerge(&b, cols, index, cond, orderBy, l.listKey.techniques == 0)
	return query{d.sql(b.String()), where.args}
}

// listWhere is the WHERE clause of l: its filters (band, unique, distinct,
// grade range), then for a ties or beyond part the condition on the key it
// continues from. The order is the order of the parameters.
func listWhere(l listing) conds {
	lead := orders[l.sort].keys[:len(orders[l.sort].keys)-1] // the keys before id
	var where conds
	where.and(visible) // every listing and export: never a hidden puzzle
	if l.listKey.band {
		where.and("band = ?", int64(l.band))
	}
	// A puzzle with several solutions has no grade, so no band: a band's
	// listing holds only puzzles with one solution without a filter.
	if l.unique {
		where.and("solutions = 1")
	}
	if l.distinct {
		where.and("same_as IS NULL")
	}
	if l.listKey.grades {
		where.and("grade BETWEEN ? AND ?", l.grades[0], l.grades[1])
	}
	addPlayed(&where, l)
	addCollection(&where, l)
	addVariant(&where, l)
	switch l.valued {
	case valuedOnly:
		where.and(orders[l.sort].keys[0] + " > 0")
	case noneOnly:
		where.and(orders[l.sort].keys[0] + " = 0")
	}
	addTechniques(&where, l)
	cmp := " > "
	if l.desc {
		cmp = " < "
	}
	switch {
	case l.part == ties:
		for i, c := range lead {
			where.and(c+" = ?", l.from[i])
		}
		where.and("id"+cmp+"?", l.from[len(lead)])
	case l.part == beyond && len(lead) == 0:
		where.and("id"+cmp+"?", l.from[0])
	case l.part == beyond && len(lead) == 1:
		where.and(lead[0]+cmp+"?", l.from[0])
	case l.part == beyond:
		marks := strings.TrimSuffix(strings.Repeat("?, ", len(lead)), ", ")
		args := make([]any, len(lead))
		for i := range lead {
			args[i] = l.from[i]
		}
		where.and("("+strings.Join(lead, ", ")+")"+cmp+"("+marks+")", args...)
	}
	return where
}

// listOrderBy is the ORDER BY (and, but for an export, the LIMIT) of l.
func listOrderBy(l listing, export bool) string {
	dir := " ASC"
	if l.desc {
		dir = " DESC"
	}
	// A ties part holds one value of the leading keys: its order is id
	// order. Saying so lets PostgreSQL merge the arms of a merged order
	// (see writeMerge) by id alone.
	keys := orders[l.sort].keys
	if l.part == ties {
		keys = keys[len(keys)-1:]
	}
	orderBy := " ORDER BY " + strings.Join(keys, dir+", ") + dir
	switch {
	case !export:
		orderBy += " LIMIT " + strconv.Itoa(pageRows)
	case l.limit > 0:
		orderBy += " LIMIT " + strconv.Itoa(l.limit)
	}
	return orderBy
}

// writeArm writes one SELECT of cols from index, filtered on band (a
// condition, or "" for none) and cond.
func (d dialect) writeArm(b *strings.Builder, cols, index, band, cond string) {
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

// writeMerge writes a merged order: one arm per band, merged by orderBy.
// Without unbanded (a technique filter: only graded rows are indexed,
// migration 00017, and every graded row has a band) the rows without a
// band are left out rather than walked to the end for nothing.
func (d dialect) writeMerge(b *strings.Builder, cols, index, cond, orderBy string, unbanded bool) {
	// PostgreSQL merges the arms in order only when each is ordered on its
	// own: it does not see that band = k orders an arm's band index by the
	// rest of its key. So there each arm is a subquery with the order (and
	// the limit), and the merge reads only the rows the page needs.
	if d.orderArms {
		b.WriteString("SELECT * FROM (")
	}
	// The rows without a band (no grade: several solutions, or waiting
	// for their grade) are an arm of their own.
	arms := len(sudoku.Bands)
	if unbanded {
		arms++
	}
	for i := range arms {
		if i > 0 {
			b.WriteString(" UNION ALL ")
		}
		if d.orderArms {
			b.WriteString("(")
		}
		if i == len(sudoku.Bands) {
			d.writeArm(b, cols, index, "band IS NULL", cond)
		} else {
			d.writeArm(b, cols, index, "band = "+strconv.Itoa(i), cond)
		}
		if d.orderArms {
			b.WriteString(orderBy + ")")
		}
	}
	if d.orderArms {
		b.WriteString(") AS arms")
	}
	b.WriteString(orderBy)
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

// prepareReads prepares the statements of reads by id and of the
// counters. The listing statements (a few hundred: every order, direction,
// filter and part) are prepared on first use instead (stmtOf): preparing
// them all made opening an archive cost 0.1-0.2 s, and seconds under the
// race detector. The suite prepares every one (EveryListingPrepares).
func (db *DB) prepareReads(ctx context.Context) error {
	var err error
	if db.getStmt, err = db.reader.PrepareContext(ctx, db.d.sql("SELECT "+columns+" FROM puzzles WHERE id = ? AND "+visible)); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	if db.countStmt, err = db.reader.PrepareContext(ctx, "SELECT CAST(sum(total) AS BIGINT), CAST(sum(uniq) AS BIGINT), CAST(sum(classes) AS BIGINT), CAST(sum(uniq_classes) AS BIGINT) FROM counts"); err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	return nil
}

// stmtOf returns the statement of q in tx, prepared once for the archive
// (a listing finds it by its own SQL text, so the statement and the values
// bound to it come from one build). The first time q is met it is prepared
// on tx's own connection for this call, and for the archive in the
// background: preparing on the pool here would wait for a free connection
// while tx holds one, and with every connection held by a listing doing the
// same, no listing would go on until its request timed out.
func (db *DB) stmtOf(ctx context.Context, tx *sql.Tx, q query) (*sql.Stmt, error) {
	db.listMu.Lock()
	s, ok := db.listStmts[q.sql]
	if !ok && !db.listPending[q.sql] && !db.listClosed {
		db.listPending[q.sql] = true
		db.listWG.Add(1)
		go db.prepareListing(q.sql)
	}
	db.listMu.Unlock()
	if !ok {
		st, err := tx.PrepareContext(ctx, q.sql)
		if err != nil {
			return nil, fmt.Errorf("prepare: %w", err)
		}
		return st, nil
	}
	return tx.StmtContext(ctx, s), nil
}

// prepareListing prepares the listing statement q on the reader pool, once
// a connection is free, and files it for stmtOf.
func (db *DB) prepareListing(q string) {
	defer db.listWG.Done()
	s, err := db.reader.PrepareContext(context.Background(), q)
	db.listMu.Lock()
	defer db.listMu.Unlock()
	delete(db.listPending, q)
	switch {
	case err != nil:
		// The pool is closing, or the statement is broken: the next
		// listing prepares it in its transaction and says why.
	case db.listClosed:
		s.Close()
	default:
		db.listStmts[q] = s
	}
}
