package store

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"
	"strings"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// Search by technique (migration 00017): puzzle_techniques holds a row per
// puzzle and technique of its logical path, kept by triggers as grades are
// written, and technique_counts how many puzzles use each.
//
// A listing filtered by techniques reads one of two ways. Walked: the
// order's index, as without the filter, each row tested by a seek in
// puzzle_techniques (techniqueCond); a page costs the rows walked to find
// it, few for a common technique. Driven: the puzzles of the rarest
// technique asked for, found by their ids in puzzle_techniques
// (techniqueDrive), then sorted; a page costs that technique's puzzles,
// few for a rare one. List drives when the rarest technique is used by at
// most driveMax puzzles or by fewer than one in driveShare of the archive,
// so a page costs at most about that many rows either way.
const (
	techniqueID    = "(SELECT id FROM technique_names WHERE name = ?)"
	techniqueCond  = "EXISTS (SELECT 1 FROM puzzle_techniques WHERE technique = " + techniqueID + " AND puzzle_id = puzzles.id)"
	techniqueDrive = "id IN (SELECT puzzle_id FROM puzzle_techniques WHERE technique = " + techniqueID + ")"
	driveMax       = 2000
	driveShare     = 200
)

// addTechniques adds l's technique filter, if any, to where: the first
// technique drives the listing when l.drive.
func addTechniques(where *conds, l listing) {
	for i, name := range l.techniques {
		if i == 0 && l.listKey.drive {
			where.and(techniqueDrive, name)
			continue
		}
		where.and(techniqueCond, name)
	}
}

// techniquesHash is the fingerprint of a technique filter a cursor carries,
// so that a cursor cannot be replayed against another filter; 0 for none.
func techniquesHash(t record.Techniques) uint32 {
	if t == "" {
		return 0
	}
	h := fnv.New32a()
	h.Write([]byte(t))
	return max(h.Sum32(), 1)
}

// techniqueCounts returns how many puzzles use each of names (0 for a name
// no path has used).
func techniqueCounts(ctx context.Context, tx *sql.Tx, d dialect, names []string) (map[string]int64, error) {
	counts := make(map[string]int64, len(names))
	args := make([]any, len(names))
	for i, n := range names {
		counts[n] = 0
		args[i] = n
	}
	marks := strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", ")
	rows, err := tx.QueryContext(ctx, d.sql("SELECT n.name, CAST(coalesce(sum(c.n), 0) AS BIGINT) FROM technique_names AS n JOIN technique_counts AS c ON c.technique = n.id WHERE n.name IN ("+marks+") GROUP BY n.name"), args...)
	if err != nil {
		return nil, fmt.Errorf("count techniques: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name string
		var n int64
		if err := rows.Scan(&name, &n); err != nil {
			return nil, fmt.Errorf("count techniques: %w", err)
		}
		counts[name] = n
	}
	return counts, rows.Err()
}

// planTechniques sets pg's technique filter: the rarest technique first,
// driving the listing when it is rare enough (see driveMax). It reports
// false when some technique is used by no puzzle: the page is empty.
func (pg *pager) planTechniques() (bool, error) {
	names := pg.q.Techniques.Names()
	if len(names) == 0 {
		return true, nil
	}
	counts, err := techniqueCounts(pg.ctx, pg.tx, pg.db.d, names)
	if err != nil {
		return false, err
	}
	slices.SortStableFunc(names, func(a, b string) int { return int(counts[a] - counts[b]) })
	rarest := counts[names[0]]
	if rarest == 0 {
		return false, nil
	}
	pg.counts = counts
	pg.base.techniques = names
	var total int64
	if err := pg.tx.StmtContext(pg.ctx, pg.db.countStmt).QueryRowContext(pg.ctx).Scan(&total, new(int64), new(int64), new(int64)); err != nil {
		return false, err
	}
	pg.base.listKey.drive = !pg.db.walkTechniques && (rarest <= driveMax || rarest*driveShare <= total)
	return true, nil
}

