package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// attemptColumns are the attempts table's columns as scanAttempt reads them.
const attemptColumns = "attempts.id, attempts.player_id, attempts.puzzle_id, attempts.started_at, attempts.finished_at, attempts.outcome, " +
	"attempts.seconds, attempts.hints, attempts.checks, attempts.mistakes, attempts.first, attempts.techniques, attempts.practice, attempts.counted"

// scanAttempt reads a row of attemptColumns.
func scanAttempt(scan func(...any) error, extra ...any) (account.Attempt, error) {
	var a account.Attempt
	var started int64
	var finished sql.NullInt64
	var outcome, techniques string
	var first, practice, counted int64
	dest := append([]any{&a.ID, &a.PlayerID, &a.PuzzleID, &started, &finished, &outcome,
		&a.Seconds, &a.Hints, &a.Checks, &a.Mistakes, &first, &techniques, &practice, &counted}, extra...)
	if err := scan(dest...); err != nil {
		return a, err
	}
	a.StartedAt = time.Unix(0, started).UTC()
	if finished.Valid {
		a.FinishedAt = time.Unix(0, finished.Int64).UTC()
	}
	a.Outcome, a.First = account.Outcome(outcome), first == 1
	a.Practice, a.Counted = practice == 1, counted == 1
	if techniques != "" {
		a.Techniques = strings.Split(techniques, "\n")
	}
	return a, nil
}

// attemptNotFound is the error of an attempt that does not exist or is
// another player's: the two are not told apart.
func attemptNotFound(id int64) error {
	return fmt.Errorf("attempt %d: %w", id, record.ErrNotFound)
}

// StartAttempt opens an attempt of player at the puzzle puzzleID, its clock
// started now, or returns the player's attempt at that puzzle still open
// (created false). record.ErrNotFound when there is no such puzzle.
//
// Starts share the finishes' group commit (FinishAttempt): one
// transaction and one sync for every start and finish waiting.
func (db *DB) StartAttempt(ctx context.Context, player, puzzleID int64) (a account.Attempt, created bool, err error) {
	r := &finishReq{player: player, puzzle: puzzleID, start: true, done: make(chan finishResult, 1)}
	res := db.finishes.do(ctx, db, r)
	if res.err != nil {
		return account.Attempt{}, false, fmt.Errorf("start attempt at puzzle %d: %w", puzzleID, res.err)
	}
	return res.a, res.created, nil
}

// startSteps is StartAttempt's transaction in steps (SQLite): the puzzle
// (a hidden one is not played, even by whoever had it open), the player's
// open attempt at it if any, else a new attempt and the player's count.
func (db *DB) startSteps(tx *sql.Tx, player, puzzleID int64, now time.Time) (account.Attempt, bool, error) {
	var key []byte
	err := tx.QueryRow(db.d.sql("SELECT coalesce(canonical_key, givens_key) FROM puzzles WHERE id = ? AND "+visible), puzzleID).Scan(&key)
	if errors.Is(err, sql.ErrNoRows) {
		return account.Attempt{}, false, fmt.Errorf("puzzle %d: %w", puzzleID, record.ErrNotFound)
	}
	if err != nil {
		return account.Attempt{}, false, err
	}
	row := tx.QueryRow(db.d.sql("SELECT "+attemptColumns+" FROM attempts WHERE player_id = ? AND puzzle_id = ? AND outcome = 'open'"), player, puzzleID)
	if a, err := scanAttempt(row.Scan); err == nil {
		return a, false, nil
	} else if !errors.Is(err, sql.ErrNoRows) {
		return account.Attempt{}, false, err
	}
	var id int64
	err = tx.QueryRow(db.d.sql("INSERT INTO attempts (player_id, puzzle_id, class_key, started_at) VALUES (?, ?, ?, ?) RETURNING id"),
		player, puzzleID, key, now.UnixNano()).Scan(&id)
	if err != nil {
		return account.Attempt{}, false, err
	}
	if _, err = tx.Exec(db.d.sql("UPDATE players SET attempts = attempts + 1 WHERE id = ?"), player); err != nil {
		return account.Attempt{}, false, err
	}
	return account.Attempt{ID: id, PlayerID: player, PuzzleID: puzzleID, StartedAt: now, Outcome: account.OutcomeOpen}, true, nil
}

