package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// maxBatch caps how many submissions one group commit carries.
const maxBatch = 256

// The writer connection's page cache (PRAGMA cache_size, negative: KiB) and
// WAL checkpoint interval (PRAGMA wal_autocheckpoint, pages). A bulk import
// into a large archive inserts at random places of the givens key, the
// difficulty and the band/solve-time indexes (about 58 MB for a million
// puzzles), far more pages than the everyday cache holds; pages pushed out
// in the middle of a transaction are written to the WAL twice, and each
// checkpoint copies the pages of the last commits back into the file. So
// while batches of at least bulkRows arrive (SubmitMany, or a Batch's
// parts), the cache grows to bulkCache and checkpoints wait for
// bulkCheckpoint pages (a page rewritten by several commits is copied once);
// both go back bulkIdle after the last such batch, so a server stays small
// between imports. Every cached page costs about twice its size in memory
// (4 KiB and SQLite's header take an 8 KiB slot of modernc's allocator).
// Importing a million puzzles before migration 00006 (batches of 16,384): a
// 32 MB cache, 15,900 puzzles/s at a peak of 126 MB; 48 MB, 18,600/s at
// 163 MB. After it, with batches of 65,536 fed in parts: 32 MB, 33,200/s;
// 48 MB, 40,300/s; 64 MB, about the same rate at a peak of 158-166 MB.
// Engine 2's columns and indexes made the writer's work per row larger,
// not its cache's use: 48 MB keeps a million-puzzle import under 200 MB
// (AddParts' parts included).
const (
	writerCache      = -16000
	writerCheckpoint = 1000 // SQLite's default
	bulkCache        = -48000
	bulkCheckpoint   = 8000
	bulkRows         = 1024
	bulkIdle         = time.Second
)

// columns lists a puzzle row in the order scanPuzzle reads it.
const columns = `id, givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions, canonical, same_as, grade, grade_floor, technique, grade_version`

// upsertSQL stores a new puzzle or, for givens already archived, counts one
// more submission; either way it returns the stored row, whose submissions
// is 1 exactly when the row is new.
const upsertSQL = upsertHead + upsertValues + upsertTail + `
RETURNING ` + columns

// The parts of the upsert, and of insertMany's statements. Givens are unique
// by givens_key (sudoku.Grid.Key, migration 00006).
const (
	upsertHead   = `INSERT INTO puzzles ` + insertColumns + ` VALUES `
	insertHead   = `INSERT OR IGNORE INTO puzzles ` + insertColumns + ` VALUES `
	upsertValues = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?)`
	upsertTail   = `
