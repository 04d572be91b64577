package store

// refit.go holds `sudoku ratings refit`: every players' figure recomputed
// from the attempts alone (package ratings' Refit), in one transaction.

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
)

// A RefitSummary is the account of a Refit.
type RefitSummary struct {
	Attempts, Classes, Players int64
	Prior                      ratings.Prior
	Fitted                     bool   // the prior was fitted to the archive (else the default)
	Rounds                     [2]int // of each pass (see ratings.Refit)
	Elapsed                    time.Duration
}

// String is the summary line of `sudoku ratings refit`.
func (s RefitSummary) String() string {
	prior := "default prior"
	if s.Fitted {
		prior = fmt.Sprintf("prior fitted: %.0f s at grade 2, %.0f s at grade 7", expSeconds(s.Prior.Of(20)), expSeconds(s.Prior.Of(70)))
	}
	return fmt.Sprintf("refit %d attempts, classes %d, players %d (%s; rounds %d+%d) in %.2fs",
		s.Attempts, s.Classes, s.Players, prior, s.Rounds[0], s.Rounds[1], s.Elapsed.Seconds())
}

// refitData is what a refit reads: the counted attempts in id order, as
// plays of classes and players numbered by first appearance, and per class
// its key, grade and solves' seconds.
type refitData struct {
	plays   []ratings.Play
	keys    [][]byte
	grades  []int64
	seconds [][]int64 // the counted solves' seconds, by class
	players []int64   // player ids, by index
}

// Refit recomputes every players' figure from the attempts alone: which
// attempts count (the first finished at a class, not practice), every
// class's difficulty and figures, every player's skill, and the prior
// (ratings.Refit), in one transaction that holds the whole archive (no
// finish runs beside it). progress, when not nil, is told the attempts
// read and the classes written against their total. The same attempts give
// the same figures, bit for bit.
func (db *DB) Refit(ctx context.Context, progress func(done, total int64)) (RefitSummary, error) {
	if db.isClosed() {
		return RefitSummary{}, ErrClosed
	}
	if progress == nil {
		progress = func(int64, int64) {}
	}
	start := time.Now()
	var sum RefitSummary
	err := db.write(ctx, func(tx *sql.Tx) error {
		d, total, err := db.readRefit(ctx, tx, progress)
		if err != nil {
			return err
		}
		f := ratings.Refit(d.grades, len(d.players), d.plays)
		sum = RefitSummary{Attempts: int64(len(d.plays)), Classes: int64(len(d.keys)), Players: int64(len(d.players)),
			Prior: f.Prior, Fitted: f.Rounds[1] > 0, Rounds: f.Rounds}
		return db.writeRefit(ctx, tx, d, f, func(done int64) { progress(int64(len(d.plays))+done, total) })
	})
	if err != nil {
		return RefitSummary{}, fmt.Errorf("refit: %w", err)
	}
	sum.Elapsed = time.Since(start)
	return sum, nil
}

// readRefit marks the counted attempts and reads them, in tx; total is
// the progress's whole (attempts and classes).
func (db *DB) readRefit(ctx context.Context, tx *sql.Tx, progress func(done, total int64)) (d refitData, total int64, err error) {
	if _, err = tx.ExecContext(ctx, `UPDATE attempts SET counted = 1 - counted
WHERE counted <> CASE WHEN first = 1 AND practice = 0 AND outcome <> 'open' THEN 1 ELSE 0 END`); err != nil {
		return d, 0, fmt.Errorf("mark the counted attempts: %w", err)
	}
	var n, classes int64
	if err = tx.QueryRowContext(ctx, "SELECT count(*), count(DISTINCT class_key) FROM attempts WHERE counted = 1").Scan(&n, &classes); err != nil {
		return d, 0, err
	}
	total = n + classes
	rows, err := tx.QueryContext(ctx, "SELECT player_id, class_key, outcome, seconds, hints FROM attempts WHERE counted = 1 ORDER BY id")
	if err != nil {
		return d, 0, fmt.Errorf("read the attempts: %w", err)
	}
	defer rows.Close()
	classOf := make(map[string]int32, classes)
	playerOf := make(map[int64]int32)
	d.plays = make([]ratings.Play, 0, n)
	for rows.Next() {
		var player, seconds, hints int64
		var key []byte
		var outcome string
		if err := rows.Scan(&player, &key, &outcome, &seconds, &hints); err != nil {
			return d, 0, fmt.Errorf("read the attempts: %w", err)
		}
		c, ok := classOf[string(key)]
		if !ok {
			c = int32(len(d.keys))
			classOf[string(key)] = c
			d.keys, d.seconds = append(d.keys, key), append(d.seconds, nil)
		}
		p, ok := playerOf[player]
		if !ok {
			p = int32(len(d.players))
			playerOf[player] = p
			d.players = append(d.players, player)
		}
		solved := outcome == string(account.OutcomeSolved)
		if solved {
			d.seconds[c] = append(d.seconds[c], seconds)
		}
		d.plays = append(d.plays, ratings.Play{Class: c, Player: p, Observation: ratings.Observation{Seconds: seconds, Solved: solved, Hints: hints}})
		if len(d.plays)%65536 == 0 {
			progress(int64(len(d.plays)), total)
		}
	}
	if err := rows.Err(); err != nil {
		return d, 0, fmt.Errorf("read the attempts: %w", err)
	}
	rows.Close()
	progress(int64(len(d.plays)), total)
	d.grades, err = db.classGrades(ctx, tx, d.keys)
	return d, total, err
}