// FinishAttempt records the end of the attempt id of player: solved (the
// grid checked against the puzzle) or given up, with seconds capped by the
// server's clock since the start. Errors: record.ErrNotFound when the
// attempt is not the player's (or does not exist), account.ErrFinished when
// it has an outcome already, account.ErrWrongGrid and account.ErrBadFinish
// for a finish that cannot be recorded; nothing is recorded then.
//
// Concurrent finishes are committed together (group commit: one
// transaction and one sync for all that wait), each deciding its own
// outcome inside it.
func (db *DB) FinishAttempt(ctx context.Context, player, id int64, f account.Finish) (account.Attempt, error) {
	if err := f.CheckTexts(); err != nil { // before the group: a bad text fails nobody else's finish
		return account.Attempt{}, fmt.Errorf("finish attempt %d: %w", id, err)
	}
	r := &finishReq{player: player, id: id, f: f, done: make(chan finishResult, 1)}
	res := db.finishes.do(ctx, db, r)
	if res.err != nil {
		return account.Attempt{}, fmt.Errorf("finish attempt %d: %w", id, res.err)
	}
	return res.a, nil
}

// A finishReq is one FinishAttempt, or one StartAttempt (start), waiting
// for its group commit.
type finishReq struct {
	player, id int64
	f          account.Finish
	start      bool
	puzzle     int64             // of a start
	done       chan finishResult // buffered
}

type finishResult struct {
	a       account.Attempt
	created bool // a start that opened a new attempt
	err     error
	lead    bool // not a result: the receiver is to commit the next group
}

// finishQueue gathers concurrent finishes into group commits (turns).
type finishQueue struct {
	turns turns[*finishReq]

	// groups and grouped count the group commits and the finishes they
	// carried, for the benchmarks.
	groups, grouped atomic.Int64
}

// maxFinishes bounds a group.
const maxFinishes = 256

func (q *finishQueue) do(ctx context.Context, db *DB, r *finishReq) finishResult {
	var res finishResult
	group := q.turns.join(r, maxFinishes, func() bool { res = <-r.done; return res.lead })
	if group == nil {
		return res
	}
	db.commitFinishes(ctx, group)
	q.groups.Add(1)
	q.grouped.Add(int64(len(group)))
	q.turns.done(func(next *finishReq) { next.done <- finishResult{lead: true} })
	return <-r.done
}

// commitFinishes records a group of starts and finishes and answers each.
// A finish or start refused (not found, finished, wrong grid) is answered
// with its error and changes nothing. A group whose transaction fails for
// one member's data (a text the database refuses that slipped past the
// checks, say) is split in halves, each committed again, until the
// member at fault is alone (isolate): the others are answered as if it
// had not been there. A failure of the database itself (unreachable, a
// full disk, a lock held elsewhere) fails the whole group: alone, each
// would fail the same way.
func (db *DB) commitFinishes(ctx context.Context, group []*finishReq) {
	results := db.isolate(ctx, group)
	for i, r := range group {
		r.done <- results[i]
	}
}

// isolate commits group in one transaction, or, when that fails for what
// may be one member's fault, each half of it in turn (in the group's
// order, so that the starts and finishes of the first half are decided
// before the second's, as they would have been together), and returns
// each member's result.
func (db *DB) isolate(ctx context.Context, group []*finishReq) []finishResult {
	results, err := db.commitFinishGroup(ctx, group)
	if err == nil {
		return results
	}
	if len(group) == 1 || !memberFault(err) {
		for i := range results {
			results[i] = finishResult{err: err}
		}
		return results
	}
	half := len(group) / 2
	return append(db.isolate(ctx, group[:half]), db.isolate(ctx, group[half:])...)
}

// memberFault reports whether a group commit's failure may be one
// member's doing, so that the group without it may succeed: any error
// but the database's own unavailability (ErrFull, ErrBusy, a server
// down, a lock held elsewhere for the whole timeout).
func memberFault(err error) bool {
	var u *UnavailableError
	return !errors.As(err, &u) && !waitedForLock(err)
}

