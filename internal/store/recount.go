package store

// recount.go: what one puzzle row adds to the counters (counts,
// stat_buckets, grade_counts), for the moderation's writes that take a row
// out of them or put it back (hide, restore, delete). A hidden row is not
// counted: hiding subtracts the row's share, restoring adds it again, so
// the totals stay those of the visible rows.

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// visible is the condition every read of puzzles carries (but the
// moderators' ModPuzzle): a hidden puzzle is in no page, list, export,
// stat, daily choice or search. New reads of puzzles must add it too
// (docs/moderation.md).
const visible = "hidden = 0"

// rowFacts is what a puzzle row adds to the counters, read by readFacts.
type rowFacts struct {
	id, solutions, submissions, backtracks, solveNS, clues int64
	hidden, graded                                         bool
	sameAs                                                 sql.NullInt64
	canonical                                              []byte // canonical_key, nil before the upgrade
	classKey                                               []byte // canonical_key, or givens_key when none
	grade                                                  int64
	technique                                              string
}

// head reports whether the row is counted as its class's first entry.
func (f *rowFacts) head() bool { return !f.sameAs.Valid && f.canonical != nil }

// readFacts reads the row id in tx, locking it on PostgreSQL, or
// record.ErrNotFound.
func readFacts(tx *sql.Tx, d dialect, id int64) (rowFacts, error) {
	var f rowFacts
	q := `SELECT id, hidden, solutions, submissions, backtracks, solve_ns, clues, same_as, canonical_key,
    coalesce(canonical_key, givens_key), grade_version IS NOT NULL, grade, technique FROM puzzles WHERE id = ?`
	if d.postgres {
		q += " FOR UPDATE"
	}
	var hidden int64
	err := tx.QueryRow(d.sql(q), id).Scan(&f.id, &hidden, &f.solutions, &f.submissions, &f.backtracks, &f.solveNS, &f.clues,
		&f.sameAs, &f.canonical, &f.classKey, &f.graded, &f.grade, &f.technique)
	if errors.Is(err, sql.ErrNoRows) {
		return f, fmt.Errorf("puzzle %d: %w", id, record.ErrNotFound)
	}
	f.hidden = hidden != 0
	return f, err
}

// A share is a change to the counters: what rows add or take away.
type share struct {
	total, uniq, subs, classes, uniqClasses int64
	buckets                                 map[bucket][3]int64 // n, uniq, heads
	grades                                  map[gradeKey]int64
}

func (s *share) bucket(b bucket, n, uniq, heads int64) {
	if s.buckets == nil {
		s.buckets = make(map[bucket][3]int64)
	}
	c := s.buckets[b]
	s.buckets[b] = [3]int64{c[0] + n, c[1] + uniq, c[2] + heads}
}

// rest adds sign times the row's share but for its class (what the
// delete triggers of migrations 00006 and 00007 take away).
func (s *share) rest(f *rowFacts, sign int64) {
	u := int64(0)
	if f.solutions == 1 {
		u = sign
	}
	s.total += sign
	s.uniq += u
	s.subs += sign * f.submissions
	s.bucket(bucket{"backtracks", sudoku.BacktracksBucket(f.backtracks)}, sign, u, 0)
	s.bucket(bucket{"solve_ns", record.SolveTimeBucket(f.solveNS)}, sign, u, 0)
	s.bucket(bucket{"clues", int(f.clues)}, sign, u, 0)
	if f.graded {
		if s.grades == nil {
			s.grades = make(map[gradeKey]int64)
		}
		s.grades[gradeKey{f.grade, f.technique}] += sign
	}
}

// class adds sign times the row's share as its class's head (link's
// counts), nothing for a row that is not one.
func (s *share) class(f *rowFacts, sign int64) {
	if !f.head() {
		return
	}
	s.classes += sign
	if f.solutions == 1 {
		s.uniqClasses += sign
		s.bucket(bucket{"backtracks", sudoku.BacktracksBucket(f.backtracks)}, 0, 0, sign)
	}
}

// row adds sign times the row's whole share.
func (s *share) row(f *rowFacts, sign int64) {
	s.rest(f, sign)
	s.class(f, sign)
}

// apply adds the share to the counters of the transaction's shard, in the
// order tally.commit writes them (grade_counts, counts, stat_buckets, each
// in key order). On SQLite, the one shard's rows exist (the rows they
// count were added through them) and their CHECKs refuse a negative row,
// so they are updated; on PostgreSQL the shard's row may not exist yet.
func (s *share) apply(tx *sql.Tx, d dialect) error {
	grades := slices.SortedFunc(maps.Keys(s.grades), func(a, b gradeKey) int {
		return cmp.Or(cmp.Compare(a.grade, b.grade), strings.Compare(a.technique, b.technique))
	})
	for _, k := range grades {
		if s.grades[k] == 0 {
			continue
		}
		if _, err := tx.Exec(d.sql(`INSERT INTO grade_counts AS g (shard, grade, technique, n) VALUES (`+d.shard+`, ?, ?, ?)
ON CONFLICT (grade, technique`+d.shardKey+`) DO UPDATE SET n = g.n + excluded.n`), k.grade, k.technique, s.grades[k]); err != nil {
			return fmt.Errorf("count grades: %w", err)
		}
	}
	if _, err := tx.Exec(d.sql("UPDATE counts SET total = total + ?, uniq = uniq + ?, submissions = submissions + ?, classes = classes + ?, uniq_classes = uniq_classes + ? WHERE id = "+d.shard),
		s.total, s.uniq, s.subs, s.classes, s.uniqClasses); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	buckets := slices.SortedFunc(maps.Keys(s.buckets), func(a, b bucket) int {
		return cmp.Or(strings.Compare(a.kind, b.kind), cmp.Compare(a.k, b.k))
	})
	for _, b := range buckets {
		c := s.buckets[b]
		if c == [3]int64{} {
			continue
		}
		q := "UPDATE stat_buckets SET n = n + ?, uniq = uniq + ?, heads = heads + ? WHERE kind = ? AND bucket = ?"
		args := []any{c[0], c[1], c[2], b.kind, b.k}
		if d.postgres {
			q = `INSERT INTO stat_buckets AS s (shard, n, uniq, heads, kind, bucket) VALUES (` + d.shard + `, ?, ?, ?, ?, ?)
ON CONFLICT (kind, bucket` + d.shardKey + `) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq, heads = s.heads + excluded.heads`
		}
		if _, err := tx.Exec(d.sql(q), args...); err != nil {
			return fmt.Errorf("count: %w", err)
		}
	}
	return nil
}
