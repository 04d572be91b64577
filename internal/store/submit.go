package store

// submit.go holds the submissions: Submit (one puzzle, group-committed),
// SubmitMany and AddMany (a transaction each), and the checks every
// puzzle passes before it is written.

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/variant"
)

// upsertSQL stores a new puzzle or, for givens already archived, counts one
// more submission; either way it returns the stored row, whose submissions
// is 1 exactly when the row is new. Givens are unique by givens_key
// (sudoku.Grid.Key, migration 00006; for a variant followed by a hash of
// its rules: record.Puzzle.GivensKey).
var upsertSQL = `INSERT INTO puzzles (` + names(insertColumns, "") + `) VALUES ` + placeholders(len(insertColumns)) + `
ON CONFLICT (givens_key) DO UPDATE SET submissions = puzzles.submissions + 1
RETURNING ` + columns

// Submit archives p, a puzzle solved and measured by sudoku.Rate. If its
// givens are archived already, it counts one more submission and returns the
// stored puzzle with duplicate true. It returns once the change is durably
// committed; concurrent calls share one commit. A cancelled ctx abandons the
// submission only while it still waits in the queue: a submission that was
// committed is always reported as such.
func (db *DB) Submit(ctx context.Context, p record.Puzzle) (stored record.Puzzle, duplicate bool, err error) {
	p.SetVariantUngraded()
	if err := check(p); err != nil {
		return record.Puzzle{}, false, err
	}
	res, err := db.do(ctx, &op{ctx: ctx, w: submitOne{&p}})
	if err != nil {
		return record.Puzzle{}, false, fmt.Errorf("submit puzzle: %w", err)
	}
	if !res.dup[0] && res.stored.SameAs != nil {
		// link wrote the class's players' figures onto the new row after
		// the insert returned it: read them back. The row is committed,
		// so a failed read leaves the figures out rather than fail.
		if p, err := db.Puzzle(ctx, res.stored.ID); err == nil {
			res.stored.SetPlayerFigures(p.Plays, p.Solves, record.OrZero(p.MedianSeconds), record.OrZero(p.PlayerSeconds))
		}
	}
	return res.stored, res.dup[0], nil
}

// SubmitMany archives all of ps in one transaction, in order, or none of
// them. It sets SameAs on the new puzzles of ps: the first archived puzzle
// of their class, when they are another way of writing one. duplicate[i] is true when ps[i]'s givens were archived before it,
// including earlier in ps; each duplicate counts one more submission of the
// stored row.
func (db *DB) SubmitMany(ctx context.Context, ps []record.Puzzle) (duplicate []bool, err error) {
	return db.many(ctx, ps, false)
}

// AddMany is SubmitMany for an import: a puzzle whose givens are archived
// already, or came earlier in ps, is reported as a duplicate and left as it
// is, with no submission counted. So importing the same puzzles twice
// changes nothing the second time.
func (db *DB) AddMany(ctx context.Context, ps []record.Puzzle) (duplicate []bool, err error) {
	return db.many(ctx, ps, true)
}

func (db *DB) many(ctx context.Context, ps []record.Puzzle, add bool) (duplicate []bool, err error) {
	for i := range ps {
		ps[i].SetVariantUngraded() // as the row will hold it
		if err := check(ps[i]); err != nil {
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

// commitBatch commits the submissions of batch in one transaction. If that
// fails, it retries each in a transaction of its own, so that one bad
// submission fails alone.
func (db *DB) commitBatch(batch []*op) {
	results := make([]result, len(batch))
	now := time.Now().UTC().UnixNano()
	err := db.commitGroup(batch, results, now)
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
		err := db.commitGroup(batch[i:i+1], results[i:i+1], now)
		if err != nil {
			results[i] = result{err: err}
		}
		o.done <- results[i]
	}
}

// commitGroup commits the submissions of ops in one transaction and sets
// their results: on PostgreSQL in one round trip (commitGroupPG).
func (db *DB) commitGroup(ops []*op, results []result, now int64) error {
	if db.d.postgres {
		return db.commitGroupPG(ops, results, now)
	}
	return db.inScopedTx(oneShard, func(tx *sql.Tx) error { return db.submit(tx, ops, results, now) })
}

// submit is the transaction of a group commit on SQLite: it stores the
// submissions of ops, in order, and sets their results.
func (db *DB) submit(tx *sql.Tx, ops []*op, results []result, now int64) error {
	t := db.newTally()
	ps := make([]record.Puzzle, len(ops))
	for i, o := range ops {
		ps[i] = *o.w.grouped()
	}
	if err := db.lookupClasses(tx, &t, ps); err != nil {
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

// lookupClasses refuses the hidden puzzles among ps and sets SameAs on
// those whose class is archived, on SQLite (PostgreSQL: the group's
// upsert and closing statement, groupclose.go).
func (db *DB) lookupClasses(tx *sql.Tx, t *tally, ps []record.Puzzle) error {
	if err := refuseHidden(tx, ps); err != nil {
		return err
	}
	if err := db.freshClasses(tx); err != nil {
		return err
	}
	return t.classes(tx, ps)
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

func upsertOne(tx *sql.Tx, st stmt, p *record.Puzzle, now int64) (record.Puzzle, bool, error) {
	row := st.queryRow(tx, insertArgs(make([]any, 0, len(insertColumns)), p, now)...)
	stored, err := scanPuzzle(row.Scan)
	if err != nil {
		return record.Puzzle{}, false, fmt.Errorf("store %s: %w", p.Givens, err)
	}
	return stored, stored.Submissions > 1, nil
}

// check refuses what must never be archived. The store trusts the engine's
// measures but not blindly: the solution must fill the grid and agree with
// every given.
func check(p record.Puzzle) error {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidPuzzle, fmt.Sprintf(format, args...))
	}
	if p.Rules != "" {
		if err := checkVariant(p); err != nil {
			return bad("%v", err)
		}
	} else if p.Givens.Clues() == 0 {
		return bad("no givens")
	} else if p.CanonicalRules != "" || p.Variant != "" {
		return bad("a classic puzzle with canonical rules or variant names")
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

// checkVariant refuses a variant row that does not stand: rules that do
// not read back or validate (or are not in their normal writing, which
// their givens key hashes), canonical rules that do not, variant names
// that are not the rules', a title or author too long, and a solution
// that breaks a rule. A classic grid's checks follow in check.
func checkVariant(p record.Puzzle) error {
	vp, err := p.VariantPuzzle()
	if err == nil {
		err = vp.Validate()
	}
	if err != nil {
		return fmt.Errorf("rules: %w", err)
	}
	if record.RulesOf(variant.Normal(vp).Rules) != p.Rules {
		return fmt.Errorf("rules are not in their normal writing")
	}
	canon, err := p.CanonicalRules.List()
	if err == nil {
		err = variant.Puzzle{Givens: p.Canonical, Rules: canon}.Validate()
	}
	if err != nil || len(canon) == 0 {
		return fmt.Errorf("canonical rules: %v", cmp.Or(err, errors.New("none")))
	}
	if want := record.VariantsOf(vp.Rules); p.Variant != want {
		return fmt.Errorf("variant %q, want %q for its rules", p.Variant, want)
	}
	if len(p.Title) > maxVariantText || len(p.Author) > maxVariantText {
		return fmt.Errorf("title or author over %d bytes", maxVariantText)
	}
	if err := variant.Check(vp, p.Solution); err != nil {
		return fmt.Errorf("solution: %w", err)
	}
	return nil
}

// maxVariantText is the longest title or author the store writes, in
// bytes: a bound on a row, not a rule of the input (which reads them).
const maxVariantText = 1 << 10
