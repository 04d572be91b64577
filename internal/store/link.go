package store

// link.go holds class linking: finding the class (canonical form) of each
// puzzle written, filing new rows under their classes and counting the new
// classes.

import (
	"cmp"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// findClassSQL finds the first entry of a class by its canonical key.
const findClassSQL = "SELECT first_id FROM classes WHERE canonical_key = ?"

// findClassesSQL is findClassSQL for many keys at once: on SQLite exactly
// classGroup of them, on PostgreSQL an array of up to classGroup.
func findClassesSQL(d dialect) string {
	if d.postgres {
		return "SELECT canonical_key, first_id FROM classes WHERE canonical_key = ANY(?)"
	}
	return "SELECT canonical_key, first_id FROM classes WHERE canonical_key IN (?" + strings.Repeat(", ?", classGroup(d)-1) + ")"
}

// classGroup is how many classes one statement of classes looks up.
func classGroup(d dialect) int {
	if d.postgres {
		return 4096
	}
	return 64
}

// classes sets SameAs on each of ps whose class is archived already, so
// that it is written with the row; link files the rest (the first entries
// of new classes, and their repeats in the same transaction) after the rows
// are in. A class the writer knows (knownClasses) costs no statement; the
// others are looked up many to a statement: a statement per puzzle costs
// more in database/sql (and on PostgreSQL in round trips) than the seek
// itself.
func (t *tally) classes(tx *sql.Tx, ps []record.Puzzle) error {
	// The puzzles of ps whose class is not known, with their class keys.
	type lookup struct {
		p   *record.Puzzle
		key []byte
	}
	var unknown []lookup
	for i := range ps {
		key := ps[i].CanonicalKey()
		ps[i].SameAs = nil
		if id, ok := t.known.first(key); ok {
			ps[i].SameAs = &id
		} else {
			unknown = append(unknown, lookup{&ps[i], key})
		}
	}
	group := classGroup(t.d)
	found := make(map[string]int64, min(len(unknown), group))
	keys := make([]any, 0, group)
	for start := 0; start < len(unknown); start += group {
		part := unknown[start:min(start+group, len(unknown))]
		if !t.d.postgres && len(part) < group {
			// SQLite's statement takes exactly classGroup keys.
			for _, u := range part {
				if err := t.classOf(tx, u.p, u.key); err != nil {
					return err
				}
			}
			break
		}
		keys = keys[:0]
		for _, u := range part {
			keys = append(keys, u.key)
		}
		args := keys
		if t.d.postgres {
			array := make([][]byte, len(part))
			for i, u := range part {
				array[i] = u.key
			}
			args = []any{array}
		}
		clear(found)
		if err := t.findMany(tx, args, found); err != nil {
			return fmt.Errorf("find classes: %w", err)
		}
		for _, u := range part {
			if id, ok := found[string(u.key)]; ok {
				u.p.SameAs = &id
				t.known.saw(u.key, id)
			}
		}
	}
	return nil
}

// findMany runs findClassesSQL with args and puts the classes it finds in
// found, by canonical key.
func (t *tally) findMany(tx *sql.Tx, args []any, found map[string]int64) error {
	rows, err := t.many.query(tx, args...)
	if err != nil {
		return err
	}
	for rows.Next() {
		var key []byte
		var id int64
		if err := rows.Scan(&key, &id); err != nil {
			rows.Close()
			return err
		}
		found[string(key)] = id
	}
	return cmp.Or(rows.Err(), rows.Close())
}

// classOf is classes for one puzzle whose class is not known, key its
// canonical key.
func (t *tally) classOf(tx *sql.Tx, p *record.Puzzle, key []byte) error {
	var id int64
	switch err := t.find.queryRow(tx, key).Scan(&id); {
	case err == nil:
		p.SameAs = &id
		t.known.saw(key, id)
	case errors.Is(err, sql.ErrNoRows):
		p.SameAs = nil
	default:
		return fmt.Errorf("find class: %w", err)
	}
	return nil
}

// link files the rows of this transaction (newRows with arg) under their
// classes: a row whose canonical form has no class yet starts one (the
// lowest id first), every other row gets same_as, the first id of its
// class. Only the rows that join an existing class are written again. Then
// it counts the new classes (counts.classes, uniq_classes, and the heads of
// stat_buckets).
func link(tx *sql.Tx, stmts []stmt, arg any) (map[int64]int64, error) {
	var linked map[int64]int64
	for i, st := range stmts {
		if i != linkUpdate {
			if _, err := st.exec(tx, arg); err != nil {
				return nil, fmt.Errorf("link classes: %w", err)
			}
			continue
		}
		rows, err := st.query(tx, arg)
		if err != nil {
			return nil, fmt.Errorf("link classes: %w", err)
		}
		for rows.Next() {
			var id, first int64
			if err := rows.Scan(&id, &first); err != nil {
				rows.Close()
				return nil, fmt.Errorf("link classes: %w", err)
			}
			if linked == nil {
				linked = make(map[int64]int64)
			}
			linked[id] = first
		}
		if err := rows.Close(); err != nil {
			return nil, fmt.Errorf("link classes: %w", err)
		}
	}
	return linked, nil
}

// linkUpdate is the statement of linkSQL that files the repeats of new
// classes, returning each row it filed and its class's first entry.
const linkUpdate = 1

// linkFigures is the statement of linkSQL that gives the new ways of
// writing a played puzzle their class's players' figures (on SQLite the
// figures but player_seconds, the next statement's).
const linkFigures = 4

// linkSQL returns link's statements, in order, in dialect d; the store
// prepares them once (see stmt). On PostgreSQL another server may have
// started a class after this transaction looked for it (classOf): the
// INSERT into classes then waits for that server's commit and skips the
// class, and the UPDATE, a statement later, sees its row and files this
// transaction's rows under it. New classes are inserted in key order, so
// two servers starting the same classes take their keys in one order.
func linkSQL(d dialect) []string {
	qs := []string{
		d.insertIgnore + ` classes (canonical_key, first_id)
SELECT canonical_key, min(id) FROM puzzles WHERE ` + d.newRows + ` AND same_as IS NULL GROUP BY canonical_key ORDER BY canonical_key` + d.ignoreTail,
		`UPDATE puzzles SET same_as = c.first_id FROM classes AS c
WHERE puzzles.` + d.newRows + ` AND puzzles.same_as IS NULL AND c.canonical_key = puzzles.canonical_key AND c.first_id <> puzzles.id
RETURNING puzzles.id, puzzles.same_as`,
		countHeadsSQL(d, d.newRows),
		countHeadBucketsSQL(d, d.newRows),
		// A new way of writing a puzzle that players have played shows
		// its class's figures (migration 00014), as its first entry does
		// (figures.go; on SQLite a statement more).
		linkFiguresSQL(d),
	}
	if !d.postgres {
		qs = append(qs, linkSecondsSQL(d))
	}
	return qs
}

// countHeadsSQL counts the class heads (rows with same_as NULL) among the
// rows cond selects into counts: link adds those of a transaction's new
// rows.
func countHeadsSQL(d dialect, cond string) string {
	return `UPDATE counts SET classes = classes + h.n, uniq_classes = uniq_classes + h.uniq
FROM (SELECT count(*) AS n, count(*) FILTER (WHERE solutions = 1) AS uniq
    FROM puzzles WHERE same_as IS NULL AND canonical_key IS NOT NULL AND ` + cond + `) AS h
WHERE counts.id = ` + d.shard
}

// countHeadBucketsSQL is countHeadsSQL for the heads of stat_buckets.
func countHeadBucketsSQL(d dialect, cond string) string {
	return `INSERT INTO stat_buckets AS s (shard, kind, bucket, n, uniq, heads)
SELECT ` + d.shard + `, 'backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= p.backtracks ORDER BY lo DESC LIMIT 1) AS b, 0, 0, count(*)
FROM puzzles AS p WHERE same_as IS NULL AND solutions = 1 AND canonical_key IS NOT NULL AND ` + cond + `
GROUP BY b ORDER BY b` + onHeadBucketSQL(d)
}

// onHeadBucketSQL adds to the heads of a bucket.
func onHeadBucketSQL(d dialect) string {
	return ` ON CONFLICT (kind, bucket` + d.shardKey + `) DO UPDATE SET heads = s.heads + excluded.heads`
}

// readSameAs completes the class link of a puzzle stored in this
// transaction: link may have filed it after its INSERT returned it.
func readSameAs(t *tally, r *result) {
	if r.dup[0] || r.stored.SameAs != nil {
		return
	}
	if first, ok := t.linked[r.stored.ID]; ok {
		r.stored.SameAs = &first
	}
}

// readClasses completes SameAs on the puzzles of ps that this transaction
// inserted (those not dup, in order, with the ids t.ids), with the repeats
// link filed after they were written, so the caller can tell which were
// another way of writing an archived puzzle.
func readClasses(t *tally, ps []record.Puzzle, dup []bool) {
	j := 0
	for i := range ps {
		if dup[i] {
			continue
		}
		if ps[i].SameAs == nil {
			if first, ok := t.linked[t.ids[j]]; ok {
				ps[i].SameAs = &first
			}
		}
		j++
	}
}
