package store

// delete.go: an admin's deletion of a puzzle (DeletePuzzle), with its
// attempts and flags, keeping the counters and the classes exact.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// DeletePuzzle removes the puzzle puzzleID, hidden or not, with its
// attempts (the players' counts of attempts, solves and give-ups lose
// them), flags, hidden state and days as the puzzle of the day, and
// records it (record.ErrNotFound when there is no such puzzle). When it
// was the first entry of its class, the next entry by id becomes the
// first, and the others' same_as follow.
func (db *DB) DeletePuzzle(ctx context.Context, puzzleID int64, by moderation.Actor, reason string) error {
	if err := moderation.CheckText("reason", reason, moderation.MaxReason); err != nil {
		return err
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		f, err := readFacts(tx, db.d, puzzleID)
		if err != nil {
			return err
		}
		attempts, err := dropAttempts(tx, db.d, puzzleID)
		if err != nil {
			return err
		}
		for _, q := range []string{"DELETE FROM flags WHERE puzzle_id = ?", "DELETE FROM hidden_puzzles WHERE puzzle_id = ?",
			"DELETE FROM daily WHERE puzzle_id = ?", "DELETE FROM puzzle_figures WHERE puzzle_id = ?"} {
			if _, err := tx.Exec(db.d.sql(q), puzzleID); err != nil {
				return err
			}
		}
		// The delete triggers (migrations 00006, 00007; PostgreSQL's
		// puzzles_delete) take the row's share but for its class away. A
		// hidden row is not counted: its share is added back first, so that
		// the triggers find it (SQLite's counters refuse to go below 0).
		if f.hidden {
			var back share
			back.rest(&f, 1)
			if err := back.apply(tx, db.d); err != nil {
				return err
			}
		}
		var s share
		if err := db.passHead(tx, &f, &s); err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("DELETE FROM puzzles WHERE id = ?"), puzzleID); err != nil {
			return err
		}
		if !f.hidden {
			s.class(&f, -1)
		}
		if err := s.apply(tx, db.d); err != nil {
			return err
		}
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionDelete, PuzzleID: puzzleID, Reason: reason,
			Detail: fmt.Sprintf("%d attempts deleted", attempts)})
	})
	if err != nil {
		return fmt.Errorf("delete puzzle %d: %w", puzzleID, err)
	}
	return nil
}

// classesEpoch is the settings row that DeletePuzzle rewrites when it
// changes or removes a row of classes, so that every writer's memory of
// classes (knownClasses) is emptied before it files a puzzle under one.
const classesEpoch = "classes_epoch"

// freshClasses reads classesEpoch in tx, the write transaction of a
// submission or import, before its classes are looked up: a writer's
// memory of classes is kept only while no class's first entry was
// deleted. On PostgreSQL the read comes after the transaction holds its
// counter shard, and DeletePuzzle holds them all, so the two do not
// overlap.
func (db *DB) freshClasses(tx *sql.Tx) error {
	var v []byte
	err := tx.QueryRow(db.d.sql("SELECT value FROM settings WHERE name = ?"), classesEpoch).Scan(&v)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("read the classes epoch: %w", err)
	}
	db.known.refresh(v)
	return nil
}

// dropAttempts deletes the attempts at a puzzle and takes them off their
// players' counts and figures; it returns how many.
func dropAttempts(tx *sql.Tx, d dialect, puzzleID int64) (int64, error) {
	players, err := int64s(tx.Query(d.sql("SELECT DISTINCT player_id FROM attempts WHERE puzzle_id = ? AND outcome <> 'open' ORDER BY player_id"), puzzleID))
	if err != nil {
		return 0, fmt.Errorf("read the players of the attempts: %w", err)
	}
	_, err = tx.Exec(d.sql(`UPDATE players SET attempts = players.attempts - a.n, solved = players.solved - a.solved, gave_up = players.gave_up - a.gave_up
FROM (SELECT player_id, count(*) AS n, sum(CASE WHEN outcome = 'solved' THEN 1 ELSE 0 END) AS solved,
    sum(CASE WHEN outcome = 'gave_up' THEN 1 ELSE 0 END) AS gave_up
    FROM attempts WHERE puzzle_id = ? GROUP BY player_id) AS a
WHERE players.id = a.player_id`), puzzleID)
	if err != nil {
		return 0, fmt.Errorf("count off the attempts: %w", err)
	}
	res, err := tx.Exec(d.sql("DELETE FROM attempts WHERE puzzle_id = ?"), puzzleID)
	if err != nil {
		return 0, fmt.Errorf("delete the attempts: %w", err)
	}
	for _, p := range players {
		if err := refigure(tx, d, p); err != nil {
			return 0, fmt.Errorf("player %d's figures: %w", p, err)
		}
	}
	return res.RowsAffected()
}