// techniqueTotal counts the puzzles of a listing with a technique filter:
// from technique_counts for one technique and no other filter, from
// puzzle_techniques alone for several, else by reading the puzzles of the
// rarest technique (pg.base's first) with every condition of the listing.
func (pg *pager) techniqueTotal() (int64, error) {
	q := pg.q
	names := pg.base.techniques
	if q.Band == "" && gradeRange(q) == nil && !q.Distinct && q.Played == "" && q.Variant == "" {
		if len(names) == 1 {
			return pg.counts[names[0]], nil
		}
		// Several techniques and no other filter: the index alone, the
		// rarest technique's rows each tested by a seek for the others.
		var where conds
		where.and("t.technique = "+techniqueID, names[0])
		for _, n := range names[1:] {
			where.and("EXISTS (SELECT 1 FROM puzzle_techniques AS o WHERE o.technique = "+techniqueID+" AND o.puzzle_id = t.puzzle_id)", n)
		}
		var total int64
		err := pg.tx.QueryRowContext(pg.ctx, pg.db.d.sql("SELECT count(*) FROM puzzle_techniques AS t WHERE "+strings.Join(where.text, " AND ")), where.args...).Scan(&total)
		if err != nil {
			return 0, fmt.Errorf("list: count techniques: %w", err)
		}
		return total, nil
	}
	where := filterConds(q)
	l := pg.base
	l.listKey.drive = true
	addTechniques(&where, l)
	var n int64
	err := pg.tx.QueryRowContext(pg.ctx, pg.db.d.sql("SELECT count(*) FROM puzzles WHERE "+strings.Join(where.text, " AND ")), where.args...).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("list: count techniques: %w", err)
	}
	return n, nil
}

// Techniques returns, for every technique a path has used, how many
// puzzles use it and how many need it as their hardest, in no particular
// order. Both come from counters: the cost does not grow with the archive.
func (db *DB) Techniques(ctx context.Context) ([]record.TechniqueCount, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	tx, err := db.reader.BeginTx(ctx, db.d.readTx)
	if err != nil {
		return nil, fmt.Errorf("techniques: %w", err)
	}
	defer tx.Rollback()
	byName := map[string]*record.TechniqueCount{}
	var out []record.TechniqueCount
	rows, err := tx.QueryContext(ctx, "SELECT n.name, CAST(coalesce(sum(c.n), 0) AS BIGINT) FROM technique_names AS n LEFT JOIN technique_counts AS c ON c.technique = n.id GROUP BY n.name ORDER BY n.name")
	if err != nil {
		return nil, fmt.Errorf("techniques: %w", err)
	}
	for rows.Next() {
		var t record.TechniqueCount
		if err := rows.Scan(&t.Name, &t.Puzzles); err != nil {
			rows.Close()
			return nil, fmt.Errorf("techniques: %w", err)
		}
		out = append(out, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("techniques: %w", err)
	}
	for i := range out {
		byName[out[i].Name] = &out[i]
	}
	grades, err := gradeCounts(ctx, tx)
	if err != nil {
		return nil, fmt.Errorf("techniques: %w", err)
	}
	for _, g := range grades {
		if t := byName[g.Technique]; t != nil {
			t.Hardest += g.N
		}
	}
	return out, nil
}

// Practice returns up to limit puzzles whose hardest technique is name,
// easiest first (grade, then id): a seek on puzzle_techniques_practice.
func (db *DB) Practice(ctx context.Context, name string, limit int) ([]record.Puzzle, error) {
	return db.techniquePuzzles(ctx, name, limit, true)
}

// UsingTechnique returns up to limit puzzles whose path uses the technique
// name, the first archived first.
func (db *DB) UsingTechnique(ctx context.Context, name string, limit int) ([]record.Puzzle, error) {
	return db.techniquePuzzles(ctx, name, limit, false)
}

// techniquePuzzles reads the puzzles of Practice (hardest) or
// UsingTechnique.
func (db *DB) techniquePuzzles(ctx context.Context, name string, limit int, hardest bool) ([]record.Puzzle, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	if limit < 1 || limit > record.MaxLimit {
		return nil, fmt.Errorf("%w: limit %d is outside 1..%d", ErrInvalidQuery, limit, record.MaxLimit)
	}
	inner := "SELECT puzzle_id FROM puzzle_techniques WHERE technique = " + techniqueID + " ORDER BY puzzle_id LIMIT " + strconv.Itoa(limit)
	order := "id"
	if hardest {
		inner = "SELECT puzzle_id FROM puzzle_techniques" + db.d.indexedBy("puzzle_techniques_practice") + " WHERE technique = " + techniqueID +
			" AND hardest = 1 ORDER BY grade, puzzle_id LIMIT " + strconv.Itoa(limit)
		order = "grade, id"
	}
	// A hidden puzzle (moderation) is left out: the list may then be
	// shorter than limit.
	rows, err := db.reader.QueryContext(ctx, db.d.sql("SELECT "+columns+" FROM puzzles WHERE id IN ("+inner+") AND "+visible+" ORDER BY "+order), name)
	if err != nil {
		return nil, fmt.Errorf("puzzles of %s: %w", name, err)
	}
	defer rows.Close()
	ps := []record.Puzzle{}
	for rows.Next() {
		p, err := scanPuzzle(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("puzzles of %s: %w", name, err)
		}
		ps = append(ps, p)
	}
	return ps, rows.Err()
}

// backfillName is the settings row of IndexTechniques: the highest id not
// indexed yet (migration 00017).
const backfillName = "technique_backfill"

// backfillPage is how many ids IndexTechniques indexes in one transaction.
const backfillPage = 5000

// TechniquesToIndex returns how many rows IndexTechniques has left to
// index (an upper bound: the ids not indexed yet), 0 when it is done.
func (db *DB) TechniquesToIndex(ctx context.Context) (int64, error) {
	upTo, err := db.backfillFrom(ctx, db.reader)
	if err != nil || upTo == 0 {
		return 0, err
	}
	var n int64
	if err := db.reader.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM puzzles WHERE id <= ? AND techniques <> '' AND grade_version IS NOT NULL"), upTo).Scan(&n); err != nil {
		return 0, fmt.Errorf("techniques to index: %w", err)
	}
	return n, nil
}