// commitFinishGroup records group in one transaction, returning each
// member's result, or the transaction's error.
func (db *DB) commitFinishGroup(ctx context.Context, group []*finishReq) ([]finishResult, error) {
	results := make([]finishResult, len(group))
	var err error
	if db.d.postgres {
		// One counter shard, as submissions take: a finish updates no
		// counter, and the rows it shares with other servers' finishes (a
		// class's rating) it locks itself (finishReadSQL).
		_, err = db.do(context.WithoutCancel(ctx), &op{ctx: context.WithoutCancel(ctx), w: maintenance{func(*sql.Conn) error {
			return db.inPipe(oneShard, func(p *pipe) error {
				clear(results) // a group run again answers afresh
				return commitFinishesPG(p, group, results, time.Now().UTC())
			})
		}}})
	} else {
		err = db.writeIn(context.WithoutCancel(ctx), oneShard, func(tx *sql.Tx) error {
			clear(results)
			return db.commitFinishesSQLite(tx, group, results, time.Now().UTC())
		})
	}
	return results, err
}

// commitFinishesSQLite is commitFinishes's transaction on SQLite: each
// start and finish in steps, in the group's order.
func (db *DB) commitFinishesSQLite(tx *sql.Tx, group []*finishReq, results []finishResult, now time.Time) error {
	var f *finisher
	if slices.ContainsFunc(group, func(r *finishReq) bool { return !r.start }) {
		var err error
		if f, err = db.prepareFinish(tx); err != nil {
			return err
		}
		defer f.close()
	}
	for i, r := range group {
		var res finishResult
		if r.start {
			res.a, res.created, res.err = db.startSteps(tx, r.player, r.puzzle, now)
		} else {
			res.a, res.err = f.finish(r, now)
		}
		if res.err != nil && !refused(res.err) {
			return res.err
		}
		results[i] = res
	}
	return nil
}

// commitFinishesPG is commitFinishes's transaction on PostgreSQL, in one
// pipe of at most two round trips (tx.go): BEGIN, the shard's lock, the
// group's starts in one statement (queueStarts) and its finishes' read
// (queueFinishRead) in the first; the finishes decided in Go (finishAll);
// their write and COMMIT in the second. A group of starts alone is one
// round trip. Starts and finishes that wait together are concurrent, so
// taking the starts first is one order they could have come in; the
// starts keep theirs among themselves, the finishes theirs.
func commitFinishesPG(p *pipe, group []*finishReq, results []finishResult, now time.Time) error {
	// The statements' arrays make PostgreSQL find its generic plans
	// dearer than custom ones (it guesses 100 elements an array), so it
	// planned them again at every group: 1-2 ms each, with two servers
	// every group (-box.statements). Their generic plans are walks by key
	// (every lookup a subquery or = ANY of its own): take them.
	p.Queue("SET LOCAL plan_cache_mode = force_generic_plan")
	var starts, fs []*finishReq
	var startAt, finishAt []int
	for i, r := range group {
		if r.start {
			starts, startAt = append(starts, r), append(startAt, i)
		} else {
			fs, finishAt = append(fs, r), append(finishAt, i)
		}
	}
	if len(starts) > 0 {
		queueStarts(p, starts, now, func(j int) *finishResult { return &results[startAt[j]] })
	}
	if len(fs) == 0 {
		return nil
	}
	read := queueFinishRead(p, fs)
	if err := p.Flush(); err != nil {
		return err
	}
	done, err := finishAll(p, fs, read, now)
	if err != nil {
		return err
	}
	for j, i := range finishAt {
		results[i] = done[j]
	}
	return nil
}

// refused reports whether err is a finish refused for its own sake, not a
// failure of the database.
func refused(err error) bool {
	return errors.Is(err, record.ErrNotFound) || errors.Is(err, account.ErrFinished) ||
		errors.Is(err, account.ErrWrongGrid) || errors.Is(err, account.ErrBadFinish)
}

// finisher holds a group commit's statements: on SQLite prepared once for
// the group; on PostgreSQL run by text, which pgx prepares once per
// connection (preparing them for each group cost two round trips each).
type finisher struct {
	rater                    *rater // the players' model's online step
	read, first, update      txStmt
	solved, gaveUp, grade    txStmt // the player's figures (summary.go)
	technique, daily, streak txStmt
	skill                    txStmt // the skill a counted attempt left (its history, /me)
}

