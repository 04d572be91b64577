package store

// groupclose.go holds a group commit of submissions on PostgreSQL: one
// round trip (issue 36). The group is a pipe (tx.go): BEGIN, the shard
// lock, the upsert of its rows (which finds their classes itself), the
// closing statement (which files the new rows under their classes, adds
// every counter and refuses hidden puzzles) and COMMIT go to the server
// together, and nothing waits on an answer: what a statement needs from
// the one before, it reads in SQL. Each round trip costs the server and
// PostgreSQL's backend a wake-up, and with more servers sharing the
// clients there are more, smaller groups: so a group's round trips (and
// its statements) are what made the database's work per submission grow
// with servers.

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// hiddenKeys are the keys under which a hidden puzzle refuses ps: each
// one's canonical key and givens key (moderation.HiddenSet.Of).
func hiddenKeys(ps []record.Puzzle) [][]byte {
	keys := make([][]byte, 0, 2*len(ps))
	for i := range ps {
		if ps[i].HasCanonical() {
			keys = append(keys, ps[i].CanonicalKey())
		}
		keys = append(keys, ps[i].GivensKey())
	}
	return keys
}

// The closing statement fails the group with these words in its error
// (an invalid cast of a text that holds them: SQL has no RAISE) when the
// group holds a hidden puzzle or met another server's new class.
const (
	hiddenMark = "sudoku: hidden puzzle"
	racedMark  = "sudoku: class started meanwhile"
)

// raised reports whether err is the closing statement's failure mark.
func raised(err error, mark string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "22P02" && strings.Contains(pe.Message, mark)
}

// closeGroupSQL is a group commit's closing statement, after its upsert:
// ?1-?4 the group's givens keys, how many of its submissions each has
// (the n an upsert wrote into a new row's submissions), and the backtracks
// and solve-time buckets of each (sudoku's); ?5 hiddenKeys.
//
// k is the group's new rows: those whose submissions are the group's n
// (a row archived before has more). Then as closeTallySQL: fresh, the new
// rows without a class (the upsert filed the rest under theirs); ins, the
// new classes, the first id of each; upd, the repeats of a new class (rep)
// filed under it; heads; fig and sec, the players' figures of a played class
// for the rows that joined it (joined); the counters in the lock order. rep
// and joined are materialized so that a group with neither (the common
// case) reads no row of puzzles for them. The last rows fail
// the statement (and the group) when a hidden puzzle refuses one of the
// group's, a statement after the shard lock so that a hide committed
// before it (a hide locks every shard) is seen; or when ins skipped a
// class another server started after the upsert looked (errGroupRaced:
// the group runs again and files its rows under it).
const closeGroupSQL = `WITH k AS MATERIALIZED (
    SELECT p.id, p.canonical_key, p.solutions, p.backtracks, p.same_as, p.clues, p.grade, p.technique, p.grade_version, p.submissions, k.bb, k.sb
    FROM unnest($1::bytea[], $2::bigint[], $3::bigint[], $4::bigint[]) AS k (givens_key, n, bb, sb)
    JOIN puzzles AS p ON p.givens_key = k.givens_key AND p.submissions = k.n),
fresh AS MATERIALIZED (
    SELECT id, canonical_key, solutions, backtracks FROM k WHERE same_as IS NULL),
ins AS (
    INSERT INTO classes (canonical_key, first_id)
    SELECT canonical_key, min(id) FROM fresh GROUP BY canonical_key ORDER BY canonical_key
    ON CONFLICT DO NOTHING RETURNING canonical_key, first_id),
rep AS MATERIALIZED (
    SELECT f.id, i.first_id FROM fresh AS f JOIN ins AS i ON i.canonical_key = f.canonical_key WHERE f.id <> i.first_id),
upd AS (
    UPDATE puzzles SET same_as = r.first_id FROM rep AS r WHERE puzzles.id = r.id
    RETURNING puzzles.id, puzzles.same_as),
heads AS (
    SELECT f.solutions, f.backtracks FROM fresh AS f JOIN ins AS i ON i.first_id = f.id),
joined AS MATERIALIZED (
    SELECT id, same_as FROM k WHERE same_as IS NOT NULL),
fig AS (
    INSERT INTO puzzle_figures (puzzle_id, plays, solves, median_seconds)
    SELECT j.id, f.plays, f.solves, f.median_seconds FROM joined AS j JOIN puzzle_figures AS f ON f.puzzle_id = j.same_as` + figuresUpsert + `),
sec AS (
    UPDATE puzzles SET player_seconds = h.player_seconds
    FROM joined AS j JOIN puzzles AS h ON h.id = j.same_as WHERE puzzles.id = j.id AND h.player_seconds > 0),
gc AS (
    INSERT INTO grade_counts AS g (shard, grade, technique, n)
    SELECT counter_shard(), k.grade, k.technique, count(*) FROM k WHERE k.grade_version IS NOT NULL
    GROUP BY k.grade, k.technique ORDER BY k.grade, k.technique
    ON CONFLICT (grade, technique, shard) DO UPDATE SET n = g.n + excluded.n),
ct AS (
    UPDATE counts SET total = total + (SELECT count(*) FROM k), uniq = uniq + (SELECT count(*) FROM k WHERE solutions = 1),
        submissions = submissions + (SELECT sum(submissions) FROM k),
        classes = classes + (SELECT count(*) FROM heads),
        uniq_classes = uniq_classes + (SELECT count(*) FROM heads WHERE solutions = 1)
    WHERE id = counter_shard() AND EXISTS (SELECT FROM k)),
bk AS (
    INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq, heads)
    SELECT counter_shard(), r.kind, r.bucket, sum(r.n), sum(r.uniq), sum(r.heads) FROM (
        SELECT b.kind, b.bucket, 1 AS n, (k.solutions = 1)::int AS uniq, 0 AS heads
        FROM k CROSS JOIN LATERAL (VALUES ('backtracks', k.bb), ('solve_ns', k.sb), ('clues', k.clues)) AS b (kind, bucket)
        UNION ALL
        SELECT 'backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= h.backtracks ORDER BY lo DESC LIMIT 1), 0, 0, 1
        FROM heads AS h WHERE h.solutions = 1) AS r
    GROUP BY r.kind, r.bucket ORDER BY r.kind, r.bucket
    ON CONFLICT (kind, bucket, shard) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq, heads = s.heads + excluded.heads)
SELECT id, same_as FROM upd
UNION ALL
SELECT 0, coalesce(CAST((SELECT '` + hiddenMark + ` ' || min(puzzle_id) FROM hidden_puzzles WHERE class_key = ANY($5)) AS bigint), 0)
UNION ALL
SELECT 0, coalesce(CAST((SELECT '` + racedMark + `' FROM (SELECT count(*) AS n FROM ins) AS i
    WHERE i.n <> (SELECT count(DISTINCT canonical_key) FROM fresh)) AS bigint), 0)`

