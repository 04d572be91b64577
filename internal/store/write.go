package store

import (
	"bytes"
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

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
const columns = `id, givens, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions, canonical, same_as, grade, grade_floor, technique, grade_version, grade_ep, grade_ed, techniques`

// upsertSQL stores a new puzzle or, for givens already archived, counts one
// more submission; either way it returns the stored row, whose submissions
// is 1 exactly when the row is new.
const upsertSQL = upsertHead + upsertValues + upsertTail + `
RETURNING ` + columns

// The parts of the upsert, and of insertMany's statements. Givens are unique
// by givens_key (sudoku.Grid.Key, migration 00006).
const (
	upsertHead   = `INSERT INTO puzzles ` + insertColumns + ` VALUES `
	insertHead   = ` puzzles ` + insertColumns + ` VALUES ` // after the dialect's insertIgnore
	upsertValues = `(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	upsertTail   = `
ON CONFLICT (givens_key) DO UPDATE SET submissions = puzzles.submissions + 1`
	insertColumns = `(givens, givens_key, solution, clues, solutions, backtracks, guesses, nodes, solve_ns, engine_version, submitted_at, submissions, canonical, canonical_key, same_as, grade, grade_floor, technique, grade_version, grade_ep, grade_ed, techniques)`
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

// gradeArgs returns the values of grade, grade_floor, technique,
// grade_version, grade_ep, grade_ed and techniques for p: NULL
// grade_version while p is not graded.
func gradeArgs(p *sudoku.Puzzle) []any {
	if p.GradeVersion == "" {
		return []any{0, 0, "", nil, 0, 0, ""}
	}
	floor := 0
	if p.GradeFloor {
		floor = 1
	}
	return []any{p.GradeTenths(), floor, p.Technique, p.GradeVersion,
		sudoku.Tenths(p.GradeEP), sudoku.Tenths(p.GradeED), string(p.Techniques)}
}

// An op is one request to the writer goroutine: a write, and its answer.
type op struct {
	ctx   context.Context
	state atomic.Int32 // queued, taken or abandoned
	w     write
	done  chan result // buffered: the writer never blocks on it
}

// A write is what an op asks of the writer, one type for each kind:
// submitOne, committed with the others waiting (group commit, see
// commitBatch); submitMany, a transaction of its own; openBatch, a
// transaction the caller feeds (runBatch); maintenance, anything else.
type write interface {
	// run performs the write on the writer goroutine and answers o.
	run(db *DB, o *op)
}

// submitOne is a Submit.
type submitOne struct{ p *sudoku.Puzzle }

// run commits the submission on its own; the writer loop gathers
// submissions into one commit instead when several wait.
func (w submitOne) run(db *DB, o *op) { db.commitBatch([]*op{o}) }

// submitMany is a SubmitMany or, when add, an AddMany (repeats are not
// counted).
type submitMany struct {
	ps  []sudoku.Puzzle
	add bool
}

func (w submitMany) run(db *DB, o *op) {
	if len(w.ps) >= bulkRows {
		db.setBulk(true)
	}
	db.commitMany(o, w)
}

// openBatch is a Begin: the writer runs the batch.
type openBatch struct{ b *Batch }

func (w openBatch) run(db *DB, o *op) { db.runBatch(o, w.b) }

// maintenance runs fn on the writer connection (nil on PostgreSQL).
type maintenance struct{ fn func(conn *sql.Conn) error }

func (w maintenance) run(db *DB, o *op) { o.done <- result{err: w.fn(db.wconn)} }

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
	res, err := db.do(ctx, &op{ctx: ctx, w: submitOne{&p}})
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
	res, err := db.do(ctx, &op{ctx: ctx, w: submitMany{ps, add}})
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
	if db.d.postgres {
		return 0, errors.New("set max page count: an SQLite setting; PostgreSQL has none")
	}
	var limit int64
	_, err := db.do(ctx, &op{ctx: ctx, w: maintenance{func(conn *sql.Conn) error {
		q := "PRAGMA max_page_count"
		if n > 0 {
			q = fmt.Sprintf("PRAGMA max_page_count = %d", n)
		}
		return conn.QueryRowContext(context.Background(), q).Scan(&limit)
	}}})
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
		if _, ok := o.w.(submitOne); !ok {
			o.w.run(db, o)
			if _, ok := o.w.(maintenance); !ok && db.bulk {
				// Bulk writes keep the bulk cache; maintenance does
				// not. Timers of Go 1.23 on deliver nothing stale
				// after Reset.
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
				if _, ok := o.w.(submitOne); !ok {
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
	if bulk == db.bulk || db.d.postgres {
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
	err := db.inTx(func(tx *sql.Tx) error { return db.submit(tx, batch, results, now) })
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
	for i, o := range batch {
		err := db.inTx(func(tx *sql.Tx) error { return db.submit(tx, batch[i:i+1], results[i:i+1], now) })
		if err != nil {
			results[i] = result{err: err}
		}
		o.done <- results[i]
	}
}

// submit is the transaction of a group commit: it stores the submissions of
// ops, in order, and sets their results.
func (db *DB) submit(tx *sql.Tx, ops []*op, results []result, now int64) error {
	t := db.newTally()
	// The classes of all the submissions first, in as few statements as
	// classes takes (on PostgreSQL one round trip instead of one each).
	ps := make([]sudoku.Puzzle, len(ops))
	for i, o := range ops {
		ps[i] = *o.w.(submitOne).p
	}
	if err := t.classes(tx, ps); err != nil {
		return err
	}
	for i := range ps {
		p, dup, err := upsertOne(tx, db.upsert, &ps[i], now)
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
}

// commitMany commits a SubmitMany or AddMany request in one transaction.
func (db *DB) commitMany(o *op, w submitMany) {
	var dup []bool
	err := db.inTx(func(tx *sql.Tx) error {
		t := db.newTally()
		var err error
		if dup, err = db.insertMany(tx, w.ps, &t, !w.add); err != nil {
			return err
		}
		if err := t.commit(tx); err != nil {
			return err
		}
		readClasses(&t, w.ps, dup)
		return nil
	})
	if err != nil {
		dup = nil
	}
	o.done <- result{dup: dup, err: err}
}

// insertMany stores ps in tx, counts the new ones in t and returns which
// were duplicates. It inserts ps in order, manyRows to an INSERT that skips
// the givens archived already (the dialect's insertIgnore), tells which rows
// a statement added, and then, when countRepeats, counts the repeats as
// submissions, one UPDATE per repeated givens.
//
// Why not an upsert: a statement of many rows that may stop halfway (an
// upsert's UPDATE, or any ABORT, the default conflict policy) makes SQLite
// copy every page it changes into a statement journal first, in case the
// statement must be undone alone; that took a tenth of a bulk import's
// writes. (PostgreSQL cannot upsert one row twice in a statement either.) An
// ignored row must be a repeat: its UPDATE must find the row, or the
// transaction fails.
//
// Which rows are new: on SQLite, whose writer is alone, every row is usually
// new and takes the next id, and newRows reads back the rows past the last
// id when a statement skipped some. On PostgreSQL the statement returns the
// ids and keys of the rows it added (returned), since other servers'
// transactions take ids in between.
func (db *DB) insertMany(tx *sql.Tx, ps []sudoku.Puzzle, t *tally, countRepeats bool) ([]bool, error) {
	now := time.Now().UTC().UnixNano()
	var last int64
	if !db.d.postgres {
		if err := tx.QueryRow("SELECT coalesce(max(id), 0) FROM puzzles").Scan(&last); err != nil {
			return nil, fmt.Errorf("read last id: %w", err)
		}
	}
	if err := t.classes(tx, ps); err != nil {
		return nil, err
	}
	manyRows := db.d.manyRows
	// The full statement is compiled once per call: a Stmt prepared on the
	// connection would be compiled again by every tx.Stmt (database/sql
	// re-prepares a Conn's statements in a Tx).
	var many *sql.Stmt
	if len(ps) >= manyRows && !db.d.postgres {
		var err error
		if many, err = tx.Prepare(db.insertManySQL(manyRows)); err != nil {
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
		var err error
		if db.d.postgres {
			var rows *sql.Rows
			rows, err = tx.Query(unnestSQL, unnestArgs(args, len(part))...)
			if err == nil {
				err = returned(rows, part, dup[start:], &t.ids)
			}
			if err != nil {
				return nil, fmt.Errorf("puzzles %d-%d: %w", start+1, start+len(part), err)
			}
			continue
		}
		var res sql.Result
		if len(part) == manyRows {
			res, err = many.Exec(args...)
		} else {
			res, err = tx.Exec(db.insertManySQL(len(part)), args...)
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
		for id := last + 1; id <= last+n; id++ {
			t.ids = append(t.ids, id)
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
	// In key order, so that two servers counting repeats of the same
	// puzzles lock their rows in the same order.
	type repeat struct {
		key []byte
		g   sudoku.Grid
	}
	keys := make([]repeat, 0, len(repeats))
	for g := range repeats {
		keys = append(keys, repeat{g.Key(), g})
	}
	slices.SortFunc(keys, func(a, b repeat) int { return bytes.Compare(a.key, b.key) })
	for _, r := range keys {
		g := r.g
		res, err := tx.Exec(db.d.sql("UPDATE puzzles SET submissions = submissions + ? WHERE givens_key = ?"), repeats[g], r.key)
		if err != nil {
			return nil, fmt.Errorf("count a repeat of %s: %w", g, err)
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return nil, fmt.Errorf("puzzle %s was not stored (%d rows, %v)", g, n, err)
		}
	}
	return dup, nil
}

// returned reads the rows an INSERT of ps added (RETURNING id, givens_key),
// marks the others in dup and appends the new ids to ids, in the order of
// ps. Of several copies of the same givens in ps, the first is the one
// inserted.
func returned(rows *sql.Rows, ps []sudoku.Puzzle, dup []bool, ids *[]int64) error {
	defer rows.Close()
	added := make(map[string]int64, len(ps))
	for rows.Next() {
		var id int64
		var key []byte
		if err := rows.Scan(&id, &key); err != nil {
			return err
		}
		added[string(key)] = id
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i := range ps {
		k := string(ps[i].Givens.Key())
		id, ok := added[k]
		if !ok {
			dup[i] = true
			continue
		}
		delete(added, k) // later copies are repeats
		*ids = append(*ids, id)
	}
	if len(added) > 0 {
		return fmt.Errorf("%d new rows match none of the puzzles", len(added))
	}
	return nil
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

// unnestSQL is insertManySQL on PostgreSQL: the rows come as one array per
// column (unnestArgs), which the server takes apart far faster than it
// parses the placeholders of a many-row VALUES: writing the rated 17-clue
// file (BenchmarkWrite17) took 3.3 s with VALUES of 256 rows (3.8 s with
// 64, 5.7 s with 1,024), 2.2 s with arrays of 2,048.
var unnestSQL = `INSERT INTO puzzles ` + insertColumns + `
SELECT c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, 1, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21
FROM unnest($1::text[], $2::bytea[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::bigint[],
    $10::text[], $11::bigint[], $12::text[], $13::bytea[], $14::bigint[], $15::bigint[], $16::bigint[], $17::text[], $18::text[],
    $19::bigint[], $20::bigint[], $21::text[])
    WITH ORDINALITY AS u (c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, n)
ORDER BY n
ON CONFLICT DO NOTHING RETURNING id, givens_key`

// unnestKinds are the types of the columns of upsertValues (but its
// literal submissions): t text, b bytes, i integer.
const unnestKinds = "tbtiiiiiititbiiittiit"

// unnestArgs turns args, the upsertArgs of n rows, into one array per
// column for unnestSQL.
func unnestArgs(args []any, n int) []any {
	cols := make([]any, len(unnestKinds))
	for c, k := range unnestKinds {
		switch k {
		case 't':
			col := make([]pgtype.Text, n)
			for r := range n {
				if v, ok := args[r*len(unnestKinds)+c].(string); ok {
					col[r] = pgtype.Text{String: v, Valid: true}
				}
			}
			cols[c] = col
		case 'b':
			col := make([][]byte, n)
			for r := range n {
				col[r], _ = args[r*len(unnestKinds)+c].([]byte)
			}
			cols[c] = col
		default:
			col := make([]pgtype.Int8, n)
			for r := range n {
				switch v := args[r*len(unnestKinds)+c].(type) {
				case int:
					col[r] = pgtype.Int8{Int64: int64(v), Valid: true}
				case int64:
					col[r] = pgtype.Int8{Int64: v, Valid: true}
				}
			}
			cols[c] = col
		}
	}
	return cols
}

// insertManySQL inserts n new puzzles at once, skipping those archived
// already (SQLite; see unnestSQL for PostgreSQL).
func (db *DB) insertManySQL(n int) string {
	var q strings.Builder
	q.WriteString(db.d.insertIgnore + insertHead)
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
	link []stmt // linkSQL
	find stmt   // findClassSQL
	many stmt   // findClassesSQL
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
func (t *tally) classes(tx *sql.Tx, ps []sudoku.Puzzle) error {
	// The puzzles of ps whose class is not known, with their class keys.
	type lookup struct {
		p   *sudoku.Puzzle
		key []byte
	}
	var unknown []lookup
	for i := range ps {
		key := ps[i].Canonical.Key()
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
func (t *tally) classOf(tx *sql.Tx, p *sudoku.Puzzle, key []byte) error {
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
	if p.SameAs == nil {
		t.open++
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
		{"solve_ns", sudoku.SolveTimeBucket(p.SolveNS)},
		{"clues", p.Givens.Clues()},
	} {
		c := t.buckets[b]
		t.buckets[b] = [2]int64{c[0] + 1, c[1] + u}
	}
}

// commit adds the tally to the counters, in tx. The counters' rows are
// written in one order (grade_counts, counts, stat_buckets, each in key
// order), the same in every transaction.
func (t *tally) commit(tx *sql.Tx) error {
	if t.total == 0 {
		return nil
	}
	if t.open > 0 { // else every new row is filed under its class already
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
		if _, err := tx.Exec(t.d.sql(`INSERT INTO grade_counts AS g (grade, technique, n) VALUES `+rowsOf(3, len(grades))+`
ON CONFLICT (grade, technique) DO UPDATE SET n = g.n + excluded.n`), args...); err != nil {
			return fmt.Errorf("count grades: %w", err)
		}
	}
	if _, err := tx.Exec(t.d.sql("UPDATE counts SET total = total + ?, uniq = uniq + ?, submissions = submissions + ? WHERE id = 1"),
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
	if _, err := tx.Exec(t.d.sql(`INSERT INTO stat_buckets AS s (kind, bucket, n, uniq) VALUES `+rowsOf(4, len(buckets))+`
ON CONFLICT (kind, bucket) DO UPDATE SET n = s.n + excluded.n, uniq = s.uniq + excluded.uniq`), args...); err != nil {
		return fmt.Errorf("count: %w", err)
	}
	return nil
}

// rowsOf writes the placeholders of n rows of cols values: (?, ?), (?, ?).
func rowsOf(cols, n int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}

// maxTries is how many times inTx runs a transaction that PostgreSQL
// aborted as a serialization failure or a deadlock.
const maxTries = 5

// inTx runs fn in a write transaction of the writer and commits it,
// running it again (up to maxTries times in all) when PostgreSQL aborts it
// as a serialization failure or deadlock: fn must be safe to run again.
func (db *DB) inTx(fn func(*sql.Tx) error) error {
	var err error
	for try := 1; ; try++ {
		err = db.tryTx(fn)
		if !retryable(err) || try == maxTries {
			return describe(err)
		}
		time.Sleep(time.Duration(try) * 10 * time.Millisecond)
	}
}

// tryTx runs fn in a write transaction once and returns its error as the
// database gave it (inTx describes it). On SQLite the transaction is
// immediate: it holds the file's write lock from BEGIN. On PostgreSQL it
// begins by locking the counters' row, which every write transaction
// updates before it commits anyway: taking it first orders every write
// transaction of every server sharing the database the same way, so two
// never wait for each other's rows (puzzles, classes, counters) in opposite
// orders. The transaction deliberately ignores the callers' contexts: once
// the writer has taken a request, its outcome is decided by the database
// alone, so an answer never contradicts what was committed.
func (db *DB) tryTx(fn func(*sql.Tx) error) error {
	ctx := context.Background()
	var tx *sql.Tx
	var err error
	if db.wconn != nil {
		tx, err = db.wconn.BeginTx(ctx, nil)
	} else {
		tx, err = db.writer.BeginTx(ctx, nil)
	}
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if db.d.postgres {
		if _, err = tx.Exec("SELECT 1 FROM counts WHERE id = 1 FOR UPDATE"); err != nil {
			err = fmt.Errorf("lock the counters: %w", err)
		}
	}
	if err == nil {
		err = fn(tx)
	}
	if err == nil {
		if err = tx.Commit(); err != nil {
			err = fmt.Errorf("commit: %w", err)
		}
	}
	db.known.end(err == nil)
	if err != nil {
		_ = tx.Rollback()
		if db.wconn != nil {
			// A failed COMMIT can leave SQLite's transaction open on the
			// connection while database/sql considers it finished; make
			// sure the next BEGIN starts clean. "No transaction is
			// active" is fine.
			_, _ = db.wconn.ExecContext(ctx, "ROLLBACK")
		}
		return err
	}
	return nil
}

func upsertOne(tx *sql.Tx, st stmt, p *sudoku.Puzzle, now int64) (sudoku.Puzzle, bool, error) {
	row := st.queryRow(tx, upsertArgs(make([]any, 0, 17), p, p.Givens.Key(), now)...)
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

// linkSQL returns link's statements, in order, in dialect d; the store
// prepares them once (see stmt). On PostgreSQL another server may have
// started a class after this transaction looked for it (classOf): the
// INSERT into classes then waits for that server's commit and skips the
// class, and the UPDATE, a statement later, sees its row and files this
// transaction's rows under it. New classes are inserted in key order, so
// two servers starting the same classes take their keys in one order.
func linkSQL(d dialect) []string {
	return []string{
		d.insertIgnore + ` classes (canonical_key, first_id)
SELECT canonical_key, min(id) FROM puzzles WHERE ` + d.newRows + ` AND same_as IS NULL GROUP BY canonical_key ORDER BY canonical_key` + d.ignoreTail,
		`UPDATE puzzles SET same_as = c.first_id FROM classes AS c
WHERE puzzles.` + d.newRows + ` AND puzzles.same_as IS NULL AND c.canonical_key = puzzles.canonical_key AND c.first_id <> puzzles.id
RETURNING puzzles.id, puzzles.same_as`,
		countHeadsSQL(d.newRows),
		countHeadBucketsSQL(d.newRows),
	}
}

// countHeadsSQL counts the class heads (rows with same_as NULL) among the
// rows cond selects into counts: link adds those of a transaction's new
// rows.
func countHeadsSQL(cond string) string {
	return `UPDATE counts SET classes = classes + h.n, uniq_classes = uniq_classes + h.uniq
FROM (SELECT count(*) AS n, count(*) FILTER (WHERE solutions = 1) AS uniq
    FROM puzzles WHERE same_as IS NULL AND canonical_key IS NOT NULL AND ` + cond + `) AS h
WHERE counts.id = 1`
}

// countHeadBucketsSQL is countHeadsSQL for the heads of stat_buckets.
func countHeadBucketsSQL(cond string) string {
	return `INSERT INTO stat_buckets AS s (kind, bucket, n, uniq, heads)
SELECT 'backtracks', (SELECT bucket FROM stat_edges WHERE kind = 'backtracks' AND lo <= p.backtracks ORDER BY lo DESC LIMIT 1) AS b, 0, 0, count(*)
FROM puzzles AS p WHERE same_as IS NULL AND solutions = 1 AND canonical_key IS NOT NULL AND ` + cond + `
GROUP BY b ORDER BY b` + onHeadBucketSQL
}

// onHeadBucketSQL adds to the heads of a bucket.
const onHeadBucketSQL = ` ON CONFLICT (kind, bucket) DO UPDATE SET heads = s.heads + excluded.heads`

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
func readClasses(t *tally, ps []sudoku.Puzzle, dup []bool) {
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