// A txStmt is a statement of a transaction, prepared (st) or by text (q).
type txStmt struct {
	tx *sql.Tx
	st *sql.Stmt
	q  string
}

func (s txStmt) QueryRow(args ...any) *sql.Row {
	if s.st != nil {
		return s.st.QueryRow(args...)
	}
	return s.tx.QueryRow(s.q, args...)
}

func (s txStmt) Query(args ...any) (*sql.Rows, error) {
	if s.st != nil {
		return s.st.Query(args...)
	}
	return s.tx.Query(s.q, args...)
}

func (s txStmt) Exec(args ...any) (sql.Result, error) {
	if s.st != nil {
		return s.st.Exec(args...)
	}
	return s.tx.Exec(s.q, args...)
}

func (db *DB) prepareFinish(tx *sql.Tx) (*finisher, error) {
	var f finisher
	var err error
	if f.rater, err = db.newRater(tx); err != nil {
		return nil, err
	}
	for _, st := range []struct {
		dst *txStmt
		q   string
	}{
		{&f.read, "SELECT " + attemptColumns + ", attempts.class_key, puzzles.givens, puzzles.grade, puzzles.technique, puzzles.hidden FROM attempts JOIN puzzles ON puzzles.id = attempts.puzzle_id WHERE attempts.id = ?"},
		{&f.first, "SELECT count(*) FROM attempts WHERE player_id = ? AND class_key = ? AND outcome <> 'open'"},
		{&f.update, "UPDATE attempts SET finished_at = ?, outcome = ?, seconds = ?, hints = ?, checks = ?, mistakes = ?, first = ?, techniques = ?, practice = ?, counted = ? WHERE id = ? AND outcome = 'open'"},
		{&f.solved, "UPDATE players SET solved = solved + 1 WHERE id = ? RETURNING streak, streak_day"},
		{&f.gaveUp, "UPDATE players SET gave_up = gave_up + 1 WHERE id = ?"},
		{&f.grade, gradeUpsert},
		{&f.technique, techniqueUpsert},
		{&f.daily, "SELECT date FROM daily WHERE canonical_key = ?"},
		{&f.streak, "UPDATE players SET streak = ?, streak_day = ? WHERE id = ?"},
		{&f.skill, "UPDATE attempts SET skill = ? WHERE id = ?"},
	} {
		*st.dst = txStmt{tx: tx, q: db.d.sql(st.q)}
		if db.d.postgres {
			continue
		}
		if st.dst.st, err = tx.Prepare(st.dst.q); err != nil {
			f.close()
			return nil, err
		}
	}
	return &f, nil
}

func (f *finisher) close() {
	if f.rater != nil {
		f.rater.close()
	}
	for _, s := range []txStmt{f.read, f.first, f.update, f.solved, f.gaveUp, f.grade, f.technique, f.daily, f.streak, f.skill} {
		if s.st != nil {
			s.st.Close()
		}
	}
}

// finish records one finish on SQLite, step by step, or says why not
// (PostgreSQL takes a group's finishes together: finishAll).
func (f *finisher) finish(r *finishReq, now time.Time) (account.Attempt, error) {
	var key []byte
	var givens, technique string
	var grade, hidden int
	a, err := scanAttempt(f.read.QueryRow(r.id).Scan, &key, &givens, &grade, &technique, &hidden)
	if errors.Is(err, sql.ErrNoRows) || err == nil && a.PlayerID != r.player {
		return account.Attempt{}, attemptNotFound(r.id)
	}
	if err != nil {
		return account.Attempt{}, err
	}
	a, err = decideFinish(r, a, givens, hidden != 0, now, func() (int64, error) {
		var before int64
		err := f.first.QueryRow(r.player, key).Scan(&before)
		return before, err
	})
	if err != nil {
		return account.Attempt{}, err
	}
	if _, err = f.update.Exec(now.UnixNano(), string(a.Outcome), a.Seconds, a.Hints, a.Checks, a.Mistakes, flag(a.First),
		strings.Join(a.Techniques, "\n"), flag(a.Practice), flag(a.Counted), a.ID); err != nil {
		return account.Attempt{}, err
	}
	a.Grade, a.Technique = grade, technique
	if a.Counted {
		o := ratings.Observation{Seconds: a.Seconds, Solved: a.Outcome == account.OutcomeSolved, Hints: a.Hints}
		if a.SkillBefore, a.SkillAfter, err = f.rater.rate(a.PlayerID, key, int64(grade), o); err != nil {
			return account.Attempt{}, err
		}
		if _, err := f.skill.Exec(a.SkillAfter, a.ID); err != nil {
			return account.Attempt{}, err
		}
	}
	return a, f.figures(a, key, now)
}