// A pgGroup is a group commit of submissions on PostgreSQL: its puzzles,
// their distinct givens in key order (the lock order) with the indexes of
// the submissions of each, and what the pipe's statements answered.
type pgGroup struct {
	ps     []record.Puzzle
	keys   [][]byte // distinct givens keys, ascending
	of     [][]int  // of[j]: the indexes in ps of keys[j]'s submissions, in order
	stored map[string]record.Puzzle
	linked map[int64]int64
}

// newPGGroup gathers ops' puzzles by givens.
func newPGGroup(ops []*op) *pgGroup {
	g := &pgGroup{ps: make([]record.Puzzle, len(ops))}
	at := make(map[string]int, len(ops))
	for i, o := range ops {
		g.ps[i] = *o.w.grouped()
		k := g.ps[i].GivensKey()
		j, ok := at[string(k)]
		if !ok {
			j = len(g.keys)
			at[string(k)] = j
			g.keys, g.of = append(g.keys, k), append(g.of, nil)
		}
		g.of[j] = append(g.of[j], i)
	}
	order := make([]int, len(g.keys))
	for j := range order {
		order[j] = j
	}
	slices.SortFunc(order, func(a, b int) int { return bytes.Compare(g.keys[a], g.keys[b]) })
	keys, of := make([][]byte, len(order)), make([][]int, len(order))
	for n, j := range order {
		keys[n], of[n] = g.keys[j], g.of[j]
	}
	g.keys, g.of = keys, of
	return g
}

// queue queues the group's upsert and closing statement on p.
func (g *pgGroup) queue(p *pipe, now int64) {
	g.stored = make(map[string]record.Puzzle, len(g.keys))
	g.linked = nil
	q, args := g.upsert(now)
	p.Queue(q, args...).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			s, err := scanPuzzle(rows.Scan)
			if err != nil {
				return fmt.Errorf("store %d puzzles: %w", len(g.keys), err)
			}
			g.stored[string(s.GivensKey())] = s
		}
		return rows.Err()
	})
	n := make([]int64, len(g.keys))
	bb, sb := make([]int64, len(g.keys)), make([]int64, len(g.keys))
	for j, of := range g.of {
		q := &g.ps[of[0]]
		n[j], bb[j], sb[j] = int64(len(of)), int64(sudoku.BacktracksBucket(q.Backtracks)), int64(record.SolveTimeBucket(q.SolveNS))
	}
	p.Queue(closeGroupSQL, g.keys, n, bb, sb, hiddenKeys(g.ps)).Query(func(rows pgx.Rows) error {
		for rows.Next() {
			var id, first int64
			if err := rows.Scan(&id, &first); err != nil {
				return fmt.Errorf("link classes and count: %w", err)
			}
			if id != 0 {
				if g.linked == nil {
					g.linked = make(map[int64]int64)
				}
				g.linked[id] = first
			}
		}
		return rows.Err()
	})
}

