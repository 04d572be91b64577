package store

// groupclose.go holds a group commit of submissions on PostgreSQL: three
// statements and BEGIN/COMMIT (issue 36). lockLookup locks the
// transaction's counter shard and finds the group's classes in one
// statement; the upsert (submit.go) writes the rows; closeGroup files the
// new rows under their classes, adds every counter and looks for hidden
// puzzles among the group's in one. Every statement costs PostgreSQL
// about as much CPU (a round trip, the executor's start on each table and
// index it names, the plan cache's locks) as the few rows a group writes,
// and with more servers sharing the clients there are more, smaller
// groups: so a group's fixed cost is what makes the database's work per
// submission grow with servers, and each statement or table a group does
// not need is left out.

import (
	"cmp"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// lockLookupSQL locks the first free counter shard at or after ?1 (as
// lockShardSQL) and finds the classes of a group's canonical keys (?2):
// kind 1 the shard (no such row when every shard is held), kind 0 a class
// (its key and first id). The lookup's snapshot may be older than the
// lock; the classes allow it (closeGroup files the rows under a class
// another server started meanwhile), and the hidden puzzles are looked up
// by closeGroup, a statement after the lock, so that a hide committed
// before it (a hide locks every shard) is seen.
const lockLookupSQL = `WITH lock AS MATERIALIZED (
    SELECT set_config('sudoku.shard', id::text, true)::bigint AS shard FROM
    (SELECT id FROM counts ORDER BY id < $1, id FOR UPDATE SKIP LOCKED LIMIT 1) AS free)
SELECT 1, NULL::bytea, shard FROM lock
UNION ALL
SELECT 0, canonical_key, first_id FROM classes WHERE canonical_key = ANY($2)`

// lockLookup is the first statement of a group commit on PostgreSQL: it
// locks a counter shard, waiting for the writer's own when every shard is
// held (waitShardSQL), and sets SameAs on each of ps whose class is
// archived. It returns the shard.
func (db *DB) lockLookup(tx *sql.Tx, ps []sudoku.Puzzle) (int64, error) {
	canon := make([][]byte, len(ps))
	for i := range ps {
		ps[i].SameAs = nil
		canon[i] = ps[i].Canonical.Key()
	}
	rows, err := tx.Query(lockLookupSQL, db.shard, canon)
	if err != nil {
		return 0, fmt.Errorf("lock the counters, find classes: %w", err)
	}
	var shard int64
	found := make(map[string]int64, len(ps))
	for rows.Next() {
		var kind int
		var key []byte
		var id int64
		if err := rows.Scan(&kind, &key, &id); err != nil {
			rows.Close()
			return 0, fmt.Errorf("lock the counters, find classes: %w", err)
		}
		if kind == 1 {
			shard = id
			continue
		}
		found[string(key)] = id
	}
	if err := cmp.Or(rows.Err(), rows.Close()); err != nil {
		return 0, fmt.Errorf("lock the counters, find classes: %w", err)
	}
	if shard == 0 {
		var s string
		if err := tx.QueryRow(waitShardSQL, db.shard).Scan(&s); err != nil {
			return 0, fmt.Errorf("lock the counters: %w", err)
		}
		if shard, err = strconv.ParseInt(s, 10, 64); err != nil {
			return 0, fmt.Errorf("lock the counters: %w", err)
		}
	}
	for i := range ps {
		if id, ok := found[string(canon[i])]; ok {
			ps[i].SameAs = &id
		}
	}
	return shard, nil
}

// hiddenKeys are the keys under which a hidden puzzle refuses ps: each
// one's canonical key and givens key (moderation.HiddenSet.Of).
func hiddenKeys(ps []sudoku.Puzzle) [][]byte {
	keys := make([][]byte, 0, 2*len(ps))
	for i := range ps {
		if ps[i].Canonical != (sudoku.Grid{}) {
			keys = append(keys, ps[i].Canonical.Key())
		}
		keys = append(keys, ps[i].Givens.Key())
	}
	return keys
}

// hiddenSQL finds the hidden puzzles under keys (?1), in closeGroup's
// columns: for a group that wrote no new row.
const hiddenSQL = `SELECT 2, puzzle_id, 0, class_key, reason FROM hidden_puzzles WHERE class_key = ANY($1)`

// A closing is closeGroup's statement and arguments, built together.
type closing struct {
	q    strings.Builder
	args []any
}

// arg adds v to the arguments and returns its placeholder, cast to typ.
func (c *closing) arg(v any, typ string) string {
	c.args = append(c.args, v)
	return "$" + strconv.Itoa(len(c.args)) + typ
}

// closeGroup is tally.commit for a group commit on PostgreSQL (shard its
// counter shard, ps its submissions, results their upserts' results), in
// one statement: the new rows' classes, the counters, and the hidden
// puzzles among ps, which fail the group with a *moderation.HiddenError
// (the transaction rolls back: commitBatch then retries each submission
// alone). In the common case, every new row is the first of a new class
// or joins an unplayed archived class by the same_as the upsert wrote, and
// the statement names neither puzzles nor a table it would not change:
// the new heads come from the upsert's results. A group with a repeat of
// a new class, or rows joining a class (whose players' figures they take),
// runs closeTallySQL's class upkeep instead. As with closeTally, another
// server's class started meanwhile is filed by link's statements after.
func (db *DB) closeGroup(tx *sql.Tx, t *tally, shard int64, ps []sudoku.Puzzle, results []result) error {
	keys := hiddenKeys(ps)
	if t.total == 0 {
		rows, err := tx.Query(hiddenSQL, keys)
		if err != nil {
			return fmt.Errorf("find hidden puzzles: %w", err)
		}
		return t.readClose(tx, rows, ps)
	}
	c := t.closing(shard, results, keys)
	rows, err := tx.Query(c.q.String(), c.args...)
	if err != nil {
		return fmt.Errorf("link classes and count: %w", err)
	}
	return t.readClose(tx, rows, ps)
}

// closing builds closeGroup's statement for the tally's new rows.
func (t *tally) closing(shard int64, results []result, keys [][]byte) *closing {
	var ids, sols, bts []int64
	var canon [][]byte
	simple := true
	seen := make(map[string]bool)
	for i := range results {
		r := &results[i]
		if r.dup == nil || r.dup[0] {
			continue
		}
		if r.stored.SameAs != nil {
			simple = false // joins a class: its figures
			continue
		}
		k := r.stored.Canonical.Key()
		if seen[string(k)] {
			simple = false // a repeat of a new class
		}
		seen[string(k)] = true
		ids, canon = append(ids, r.stored.ID), append(canon, k)
		sols, bts = append(sols, int64(r.stored.Solutions)), append(bts, int64(r.stored.Backtracks))
	}
	c := &closing{}
	q := &c.q
	if simple {
		q.WriteString(`WITH fresh AS (
    SELECT * FROM unnest(` + c.arg(ids, "::bigint[]") + `, ` + c.arg(canon, "::bytea[]") + `, ` + c.arg(sols, "::bigint[]") + `, ` + c.arg(bts, "::bigint[]") + `) AS f (id, canonical_key, solutions, backtracks)),
ins AS (
    INSERT INTO classes (canonical_key, first_id) SELECT canonical_key, id FROM fresh ORDER BY canonical_key
    ON CONFLICT DO NOTHING RETURNING canonical_key, first_id),
heads AS (
    SELECT f.solutions, f.backtracks FROM fresh AS f JOIN ins AS i ON i.first_id = f.id)`)
	} else {
		q.WriteString(strings.ReplaceAll(closeUpkeepSQL, "$1", c.arg(t.ids, "::bigint[]")))
	}
	t.closeCounters(c, shard)
	q.WriteString(`,
hid AS (
    SELECT class_key, puzzle_id, reason FROM hidden_puzzles WHERE class_key = ANY(` + c.arg(keys, "::bytea[]") + `))
`)
	if !simple {
		q.WriteString("SELECT 0, id, same_as, NULL::bytea, '' FROM upd\nUNION ALL\n")
	}
	q.WriteString(`SELECT 1, (SELECT count(*) FROM ins), (SELECT count(DISTINCT canonical_key) FROM fresh), NULL::bytea, ''
UNION ALL
SELECT 2, puzzle_id, 0, class_key, reason FROM hid`)
	return c
}

// closeCounters adds the counters' parts to c: grade_counts (when the
// group wrote graded rows), counts and stat_buckets, in that order (the
// lock order), each of the shard's rows in key order.
func (t *tally) closeCounters(c *closing, shard int64) {
	q := &c.q
	if len(t.grades) > 0 {
		var grades, gradeN []int64
		var techniques []string
		for _, k := range slices.SortedFunc(maps.Keys(t.grades), func(a, b gradeKey) int {
			return cmp.Or(cmp.Compare(a.grade, b.grade), strings.Compare(a.technique, b.technique))
		}) {
			grades, techniques, gradeN = append(grades, k.grade), append(techniques, k.technique), append(gradeN, t.grades[k])
		}
		q.WriteString(`,
gc AS (
    INSERT INTO grade_counts AS g (shard, grade, technique, n)
    SELECT counter_shard(), u.grade, u.technique, u.n FROM unnest(` + c.arg(grades, "::bigint[]") + `, ` + c.arg(techniques, "::text[]") + `, ` + c.arg(gradeN, "::bigint[]") + `) AS u (grade, technique, n)
    ORDER BY u.grade, u.technique
    ON CONFLICT (grade, technique, shard) DO UPDATE SET n = g.n + excluded.n)`)
	}
	var kinds []string
	var buckets, bucketN, uniqs []int64
	for _, b := range slices.SortedFunc(maps.Keys(t.buckets), func(a, b bucket) int {
		return cmp.Or(strings.Compare(a.kind, b.kind), cmp.Compare(a.k, b.k))
	}) {
		n := t.buckets[b]
		kinds, buckets = append(kinds, b.kind), append(buckets, int64(b.k))
		bucketN, uniqs = append(bucketN, n[0]), append(uniqs, n[1])
	}
	total := c.arg(t.total, "::bigint")
	q.WriteString(`,
ct AS (
    UPDATE counts SET total = total + ` + total + `, uniq = uniq + ` + c.arg(t.uniq, "::bigint") + `, submissions = submissions + ` + total + `,
        classes = classes + (SELECT count(*) FROM heads),
        uniq_classes = uniq_classes + (SELECT count(*) FROM heads WHERE solutions = 1)
    WHERE id = ` + c.arg(shard, "::bigint") + `),
bk AS (
    INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq, heads)
    SELECT counter_shard(), r.kind, r.bucket, sum(r.n), sum(r.uniq), sum(r.heads) FROM (
        SELECT u.kind, u.bucket, u.n, u.uniq, 0 AS heads
        FROM unnest(` + c.arg(kinds, "::text[]") + `, ` + c.arg(buckets, "::bigint[]") + `, ` + c.arg(bucketN, "::bigint[]") + `, ` + c.arg(uniqs, "::bigint[]") + `) AS u (kind, bucket, n, uniq)
        UNION ALL
        SELECT 'backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= h.backtracks ORDER BY lo DESC LIMIT 1), 0, 0, 1
        FROM heads AS h WHERE h.solutions = 1) AS r
    GROUP BY r.kind, r.bucket ORDER BY r.kind, r.bucket
    ON CONFLICT (kind, bucket, shard) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq, heads = s.heads + excluded.heads)`)
}

// closeUpkeepSQL is closeTallySQL's class upkeep (fresh, ins, upd,
// heads, joined, fig, sec) over the new rows' ids ($1): for a group with a
// repeat of a new class or rows joining a class.
const closeUpkeepSQL = `WITH fresh AS MATERIALIZED (
    SELECT id, canonical_key, solutions, backtracks FROM puzzles WHERE id = ANY($1) AND same_as IS NULL),
ins AS (
    INSERT INTO classes (canonical_key, first_id)
    SELECT canonical_key, min(id) FROM fresh GROUP BY canonical_key ORDER BY canonical_key
    ON CONFLICT DO NOTHING RETURNING canonical_key, first_id),
upd AS (
    UPDATE puzzles SET same_as = i.first_id FROM ins AS i
    WHERE puzzles.id = ANY($1) AND puzzles.same_as IS NULL AND puzzles.canonical_key = i.canonical_key AND puzzles.id <> i.first_id
    RETURNING puzzles.id, puzzles.same_as),
heads AS (
    SELECT f.solutions, f.backtracks FROM fresh AS f JOIN ins AS i ON i.first_id = f.id),
joined AS MATERIALIZED (
    SELECT id, same_as FROM puzzles WHERE id = ANY($1) AND coalesce(same_as, 0) <> 0),
fig AS (
    INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
    SELECT j.id, f.plays, f.solves, f.median_seconds FROM joined AS j JOIN puzzle_figures AS f ON f.puzzle_id = j.same_as` + figuresUpsert + `),
sec AS (
    UPDATE puzzles SET player_seconds = h.player_seconds
    FROM joined AS j JOIN puzzles AS h ON h.id = j.same_as WHERE puzzles.id = j.id AND h.player_seconds > 0)`

// readClose reads closeGroup's rows: the rows upd filed (kind 0), the
// classes started of those to start (kind 1), the hidden puzzles (kind
// 2). It fails with the first of ps a hidden puzzle refuses, and runs
// link's statements when another server started one of the classes.
func (t *tally) readClose(tx *sql.Tx, rows *sql.Rows, ps []sudoku.Puzzle) error {
	var started, starting int64
	var hidden moderation.HiddenSet
	for rows.Next() {
		var kind, id, first int64
		var key []byte
		var reason string
		if err := rows.Scan(&kind, &id, &first, &key, &reason); err != nil {
			rows.Close()
			return fmt.Errorf("link classes and count: %w", err)
		}
		switch kind {
		case 0:
			if t.linked == nil {
				t.linked = make(map[int64]int64)
			}
			t.linked[id] = first
		case 1:
			started, starting = id, first
		default:
			if hidden == nil {
				hidden = make(moderation.HiddenSet)
			}
			hidden[string(key)] = &moderation.HiddenError{PuzzleID: id, Reason: reason}
		}
	}
	if err := cmp.Or(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("link classes and count: %w", err)
	}
	for i := range ps {
		if h := hidden.Of(&ps[i]); h != nil {
			return h
		}
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