// decideFinish decides the finish r of the open attempt a, read with its
// puzzle's givens and hidden flag, on both databases: it refuses a hidden
// puzzle, an attempt finished already, a finish Check refuses and a wrong
// grid, and returns a as finished at now. before counts the player's
// finished attempts at the class before this one (asked only for a finish
// that is to be recorded).
func decideFinish(r *finishReq, a account.Attempt, givens string, hidden bool, now time.Time, before func() (int64, error)) (account.Attempt, error) {
	// A puzzle hidden since the attempt opened is not played (as
	// StartAttempt refuses it): the attempt stays open and uncounted.
	if hidden {
		return account.Attempt{}, fmt.Errorf("attempt %d: its puzzle %d is hidden: %w", r.id, a.PuzzleID, record.ErrNotFound)
	}
	if a.Outcome != account.OutcomeOpen {
		return account.Attempt{}, account.ErrFinished
	}
	fin, err := r.f.Check(now.Sub(a.StartedAt))
	if err != nil {
		return account.Attempt{}, err
	}
	if fin.Outcome == account.OutcomeSolved {
		if err := account.CheckSolved(givens, fin.Grid); err != nil {
			return account.Attempt{}, err
		}
	}
	n, err := before()
	if err != nil {
		return account.Attempt{}, err
	}
	a.FinishedAt, a.Outcome, a.Seconds = now, fin.Outcome, fin.ActiveSeconds
	a.Hints, a.Checks, a.Mistakes, a.First, a.Techniques = fin.Hints, fin.Checks, fin.Mistakes, n == 0, fin.Techniques
	// The model counts the first finished attempt at the class unless it
	// is practice (ratings.PracticeWeight): a practice attempt still takes
	// the first place, since the player has seen the puzzle since.
	a.Practice = fin.Practice
	a.Counted = a.First && !a.Practice
	return a, nil
}

// Attempt returns the attempt id if it is player's, else record.ErrNotFound.
func (db *DB) Attempt(ctx context.Context, player, id int64) (account.Attempt, error) {
	a, err := scanAttempt(db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+attemptColumns+" FROM attempts WHERE id = ? AND player_id = ?"), id, player).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return account.Attempt{}, attemptNotFound(id)
	}
	if err != nil {
		return account.Attempt{}, fmt.Errorf("attempt %d: %w", id, err)
	}
	return a, nil
}

// Attempts returns up to limit of player's attempts, newest first, those
// older than the attempt before when before > 0 (the cursor: the last id of
// the previous page). Each carries its puzzle's grade and technique.
func (db *DB) Attempts(ctx context.Context, player, before int64, limit int) ([]account.Attempt, error) {
	if before <= 0 {
		before = 1<<63 - 1
	}
	rows, err := db.reader.QueryContext(ctx, db.d.sql("SELECT "+attemptColumns+", puzzles.grade, puzzles.technique FROM attempts JOIN puzzles ON puzzles.id = attempts.puzzle_id"+
		" WHERE attempts.player_id = ? AND attempts.id < ? ORDER BY attempts.id DESC LIMIT ?"), player, before, limit)
	if err != nil {
		return nil, fmt.Errorf("attempts of player %d: %w", player, err)
	}
	defer rows.Close()
	as := make([]account.Attempt, 0, limit)
	for rows.Next() {
		var a account.Attempt
		var grade int
		var technique string
		if a, err = scanAttempt(rows.Scan, &grade, &technique); err != nil {
			return nil, fmt.Errorf("attempts of player %d: %w", player, err)
		}
		a.Grade, a.Technique = grade, technique
		as = append(as, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("attempts of player %d: %w", player, err)
	}
	return as, nil
}

// flag is b as the tables' 0/1 columns hold it.
func flag(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