ON CONFLICT (givens_key) DO UPDATE SET submissions = submissions + 1`
	insertColumns = `(givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions, canonical, canonical_key, same_as, grade, grade_floor, technique, grade_version)`
)

// upsertArgs appends the arguments of upsertValues for p, whose givens key
// is key, to args.
func upsertArgs(args []any, p *sudoku.Puzzle, key []byte, now int64) []any {
	var same any
	if p.SameAs != nil {
		same = *p.SameAs
	}
	args = append(args, p.Givens.String(), key, p.Solution.String(), p.Givens.Clues(), p.Solutions,
		p.Backtracks, p.Guesses, p.Nodes, p.SolveNS, p.EngineVersion, now,
		p.Canonical.String(), p.Canonical.Key(), same)
	return append(args, gradeArgs(p)...)
}

// gradeArgs returns the values of grade, grade_floor, technique and
// grade_version for p: NULL grade_version while p is not graded.
func gradeArgs(p *sudoku.Puzzle) []any {
	if p.GradeVersion == "" {
		return []any{0, 0, "", nil}
	}
	floor := 0
	if p.GradeFloor {
		floor = 1
	}
	return []any{p.GradeTenths(), floor, p.Technique, p.GradeVersion}
}

// An op is one request to the writer goroutine.
type op struct {
	ctx   context.Context
	state atomic.Int32 // queued, taken or abandoned
	one   *sudoku.Puzzle
	many  []sudoku.Puzzle
	add   bool                       // AddMany: repeats are not counted
	batch *Batch                     // Begin: the writer runs the batch
	fn    func(conn *sql.Conn) error // maintenance on the writer connection
	done  chan result                // buffered: the writer never blocks on it
}

const (
	queued int32 = iota
	taken
	abandoned
)

type result struct {
	stored sudoku.Puzzle
	dup    []bool
	err    error
}

// Submit archives p, a puzzle solved and measured by sudoku.Rate. If its
// givens are archived already, it counts one more submission and returns the
// stored puzzle with duplicate true. It returns once the change is durably
// committed; concurrent calls share one commit. A cancelled ctx abandons the
// submission only while it still waits in the queue: a submission that was
// committed is always reported as such.
func (db *DB) Submit(ctx context.Context, p sudoku.Puzzle) (stored sudoku.Puzzle, duplicate bool, err error) {
	if err := check(p); err != nil {
		return sudoku.Puzzle{}, false, err
	}
	res, err := db.do(ctx, &op{ctx: ctx, one: &p})
	if err != nil {
		return sudoku.Puzzle{}, false, fmt.Errorf("submit puzzle: %w", err)
	}
	return res.stored, res.dup[0], nil
}

// SubmitMany archives all of ps in one transaction, in order, or none of
// them. It sets SameAs on the new puzzles of ps: the first archived puzzle
// of their class, when they are another way of writing one. duplicate[i] is true when ps[i]'s givens were archived before it,
// including earlier in ps; each duplicate counts one more submission of the
// stored row.
func (db *DB) SubmitMany(ctx context.Context, ps []sudoku.Puzzle) (duplicate []bool, err error) {
	return db.many(ctx, ps, false)
}

// AddMany is SubmitMany for an import: a puzzle whose givens are archived
// already, or came earlier in ps, is reported as a duplicate and left as it
// is, with no submission counted. So importing the same puzzles twice
// changes nothing the second time.
func (db *DB) AddMany(ctx context.Context, ps []sudoku.Puzzle) (duplicate []bool, err error) {
	return db.many(ctx, ps, true)
}

func (db *DB) many(ctx context.Context, ps []sudoku.Puzzle, add bool) (duplicate []bool, err error) {
	for i, p := range ps {
		if err := check(p); err != nil {
			return nil, fmt.Errorf("puzzle %d of %d: %w", i+1, len(ps), err)
		}
	}
	if len(ps) == 0 {
		return []bool{}, nil
	}
	res, err := db.do(ctx, &op{ctx: ctx, many: ps, add: add})
	if err != nil {
		return nil, fmt.Errorf("submit %d puzzles: %w", len(ps), err)
	}
	return res.dup, nil
}

// SetMaxPageCount limits the database file to n pages (PRAGMA
// max_page_count on the writer connection) and returns the limit in force,
// which is never below the current size. Past the limit, writes fail with
// ErrFull. It exists to test and rehearse a full disk; n = 0 only reads the
// limit.
func (db *DB) SetMaxPageCount(ctx context.Context, n int64) (int64, error) {
	var limit int64
	_, err := db.do(ctx, &op{ctx: ctx, fn: func(conn *sql.Conn) error {
		q := "PRAGMA max_page_count"
		if n > 0 {
			q = fmt.Sprintf("PRAGMA max_page_count = %d", n)
		}
		return conn.QueryRowContext(context.Background(), q).Scan(&limit)
	}})
	if err != nil {
		return 0, fmt.Errorf("set max page count: %w", err)
	}
	return limit, nil
}

// do hands o to the writer goroutine and waits for its answer.
func (db *DB) do(ctx context.Context, o *op) (result, error) {
	o.done = make(chan result, 1)
	if err := db.enqueue(ctx, o); err != nil {
		return result{}, err
	}
	select {
	case r := <-o.done:
		return r, r.err
	case <-ctx.Done():
		if o.state.CompareAndSwap(queued, abandoned) {
			return result{}, ctx.Err()
		}
		// The writer has it: its outcome is the answer, whatever ctx says.
		r := <-o.done
		return r, r.err
	}
}

func (db *DB) enqueue(ctx context.Context, o *op) error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.closed {
		return ErrClosed
	}
	select {
	case db.ops <- o:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeLoop is the writer goroutine. It takes every submission waiting (up
// to maxBatch) and commits them in one transaction, so that concurrent
// callers share one fsync. SubmitMany and maintenance ops run alone.
func (db *DB) writeLoop() {
	defer close(db.stopped)
	var next *op // an op taken while filling a batch, run after it
	batch := make([]*op, 0, maxBatch)
	idle := time.NewTimer(bulkIdle)
	idle.Stop()
	for {
		o := next
		next = nil
		if o == nil {
			var ok bool
			select {
			case o, ok = <-db.ops:
			case <-idle.C:
				db.setBulk(false)
				continue
			}
			if !ok {
				return
			}
			if !o.take() {
				continue
			}
		}
		switch {
		case o.fn != nil:
			o.done <- result{err: o.fn(db.wconn)}
			continue
		case o.many != nil || o.batch != nil:
			if len(o.many) >= bulkRows {
				db.setBulk(true)
			}
			if o.batch != nil {
				db.runBatch(o)
			} else {
				db.commitMany(o)
			}
			if db.bulk {
				// Timers of Go 1.23 on deliver nothing stale after Reset.
				idle.Reset(bulkIdle)
			}
			continue
		}
		batch = append(batch[:0], o)
	fill:
		for len(batch) < maxBatch {
			select {
			case o, ok := <-db.ops:
				if !ok {
					break fill
				}
				if !o.take() {
					continue
				}
				if o.one == nil {
					next = o // a batch or maintenance: after this commit
					break fill
				}
				batch = append(batch, o)
			default:
				break fill
			}
		}
		db.commitBatch(batch)
		clear(batch)
	}
}

// setBulk switches the writer connection to the cache and checkpoint
// interval for bulk writes, or back; shrinking the cache frees the pages
// beyond its new size. A failure costs only speed or memory, so it is
// ignored.
func (db *DB) setBulk(bulk bool) {
	if bulk == db.bulk {
		return
	}
	cache, checkpoint := writerCache, writerCheckpoint
	if bulk {
		cache, checkpoint = bulkCache, bulkCheckpoint
	}
	ctx := context.Background()
	if _, err := db.wconn.ExecContext(ctx, "PRAGMA cache_size = "+strconv.Itoa(cache)); err != nil {
		return
	}
	if _, err := db.wconn.ExecContext(ctx, "PRAGMA wal_autocheckpoint = "+strconv.Itoa(checkpoint)); err != nil {
		return
	}
	db.bulk = bulk
	if !bulk {
		_, _ = db.wconn.ExecContext(ctx, "PRAGMA shrink_memory")
	}
}

// take claims o for the writer unless its caller gave up on it.
func (o *op) take() bool {
	if o.state.CompareAndSwap(queued, taken) {
		return true
	}
	o.done <- result{err: o.ctx.Err()}
	return false
}

// commitBatch commits the submissions of batch in one transaction. If that
// fails, it retries each in a transaction of its own, so that one bad
// submission fails alone.
func (db *DB) commitBatch(batch []*op) {
	results := make([]result, len(batch))
	now := time.Now().UTC().UnixNano()
	err := db.inTx(func(tx *sql.Tx) error {
		stmt := db.upsert // on the writer connection, in its open transaction (see linkSQL)
		t := tally{link: db.linkStmts, find: db.findClass}
		for i, o := range batch {
			if err := t.classOf(o.one); err != nil {
				return err
			}
			p, dup, err := upsertOne(stmt, o.one, now)
			if err != nil {
				return err
			}
			if !dup {
				t.add(&p)
			}
			results[i] = result{stored: p, dup: []bool{dup}}
		}
		if err := t.commit(tx); err != nil {
			return err
		}
		for i := range results {
			readSameAs(&t, &results[i])
		}
		return nil
	})
	if err == nil {
		db.batches.Add(1)
		db.batched.Add(int64(len(batch)))
		for i, o := range batch {
			o.done <- results[i]
		}
		return
	}
	if len(batch) == 1 || waitedForLock(err) {
		// Retrying one by one helps when one submission is at fault,
		// not when another process held the lock for the whole
		// busy timeout: each retry would wait that long again.
		for _, o := range batch {
			o.done <- result{err: err}
		}
		return
	}
	for _, o := range batch {
		var r result
		r.err = db.inTx(func(tx *sql.Tx) error {
			t := tally{link: db.linkStmts, find: db.findClass}
			if err := t.classOf(o.one); err != nil {
				return err
			}
			p, dup, err := upsertOne(db.upsert, o.one, now)
			if err != nil {
				return err
			}
			r.stored, r.dup = p, []bool{dup}
			if !dup {
				t.add(&p)
			}
			if err := t.commit(tx); err != nil {
				return err
			}
			readSameAs(&t, &r)
			return nil
		})
		o.done <- r
	}
}

// manyRows is how many puzzles one INSERT statement of insertMany carries.
// A statement per row costs more in the driver than SQLite spends on the row;
// 64 rows a statement made a 17-clue import's writes about 2x faster (and
// 16 or 256 were slower than 64 for a million).
const manyRows = 64

// commitMany commits a SubmitMany request in one transaction.
func (db *DB) commitMany(o *op) {
	var dup []bool
	err := db.inTx(func(tx *sql.Tx) error {
		t := tally{link: db.linkStmts, find: db.findClass}
		var err error
		if dup, err = insertMany(tx, o.many, &t, !o.add); err != nil {
			return err
		}
		if err := t.commit(tx); err != nil {
			return err
		}
		readClasses(&t, o.many, dup)
		return nil
	})
	if err != nil {
		dup = nil
	}
	o.done <- result{dup: dup, err: err}
}

// insertMany stores ps in tx, counts the new ones in t and returns which
// were duplicates. It inserts ps in order, manyRows to an INSERT OR IGNORE
// that skips the givens archived already, reads back which rows a statement
// added when it skipped any, and then, when countRepeats, counts the
// repeats as submissions, one UPDATE per repeated givens.
//
// Why not an upsert: a statement of many rows that may stop halfway (an
// upsert's UPDATE, or any ABORT, the default conflict policy) makes SQLite
// copy every page it changes into a statement journal first, in case the
// statement must be undone alone; that took a tenth of a bulk import's
// writes. An ignored row must be a repeat: its UPDATE must find the row, or
// the transaction fails.
func insertMany(tx *sql.Tx, ps []sudoku.Puzzle, t *tally, countRepeats bool) ([]bool, error) {
	now := time.Now().UTC().UnixNano()
	var last int64
	if err := tx.QueryRow("SELECT coalesce(max(id), 0) FROM puzzles").Scan(&last); err != nil {
		return nil, fmt.Errorf("read last id: %w", err)
	}
	if t.minID == 0 {
		t.minID = last + 1
	}
	if err := t.classes(tx, ps); err != nil {
		return nil, err
	}
	// The full statement is compiled once per call: a Stmt prepared on the
	// connection would be compiled again by every tx.Stmt (database/sql
	// re-prepares a Conn's statements in a Tx).
	var many *sql.Stmt
	if len(ps) >= manyRows {
		var err error
		if many, err = tx.Prepare(insertManySQL(manyRows)); err != nil {
			return nil, fmt.Errorf("prepare insert: %w", err)
		}
		defer many.Close()
	}
	args := make([]any, 0, manyRows*17)
	dup := make([]bool, len(ps))
	for start := 0; start < len(ps); start += manyRows {
		part := ps[start:min(start+manyRows, len(ps))]
		args = args[:0]
		for i := range part {
			args = upsertArgs(args, &part[i], part[i].Givens.Key(), now)
		}
		var res sql.Result
		var err error
		if len(part) == manyRows {
			res, err = many.Exec(args...)
		} else {
			res, err = tx.Exec(insertManySQL(len(part)), args...)
		}
		var n int64
		if err == nil {
			n, err = res.RowsAffected()
		}
		if err != nil {
			return nil, fmt.Errorf("puzzles %d-%d: %w", start+1, start+len(part), err)
		}
		// Usually every row is new, and took the ids after last. If some
		// were skipped, the rows added tell which.
		if n < int64(len(part)) {
			d, err := newRows(tx, last, part)
			if err != nil {
				return nil, err
			}
			copy(dup[start:], d)
		}
		last += n
	}
	repeats := map[sudoku.Grid]int64{} // submissions to add
	for i := range ps {
		if dup[i] {
			if countRepeats {
				repeats[ps[i].Givens]++
			}
		} else {
			t.add(&ps[i])
		}
	}
	for g, n := range repeats {
		res, err := tx.Exec("UPDATE puzzles SET submissions = submissions + ? WHERE givens_key = ?", n, g.Key())
		if err != nil {
			return nil, fmt.Errorf("count a repeat of %s: %w", g, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return nil, fmt.Errorf("puzzle %s was not stored (%d rows, %v)", g, n, err)
		}
	}
	return dup, nil
}

// newRows reads the rows past id last, those that an INSERT added for ps,
// and returns which of ps were duplicates (not inserted). The rows were
// inserted in the order of ps and a new row takes the next id, so the new
// rows are, in id order, the first copies of the givens that were not
// archived before: ps and the new rows are walked side by side, and every
// new row must match.
func newRows(tx *sql.Tx, last int64, ps []sudoku.Puzzle) ([]bool, error) {
	rows, err := tx.Query("SELECT givens FROM puzzles WHERE id > ? ORDER BY id", last)
	if err != nil {
		return nil, fmt.Errorf("read new rows: %w", err)
	}
	defer rows.Close()
	var s string
	next := func() (g sudoku.Grid, ok bool, err error) {
		if !rows.Next() {
			return g, false, rows.Err()
		}
		if err := rows.Scan(&s); err != nil {
			return g, false, err
		}
		g, err = gridOf(s)
		return g, err == nil, err
	}
	g, ok, err := next()
	dup := make([]bool, len(ps))
	for i := range ps {
		if err != nil {
			break
		}
		if ok && g == ps[i].Givens {
			g, ok, err = next()
		} else {
			dup[i] = true
		}
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("read new rows: %w", err)
	case ok:
		return nil, fmt.Errorf("new row %s matches none of the puzzles in order", g)
	}
	return dup, nil
}

// insertManySQL inserts n new puzzles at once.
func insertManySQL(n int) string {
	var q strings.Builder
	q.WriteString(insertHead)
	for i := range n {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString(upsertValues)
	}
	return q.String()
}

// A tally counts the rows a transaction inserts into the running totals
// and histograms of migrations 00003 and 00004, and adds them in with a
// handful of statements at the end of the transaction (migration 00006
// replaced the per-row triggers that did it).
type tally struct {
	total, uniq int64
	buckets     map[bucket][2]int64 // n, uniq
	grades      map[gradeKey]int64  // rows inserted graded
	// minID is the smallest id of the rows inserted in the transaction (0
	// for none): every row from it on is new, since ids only grow.
	minID int64
	link  []*sql.Stmt // linkSQL, prepared on the writer connection
	find  *sql.Stmt   // findClassSQL, prepared on the writer connection
	// linked holds the rows link filed after they were written (repeats
	// of a class new in this transaction): id, then the class's first id.
	linked map[int64]int64
}

// findClassSQL finds the first entry of a class by its canonical key.
const findClassSQL = "SELECT first_id FROM classes WHERE canonical_key = ?"

// classes sets SameAs on each of ps whose class is archived already (one
// seek each), so that it is written with the row; link files the rest
// (the first entries of new classes, and their repeats in the same
// transaction) after the rows are in. It looks classGroup puzzles up in
// one statement: a statement per puzzle cost a bulk import's writer more
// in database/sql than the seek itself (an eighth of its time).
func (t *tally) classes(tx *sql.Tx, ps []sudoku.Puzzle) error {
	var (
		find  *sql.Stmt
		keys  [classGroup]any
		found map[string]int64
	)
	for start := 0; start < len(ps); start += classGroup {
		group := ps[start:min(start+classGroup, len(ps))]
		if len(group) < classGroup {
			for i := range group {
				if err := t.classOf(&group[i]); err != nil {
					return err
				}
			}
			break
		}
		if find == nil {
			var err error
			if find, err = tx.Prepare(findClassesSQL); err != nil {
				return fmt.Errorf("find classes: %w", err)
			}
			defer find.Close()
			found = make(map[string]int64, classGroup)
		}
		for i := range group {
			keys[i] = group[i].Canonical.Key()
		}
		clear(found)
		rows, err := find.Query(keys[:]...)
		if err != nil {
			return fmt.Errorf("find classes: %w", err)
		}
		for rows.Next() {
			var key []byte
			var id int64
			if err := rows.Scan(&key, &id); err != nil {
				rows.Close()
				return fmt.Errorf("find classes: %w", err)
			}
			found[string(key)] = id
		}
		err = rows.Err()
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("find classes: %w", err)
		}
		for i := range group {
			group[i].SameAs = nil
			if id, ok := found[string(keys[i].([]byte))]; ok {
				group[i].SameAs = &id
			}
		}
	}
	return nil
}

// classGroup is how many classes findClassesSQL looks up.
const classGroup = 64

// findClassesSQL is findClassSQL for classGroup keys at once.
var findClassesSQL = "SELECT canonical_key, first_id FROM classes WHERE canonical_key IN (?" +
	strings.Repeat(", ?", classGroup-1) + ")"

// classOf is classes for one puzzle. The statement runs on the writer
// connection, in its open transaction (see linkSQL).
func (t *tally) classOf(p *sudoku.Puzzle) error {
	var id int64
	switch err := t.find.QueryRow(p.Canonical.Key()).Scan(&id); {
	case err == nil:
		p.SameAs = &id
	case errors.Is(err, sql.ErrNoRows):
		p.SameAs = nil
	default:
		return fmt.Errorf("find class: %w", err)
	}
	return nil
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
func (t *tally) add(p *sudoku.Puzzle) {
	if t.buckets == nil {
		t.buckets = make(map[bucket][2]int64)
	}
	var u int64
	if p.Solutions == 1 {
		u = 1
	}
	t.total++
	t.uniq += u
	if p.GradeVersion != "" {
		if t.grades == nil {
			t.grades = make(map[gradeKey]int64)
		}
		t.grades[gradeKey{p.GradeTenths(), p.Technique}]++
	}
	if p.ID > 0 && (t.minID == 0 || p.ID < t.minID) {
		t.minID = p.ID
	}
	for _, b := range []bucket{
		{"backtracks", sudoku.BacktracksBucket(p.Backtracks)},
		{"solve_ns", sudoku.SolveTimeBucket(p.SolveNS)},
		{"clues", p.Givens.Clues()},
	} {
		c := t.buckets[b]
		t.buckets[b] = [2]int64{c[0] + 1, c[1] + u}
	}
}

// commit adds the tally to the counters, in tx.
func (t *tally) commit(tx *sql.Tx) error {
	if t.total == 0 {
		return nil
	}
	var err error
	if t.linked, err = link(tx, t.link, t.minID); err != nil {
		return err
	}
	for k, n := range t.grades {
		if _, err := tx.Exec(`INSERT INTO grade_counts (grade, technique, n) VALUES (?, ?, ?)