// classGrades returns the grade (tenths, 0 for none) of the class of each
// of keys: its first entry's, or the puzzle's of that givens key.
func (db *DB) classGrades(ctx context.Context, tx *sql.Tx, keys [][]byte) ([]int64, error) {
	st, err := tx.PrepareContext(ctx, db.d.sql(`SELECT coalesce(
    (SELECT p.grade FROM classes AS k JOIN puzzles AS p ON p.id = k.first_id WHERE k.canonical_key = ?1),
    (SELECT p.grade FROM puzzles AS p WHERE p.givens_key = ?1), 0)`))
	if err != nil {
		return nil, fmt.Errorf("read the grades: %w", err)
	}
	defer st.Close()
	grades := make([]int64, len(keys))
	for i, k := range keys {
		if err := st.QueryRowContext(ctx, k).Scan(&grades[i]); err != nil {
			return nil, fmt.Errorf("read the grades: %w", err)
		}
	}
	return grades, nil
}

// writeRefit replaces every class's rating and figures and every player's
// skill with f's, in tx; done is told the classes written.
func (db *DB) writeRefit(ctx context.Context, tx *sql.Tx, d refitData, f ratings.Fit, done func(int64)) error {
	for _, q := range []string{
		"DELETE FROM class_ratings",
		"UPDATE players SET skill = 1.0, rated = 0 WHERE rated <> 0 OR skill <> 1.0",
		"DELETE FROM puzzle_figures",
		"UPDATE puzzles SET player_seconds = 0 WHERE player_seconds <> 0",
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("clear the figures: %w", err)
		}
	}
	w, err := db.prepareRefitWrites(ctx, tx)
	if err != nil {
		return err
	}
	defer w.close()
	for i, p := range f.Players {
		if _, err := w.player.Exec(p.Skill(), p.Rated, d.players[i]); err != nil {
			return fmt.Errorf("write player %d: %w", d.players[i], err)
		}
	}
	for i, c := range f.Classes {
		if _, err := w.class.Exec(d.keys[i], c.Plays, c.Solves, c.Difficulty, c.Weight, c.Prior); err != nil {
			return fmt.Errorf("write a class: %w", err)
		}
		if err := w.figures.write(d.keys[i], c.Plays, c.Solves, median(d.seconds[i]), c.Seconds()); err != nil {
			return err
		}
		if i%4096 == 4095 {
			done(int64(i + 1))
		}
	}
	done(int64(len(f.Classes)))
	_, err = tx.ExecContext(ctx, db.d.sql(`INSERT INTO settings (name, value) VALUES (?, ?)
ON CONFLICT (name) DO UPDATE SET value = excluded.value`), priorName, []byte(formatPrior(f.Prior)))
	if err != nil {
		return fmt.Errorf("write the prior: %w", err)
	}
	return nil
}

// median is the median of seconds (rounded up between the middle two), 0
// for none, and at least 1 otherwise (0 reads as none); seconds is sorted
// in place.
func median(seconds []int64) int64 {
	if len(seconds) == 0 {
		return 0
	}
	slices.Sort(seconds)
	n := len(seconds)
	if n%2 == 1 {
		return max(seconds[n/2], 1)
	}
	return max((seconds[n/2-1]+seconds[n/2]+1)/2, 1)
}

// refitWrites are a refit's statements, prepared once for the whole pass.
type refitWrites struct {
	player, class *sql.Stmt
	figures       figureWrites // as the finishes write them (rater.showFigures)
}

func (db *DB) prepareRefitWrites(ctx context.Context, tx *sql.Tx) (*refitWrites, error) {
	var w refitWrites
	for _, s := range []struct {
		dst **sql.Stmt
		q   string
	}{
		{&w.player, "UPDATE players SET skill = ?, rated = ? WHERE id = ?"},
		{&w.class, "INSERT INTO class_ratings (class_key, plays, solves, difficulty, weight, prior) VALUES (?, ?, ?, ?, ?, ?)"},
	} {
		st, err := tx.PrepareContext(ctx, db.d.sql(s.q))
		if err != nil {
			w.close()
			return nil, fmt.Errorf("prepare the refit: %w", err)
		}
		*s.dst = st
	}
	var err error
	if w.figures, err = prepareFigures(tx, db.d, true); err != nil {
		w.close()
		return nil, fmt.Errorf("prepare the refit: %w", err)
	}
	return &w, nil
}

func (w *refitWrites) close() {
	for _, s := range []*sql.Stmt{w.player, w.class} {
		if s != nil {
			s.Close()
		}
	}
	w.figures.close()
}
