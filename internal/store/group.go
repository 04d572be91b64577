package store

// group.go holds the statements of a write transaction on PostgreSQL that
// stand for several: every statement is a round trip, and PostgreSQL
// spends about as much CPU on running a small statement as on the rows it
// writes, so a group commit's fixed cost is its number of statements
// (issue 36). closeTally files a transaction's rows under their classes
// and adds its counters in one (SubmitMany, AddMany, batches; a group
// commit of submissions has its own statements: groupclose.go). SQLite,
// where a statement is a function call, keeps the statements of link.go,
// moderation.go and tally.go: the two do the same.

import (
	"cmp"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// closeTallySQL is link's statements and tally.commit's in one, on
// PostgreSQL: ?1 the ids of the transaction's new rows; ?2-?4 the rows of
// grade_counts to add (grade, technique, n); ?5, ?6 what counts' total and
// uniq gain; ?7-?10 the rows of stat_buckets (kind, bucket, n, uniq).
//
// Its parts, each a statement of link before: fresh, the new rows no
// class holds yet; ins, the new classes, the first (lowest) id of each
// (in key order, the lock order); upd files the repeats of a new class
// under its first entry; heads, the first entries, which the counters
// count as classes; joined, the new rows filed at insert, and fig, which
// gives those of a played puzzle their class's players' figures (driven by
// the new rows' ids: a plan from the partial same_as index, which a
// generic plan made while few rows had same_as chose, would walk all of
// it; coalesce keeps the index out of reach).
// A statement's parts see one snapshot and may
// not write a row twice, so counts and stat_buckets are each one write of
// everything they gain, and upd and fig touch different rows (fresh's,
// and those filed at insert).
//
// Another server may start one of fresh's classes after this transaction
// looked for it (lookupGroup): ins then waits for that server's commit and
// skips the class, whose rows this statement cannot see. The last row it
// returns says how many classes it started of how many it was to start;
// when they differ, closeTally files the rest with link's own statements.
const closeTallySQL = closeUpkeepSQL + `,
gc AS (
    INSERT INTO grade_counts AS g (shard, grade, technique, n)
    SELECT counter_shard(), u.grade, u.technique, u.n FROM unnest($2::bigint[], $3::text[], $4::bigint[]) AS u (grade, technique, n)
    ORDER BY u.grade, u.technique
    ON CONFLICT (grade, technique, shard) DO UPDATE SET n = g.n + excluded.n),
ct AS (
    UPDATE counts SET total = total + $5, uniq = uniq + $6, submissions = submissions + $5,
        classes = classes + (SELECT count(*) FROM heads),
        uniq_classes = uniq_classes + (SELECT count(*) FROM heads WHERE solutions = 1)
    WHERE id = counter_shard()),
bk AS (
    INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq, heads)
    SELECT counter_shard(), r.kind, r.bucket, sum(r.n), sum(r.uniq), sum(r.heads) FROM (
        SELECT u.kind, u.bucket, u.n, u.uniq, 0 AS heads
        FROM unnest($7::text[], $8::bigint[], $9::bigint[], $10::bigint[]) AS u (kind, bucket, n, uniq)
        UNION ALL
        SELECT 'backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= h.backtracks ORDER BY lo DESC LIMIT 1), 0, 0, 1
        FROM heads AS h WHERE h.solutions = 1) AS r
    GROUP BY r.kind, r.bucket ORDER BY r.kind, r.bucket
    ON CONFLICT (kind, bucket, shard) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq, heads = s.heads + excluded.heads)
SELECT 0, id, same_as FROM upd
UNION ALL
SELECT 1, (SELECT count(*) FROM ins), (SELECT count(DISTINCT canonical_key) FROM fresh)`

// closeTally is tally.commit on PostgreSQL: one statement (closeTallySQL),
// and link's filing and figures statements after it in the rare case
// that another server started one of the transaction's classes meanwhile.
func (t *tally) closeTally(tx *sql.Tx) error {
	var (
		grades                  []int64
		techniques              []string
		gradeN                  []int64
		kinds                   []string
		buckets, bucketN, uniqs []int64
	)
	for _, k := range slices.SortedFunc(maps.Keys(t.grades), func(a, b gradeKey) int {
		return cmp.Or(cmp.Compare(a.grade, b.grade), strings.Compare(a.technique, b.technique))
	}) {
		grades, techniques, gradeN = append(grades, k.grade), append(techniques, k.technique), append(gradeN, t.grades[k])
	}
	for b, c := range t.buckets {
		kinds, buckets = append(kinds, b.kind), append(buckets, int64(b.k))
		bucketN, uniqs = append(bucketN, c[0]), append(uniqs, c[1])
	}
	rows, err := tx.Query(closeTallySQL, t.ids, grades, techniques, gradeN, t.total, t.uniq, kinds, buckets, bucketN, uniqs)
	if err != nil {
		return fmt.Errorf("link classes and count: %w", err)
	}
	var started, starting int64
	for rows.Next() {
		var kind, id, first int64
		if err := rows.Scan(&kind, &id, &first); err != nil {
			rows.Close()
			return fmt.Errorf("link classes and count: %w", err)
		}
		if kind == 1 {
			started, starting = id, first
			continue
		}
		if t.linked == nil {
			t.linked = make(map[int64]int64)
		}
		t.linked[id] = first
	}
	if err := cmp.Or(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("link classes and count: %w", err)
	}
	if started == starting {
		return nil
	}
	// Another server's classes: file the rows under them, then give
	// them their figures (link's statements, in order).
	for _, i := range []int{linkUpdate, linkFigures} {
		if err := t.linkAgain(tx, i); err != nil {
			return err
		}
	}
	return nil
}

// linkAgain runs link's statement i over the transaction's new rows,
// taking the rows it files into t.linked.
func (t *tally) linkAgain(tx *sql.Tx, i int) error {
	arg := t.d.newRowsArg(t.ids)
	if i != linkUpdate {
		if _, err := t.link[i].exec(tx, arg); err != nil {
			return fmt.Errorf("link classes: %w", err)
		}
		return nil
	}
	rows, err := t.link[i].query(tx, arg)
	if err != nil {
		return fmt.Errorf("link classes: %w", err)
	}
	for rows.Next() {
		var id, first int64
		if err := rows.Scan(&id, &first); err != nil {
			rows.Close()
			return fmt.Errorf("link classes: %w", err)
		}
		if t.linked == nil {
			t.linked = make(map[int64]int64)
		}
		t.linked[id] = first
	}
	if err := cmp.Or(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("link classes: %w", err)
	}
	return nil
}