// upsert is the group's upsert: upsertSQL for each of its givens, in key
// order, in one statement. A row's same_as is its class's first id, looked
// up by the statement; a new row has as many submissions as the group
// has of it, and an archived one gains them (one statement may not touch
// a row twice).
func (g *pgGroup) upsert(now int64) (string, []any) {
	var b strings.Builder
	args := make([]any, 0, len(g.keys)*len(insertColumns))
	b.WriteString("INSERT INTO puzzles (" + names(insertColumns, "") + ") VALUES ")
	for j := range g.keys {
		if j > 0 {
			b.WriteString(", ")
		}
		q := g.ps[g.of[j][0]]
		q.SubmittedAt = time.Unix(0, now)
		q.Submissions = int64(len(g.of[j]))
		canon := 0
		for _, c := range insertColumns {
			if c.name == "canonical_key" {
				canon = len(args) + 1
			}
			if c.name != "same_as" {
				args = append(args, c.arg(&q))
			}
		}
		b.WriteByte('(')
		n := len(args) - (len(insertColumns) - 1) + 1 // the row's first (same_as has none)
		for i, c := range insertColumns {
			if i > 0 {
				b.WriteString(", ")
			}
			if c.name == "same_as" {
				b.WriteString("(SELECT first_id FROM classes WHERE canonical_key = $" + strconv.Itoa(canon) + ")")
				continue
			}
			b.WriteString("$" + strconv.Itoa(n))
			n++
		}
		b.WriteByte(')')
	}
	b.WriteString(`
ON CONFLICT (givens_key) DO UPDATE SET submissions = puzzles.submissions + excluded.submissions
RETURNING ` + columns)
	return b.String(), args
}

// results sets each submission's result from the statements' answers: a
// new row's first submission is new, every other a duplicate, and each
// sees the row as its own upsert would have left it.
func (g *pgGroup) results(results []result) error {
	for j, of := range g.of {
		s, ok := g.stored[string(g.keys[j])]
		if !ok {
			return fmt.Errorf("store %s: no row returned", g.ps[of[0]].Givens)
		}
		k := int64(len(of))
		fresh := s.Submissions == k
		if fresh && s.SameAs == nil {
			if first, ok := g.linked[s.ID]; ok {
				s.SameAs = &first
			}
		}
		for m, i := range of {
			r := s
			r.Submissions = s.Submissions - (k - 1 - int64(m))
			results[i] = result{stored: r, dup: []bool{!fresh || m > 0}}
		}
	}
	return nil
}

// commitGroupPG is commitBatch's transaction on PostgreSQL: the group in
// one pipe. A hidden puzzle fails it with the *moderation.HiddenError of
// the first of the group's puzzles it refuses (read after the rollback).
func (db *DB) commitGroupPG(ops []*op, results []result, now int64) error {
	g := newPGGroup(ops)
	for try := 1; ; try++ {
		err := db.inPipe(oneShard, func(p *pipe) error {
			g.queue(p, now)
			return nil
		})
		if err == nil {
			return g.results(results)
		}
		if !raised(err, hiddenMark) {
			return err
		}
		hidden, herr := db.hiddenOf(g.ps)
		if herr != nil {
			return herr
		}
		for i := range g.ps {
			if h := hidden.Of(&g.ps[i]); h != nil {
				return h
			}
		}
		if try == maxTries {
			return err
		}
	}
}

// hiddenOf reads the hidden puzzles that refuse any of ps.
func (db *DB) hiddenOf(ps []record.Puzzle) (moderation.HiddenSet, error) {
	rows, err := db.reader.Query(`SELECT puzzle_id, class_key, reason FROM hidden_puzzles WHERE class_key = ANY($1)`, hiddenKeys(ps))
	if err != nil {
		return nil, fmt.Errorf("find hidden puzzles: %w", err)
	}
	defer rows.Close()
	hidden := make(moderation.HiddenSet)
	for rows.Next() {
		var id int64
		var key []byte
		var reason string
		if err := rows.Scan(&id, &key, &reason); err != nil {
			return nil, fmt.Errorf("find hidden puzzles: %w", err)
		}
		hidden[string(key)] = &moderation.HiddenError{PuzzleID: id, Reason: reason}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find hidden puzzles: %w", err)
	}
	return hidden, nil
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