ON CONFLICT (grade, technique) DO UPDATE SET n = n + excluded.n`, k.grade, k.technique, n); err != nil {
			return fmt.Errorf("count grades: %w", err)
		}
	}
	if _, err := tx.Exec("UPDATE counts SET total = total + ?, uniq = uniq + ?, submissions = submissions + ? WHERE id = 1",
		t.total, t.uniq, t.total); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	for b, c := range t.buckets {
		if _, err := tx.Exec(`INSERT INTO stat_buckets (kind, bucket, n, uniq) VALUES (?, ?, ?, ?)
ON CONFLICT (kind, bucket) DO UPDATE SET n = n + excluded.n, uniq = uniq + excluded.uniq`, b.kind, b.k, c[0], c[1]); err != nil {
			return fmt.Errorf("count: %w", err)
		}
	}
	return nil
}

// inTx runs fn in an immediate transaction on the writer connection and
// commits it. The transaction deliberately ignores the callers' contexts:
// once the writer has taken a request, its outcome is decided by SQLite
// alone, so an answer never contradicts what was committed.
func (db *DB) inTx(fn func(*sql.Tx) error) error {
	ctx := context.Background()
	tx, err := db.wconn.BeginTx(ctx, nil)
	if err != nil {
		return describe(fmt.Errorf("begin: %w", err))
	}
	if err = fn(tx); err == nil {
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}
	if err != nil {
		_ = tx.Rollback()
		// A failed COMMIT can leave SQLite's transaction open on the
		// connection while database/sql considers it finished; make sure
		// the next BEGIN starts clean. "No transaction is active" is fine.
		_, _ = db.wconn.ExecContext(ctx, "ROLLBACK")
		return describe(err)
	}
	return nil
}

// waitedForLock reports whether err is SQLite giving up on a lock.
func waitedForLock(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
}

func upsertOne(stmt *sql.Stmt, p *sudoku.Puzzle, now int64) (sudoku.Puzzle, bool, error) {
	row := stmt.QueryRow(upsertArgs(make([]any, 0, 17), p, p.Givens.Key(), now)...)
	stored, err := scanPuzzle(row.Scan)
	if err != nil {
		return sudoku.Puzzle{}, false, fmt.Errorf("store %s: %w", p.Givens, err)
	}
	return stored, stored.Submissions > 1, nil
}

// check refuses what must never be archived. The store trusts the engine's
// measures but not blindly: the solution must fill the grid and agree with
// every given.
func check(p sudoku.Puzzle) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidPuzzle, fmt.Sprintf(format, args...))
	}
	if p.Givens.Clues() == 0 {
		return bad("no givens")
	}
	if p.Canonical.Clues() != p.Givens.Clues() {
		return bad("canonical form %s is not a form of the givens", p.Canonical)
	}
	for i, d := range p.Solution {
		if d < 1 || d > 9 {
			return bad("solution incomplete at cell %d", i)
		}
		if g := p.Givens[i]; g != 0 && g != d {
			return bad("solution has %d at cell %d where the puzzle gives %d", d, i, g)
		}
	}
	for i, d := range p.Givens {
		if d > 9 {
			return bad("cell %d holds %d", i, d)
		}
	}
	if p.Solutions != 1 && p.Solutions != 2 {
		return bad("solutions is %d, want 1 or 2", p.Solutions)
	}
	if p.Backtracks < 0 || p.Guesses < 0 || p.Nodes < 0 || p.SolveNS < 0 {
		return bad("negative measure")
	}
	return nil
}

// link files the rows from id minID on (the rows of this transaction) under
// their classes: a row whose canonical form has no class yet starts one (the
// lowest id first), every other row gets same_as, the first id of its
// class. Only the rows that join an existing class are written again. Then
// it counts the new classes (counts.classes, uniq_classes, and the heads of
// stat_buckets).
func link(tx *sql.Tx, stmts []*sql.Stmt, minID int64) (map[int64]int64, error) {
	var linked map[int64]int64
	for i, st := range stmts {
		if i != linkUpdate {
			if _, err := st.Exec(minID); err != nil {
				return nil, fmt.Errorf("link classes: %w", err)
			}
			continue
		}
		rows, err := st.Query(minID)
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

// linkSQL are link's statements, in order; the store prepares them once,
// on the writer connection. They run on that connection directly, inside
// the transaction it has open (SQLite's transactions belong to the
// connection): through tx.Stmt, database/sql would prepare a statement of a
// *sql.Conn again for every transaction, which cost a commit more than its
// rows.
var linkSQL = []string{
	`INSERT OR IGNORE INTO classes (canonical_key, first_id)