// int64s returns the one column of rows, the result of a query that
// failed with err or not: int64s(tx.Query(q, args...)).
func int64s(rows *sql.Rows, err error) ([]int64, error) {
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var v int64
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// gradeFigures are a player's solves of one grade, as player_grades
// keeps them.
type gradeFigures struct{ solves, seconds, fastest, slowest int64 }

// refigure rebuilds player's times by grade and counts by technique
// (player_grades, player_techniques) from the finished attempts they still
// have, as the finishes wrote them: each solve by its puzzle's grade, each
// hint by its technique, each give-up by the puzzle's hardest technique.
// A puzzle regraded since a finish counts at its grade of now. The daily
// streak is left as it is: it records days, not attempts.
func refigure(tx *sql.Tx, d dialect, player int64) error {
	rows, err := tx.Query(d.sql(`SELECT attempts.outcome, attempts.seconds, attempts.techniques, puzzles.grade, puzzles.technique
FROM attempts JOIN puzzles ON puzzles.id = attempts.puzzle_id WHERE attempts.player_id = ? AND attempts.outcome <> 'open'`), player)
	if err != nil {
		return err
	}
	defer rows.Close()
	grades := map[int64]*gradeFigures{}
	hints, gaveUp := map[string]int64{}, map[string]int64{}
	for rows.Next() {
		var outcome, techniques, technique string
		var seconds, grade int64
		if err := rows.Scan(&outcome, &seconds, &techniques, &grade, &technique); err != nil {
			return err
		}
		for t := range strings.SplitSeq(techniques, "\n") {
			if t != "" {
				hints[t]++
			}
		}
		switch {
		case outcome == string(account.OutcomeGaveUp):
			if technique != "" {
				gaveUp[technique]++
			}
		case grades[grade] == nil:
			grades[grade] = &gradeFigures{1, seconds, seconds, seconds}
		default:
			g := grades[grade]
			g.solves, g.seconds, g.fastest, g.slowest = g.solves+1, g.seconds+seconds, min(g.fastest, seconds), max(g.slowest, seconds)
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	for _, q := range []string{"DELETE FROM player_grades WHERE player_id = ?", "DELETE FROM player_techniques WHERE player_id = ?"} {
		if _, err := tx.Exec(d.sql(q), player); err != nil {
			return err
		}
	}
	for _, grade := range slices.Sorted(maps.Keys(grades)) {
		g := grades[grade]
		if _, err := tx.Exec(d.sql("INSERT INTO player_grades (player_id, grade, solves, seconds, fastest, slowest) VALUES (?, ?, ?, ?, ?, ?)"),
			player, grade, g.solves, g.seconds, g.fastest, g.slowest); err != nil {
			return err
		}
	}
	names := map[string]bool{}
	for _, m := range []map[string]int64{hints, gaveUp} {
		for t := range m {
			names[t] = true
		}
	}
	for _, t := range slices.Sorted(maps.Keys(names)) {
		if _, err := tx.Exec(d.sql("INSERT INTO player_techniques (player_id, technique, hints, gave_up) VALUES (?, ?, ?, ?)"),
			player, t, hints[t], gaveUp[t]); err != nil {
			return err
		}
	}
	return nil
}

// passHead hands the class of f, a row about to be deleted, to its next
// entry by id when f is the class's first: that entry loses same_as (and
// is counted as the head in s when visible), the others point to it, and
// the class's row names it. A class left with no entry is forgotten, so
// its next submission starts it again.
func (db *DB) passHead(tx *sql.Tx, f *rowFacts, s *share) error {
	if !f.head() {
		return nil
	}
	db.known.forget(f.canonical)
	// Other writers (servers) on the archive remember classes too: the
	// new epoch tells them to forget (freshClasses).
	if _, err := tx.Exec(db.d.sql(`INSERT INTO settings (name, value) VALUES (?, ?)
ON CONFLICT (name) DO UPDATE SET value = excluded.value`), classesEpoch, []byte(strconv.FormatInt(time.Now().UnixNano(), 10))); err != nil {
		return fmt.Errorf("new classes epoch: %w", err)
	}
	var next int64
	err := tx.QueryRow(db.d.sql("SELECT id FROM puzzles WHERE same_as = ? ORDER BY id LIMIT 1"), f.id).Scan(&next)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = tx.Exec(db.d.sql("DELETE FROM classes WHERE canonical_key = ?"), f.canonical)
		return err
	}
	if err != nil {
		return err
	}
	if _, err := tx.Exec(db.d.sql("UPDATE puzzles SET same_as = NULL WHERE id = ?"), next); err != nil {
		return err
	}
	if _, err := tx.Exec(db.d.sql("UPDATE puzzles SET same_as = ? WHERE same_as = ?"), next, f.id); err != nil {
		return err
	}
	if _, err := tx.Exec(db.d.sql("UPDATE classes SET first_id = ? WHERE canonical_key = ?"), next, f.canonical); err != nil {
		return err
	}
	n, err := readFacts(tx, db.d, next)
	if err != nil {
		return err
	}
	if !n.hidden {
		s.class(&n, 1)
	}
	return nil
}