// querier is a *sql.DB or a *sql.Tx.
type querier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// backfillFrom reads the highest id IndexTechniques has left, 0 for none.
func (db *DB) backfillFrom(ctx context.Context, q querier) (int64, error) {
	var v []byte
	err := q.QueryRowContext(ctx, db.d.sql("SELECT value FROM settings WHERE name = ?"), backfillName).Scan(&v)
	if err == sql.ErrNoRows {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("techniques to index: %w", err)
	}
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("techniques to index: setting %s is %q: %w", backfillName, v, err)
	}
	return n, nil
}

// IndexTechniques indexes the techniques of the rows graded before
// migration 00017 (rows graded since are indexed as they are written),
// backfillPage ids a transaction from the highest down, calling progress
// with the rows done and the rows in all. It stops at ctx's end, and the
// next call resumes where it stopped. It returns the rows done.
func (db *DB) IndexTechniques(ctx context.Context, progress func(done, total int64)) (int64, error) {
	total, err := db.TechniquesToIndex(ctx)
	if err != nil || total == 0 {
		return 0, err
	}
	var done int64
	for {
		if err := ctx.Err(); err != nil {
			return done, err
		}
		var n int64
		var left int64
		err := db.write(ctx, func(tx *sql.Tx) error {
			upTo, err := db.backfillFrom(ctx, tx)
			if err != nil || upTo == 0 {
				left = 0
				return err
			}
			// Setting techniques to itself fires puzzle_techniques_update,
			// which (re)writes the row's techniques: safe to run twice.
			res, err := tx.Exec(db.d.sql("UPDATE puzzles SET techniques = techniques WHERE id > ? AND id <= ? AND techniques <> '' AND grade_version IS NOT NULL"), upTo-backfillPage, upTo)
			if err != nil {
				return err
			}
			if n, err = res.RowsAffected(); err != nil {
				return err
			}
			left = max(upTo-backfillPage, 0)
			if left == 0 {
				_, err = tx.Exec(db.d.sql("DELETE FROM settings WHERE name = ?"), backfillName)
				return err
			}
			_, err = tx.Exec(db.d.sql("UPDATE settings SET value = ? WHERE name = ?"), []byte(strconv.FormatInt(left, 10)), backfillName)
			return err
		})
		if err != nil {
			return done, fmt.Errorf("index techniques: %w", err)
		}
		done += n
		if progress != nil {
			progress(min(done, total), total)
		}
		if left == 0 {
			return done, nil
		}
	}
}
