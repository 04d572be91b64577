package store

// tally.go holds the tally: what a write transaction adds to the
// counters (counts, stat_buckets, grade_counts), gathered as rows are
// written and added in a few statements before the commit.

import (
	"cmp"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// A tally counts the rows a transaction inserts into the running totals
// and histograms of migrations 00003 and 00004, and adds them in with a
// handful of statements at the end of the transaction (migration 00006
// replaced the per-row triggers that did it).
type tally struct {
	d           dialect
	total, uniq int64
	buckets     map[bucket][2]int64 // n, uniq
	grades      map[gradeKey]int64  // rows inserted graded
	// ids are the ids of the rows inserted in the transaction, in the
	// order they were inserted (ascending on SQLite).
	ids []int64
	// open counts the rows inserted without same_as, which link files:
	// the first entries of new classes, and their repeats.
	open int64
	// joined counts the rows inserted with same_as: another way of writing
	// an archived puzzle, which link gives its class's players' figures.
	joined int64
	link   []stmt // linkSQL
	find   stmt   // findClassSQL
	many   stmt   // findClassesSQL
	// known holds the classes looked up before, and takes those that
	// this transaction finds.
	known *knownClasses
	// linked holds the rows link filed after they were written (repeats
	// of a class new in this transaction): id, then the class's first id.
	linked map[int64]int64
}

// newTally starts the tally of a write transaction.
func (db *DB) newTally() tally {
	return tally{d: db.d, link: db.linkStmts, find: db.findClass, many: db.findClasses, known: db.known}
}

// A gradeKey is a row of grade_counts.
type gradeKey struct {
	grade     int64
	technique string
}

// A bucket is a row of stat_buckets.
type bucket struct {
	kind string
	k    int
}

// add counts p, a new row, which has one submission.
func (t *tally) add(p *record.Puzzle) {
	if t.buckets == nil {
		t.buckets = make(map[bucket][2]int64)
	}
	var u int64
	if p.Solutions == 1 {
		u = 1
	}
	t.total++
	t.uniq += u
	if p.SameAs == nil {
		t.open++
	} else {
		t.joined++
	}
	if p.GradeVersion != "" {
		if t.grades == nil {
			t.grades = make(map[gradeKey]int64)
		}
		t.grades[gradeKey{p.GradeTenths(), p.Technique}]++
	}
	if p.ID > 0 {
		t.ids = append(t.ids, p.ID)
	}
	for _, b := range []bucket{
		{"backtracks", sudoku.BacktracksBucket(p.Backtracks)},
		{"solve_ns", record.SolveTimeBucket(p.SolveNS)},
		{"clues", p.Givens.Clues()},
	} {
		c := t.buckets[b]
		t.buckets[b] = [2]int64{c[0] + 1, c[1] + u}
	}
}

// addNew counts the puzzles of ps that dup does not mark, the new rows.
func (t *tally) addNew(ps []record.Puzzle, dup []bool) {
	for i := range ps {
		if !dup[i] {
			t.add(&ps[i])
		}
	}
}

// commit adds the tally to the counters of the transaction's shard, in
// tx. The counters' rows are written in one order (grade_counts, counts,
// stat_buckets, each in key order), the same in every transaction. On
// PostgreSQL link and the counters are one statement (closeTally).
func (t *tally) commit(tx *sql.Tx) error {
	if t.total == 0 {
		return nil
	}
	if t.d.postgres {
		return t.closeTally(tx)
	}
	// Without open rows every new row is filed under its class already;
	// link runs for the joined ones' figures (its last statement).
	if t.open > 0 || t.joined > 0 {
		var err error
		if t.linked, err = link(tx, t.link, t.d.newRowsArg(t.ids)); err != nil {
			return err
		}
	}
	grades := slices.SortedFunc(maps.Keys(t.grades), func(a, b gradeKey) int {
		return cmp.Or(cmp.Compare(a.grade, b.grade), strings.Compare(a.technique, b.technique))
	})
	// One statement for all the rows of a table, in key order (PostgreSQL
	// takes a VALUES' rows in order): a statement is a round trip on
	// PostgreSQL, and SQLite compiles each.
	if len(grades) > 0 {
		args := make([]any, 0, 3*len(grades))
		for _, k := range grades {
			args = append(args, k.grade, k.technique, t.grades[k])
		}
		if _, err := tx.Exec(t.d.sql(`INSERT INTO grade_counts AS g (shard, grade, technique, n) VALUES `+rowsOf(t.d.shard, 3, len(grades))+`
ON CONFLICT (grade, technique`+t.d.shardKey+`) DO UPDATE SET n = g.n + excluded.n`), args...); err != nil {
			return fmt.Errorf("count grades: %w", err)
		}
	}
	if _, err := tx.Exec(t.d.sql("UPDATE counts SET total = total + ?, uniq = uniq + ?, submissions = submissions + ? WHERE id = "+t.d.shard),
		t.total, t.uniq, t.total); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	buckets := slices.SortedFunc(maps.Keys(t.buckets), func(a, b bucket) int {
		return cmp.Or(strings.Compare(a.kind, b.kind), cmp.Compare(a.k, b.k))
	})
	args := make([]any, 0, 4*len(buckets))
	for _, b := range buckets {
		c := t.buckets[b]
		args = append(args, b.kind, b.k, c[0], c[1])
	}
	if _, err := tx.Exec(t.d.sql(`INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq) VALUES `+rowsOf(t.d.shard, 4, len(buckets))+`
ON CONFLICT (kind, bucket`+t.d.shardKey+`) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq`), args...); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	return nil
}

// rowsOf writes the values of n rows, each first, then cols placeholders:
// (first, ?, ?), (first, ?, ?).
func rowsOf(first string, cols, n int) string {
	row := "(" + first + strings.Repeat(", ?", cols) + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}