SELECT canonical_key, min(id) FROM puzzles WHERE id >= ?1 AND same_as IS NULL GROUP BY canonical_key`,
	`UPDATE puzzles SET same_as = c.first_id FROM classes AS c
WHERE puzzles.id >= ?1 AND puzzles.same_as IS NULL AND c.canonical_key = puzzles.canonical_key AND c.first_id <> puzzles.id
RETURNING puzzles.id, puzzles.same_as`,
	countHeadsSQL + ` AND id >= ?1) WHERE id = 1`,
	countHeadBucketsSQL + ` AND id >= ?1 GROUP BY b` + onHeadBucketSQL,
}

// The counts of class heads (rows with same_as NULL), for the rows a
// condition appended to these statements selects: link adds those of a
// transaction's new rows, the upgrade those it measured.
const (
	countHeadsSQL = `UPDATE counts SET (classes, uniq_classes) = (
    SELECT classes + count(*), uniq_classes + count(*) FILTER (WHERE solutions = 1)
    FROM puzzles WHERE same_as IS NULL AND canonical_key IS NOT NULL`
	countHeadBucketsSQL = `INSERT INTO stat_buckets (kind, bucket, n, uniq, heads)
SELECT 'backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= p.backtracks ORDER BY lo DESC LIMIT 1) AS b, 0, 0, count(*)
FROM puzzles AS p WHERE same_as IS NULL AND solutions = 1 AND canonical_key IS NOT NULL`
	onHeadBucketSQL = ` ON CONFLICT (kind, bucket) DO UPDATE SET heads = heads + excluded.heads`
)

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
// inserted (those not dup, in order, ids from minID on: INSERT gives each
// new row the next id), with the repeats link filed after they were
// written, so the caller can tell which were another way of writing an
// archived puzzle.
func readClasses(t *tally, ps []sudoku.Puzzle, dup []bool) {
	id := t.minID
	for i := range ps {
		if dup[i] {
			continue
		}
		if ps[i].SameAs == nil {
			if first, ok := t.linked[id]; ok {
				ps[i].SameAs = &first
			}
		}
		id++
	}
}
