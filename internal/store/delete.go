package store

// delete.go: an admin's deletion of a puzzle (DeletePuzzle), with its
// attempts and flags, keeping the counters and the classes exact.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// DeletePuzzle removes the puzzle puzzleID, hidden or not, with its
// attempts (the players' counts of attempts, solves and give-ups lose
// them), flags, hidden state and days as the puzzle of the day, and
// records it (sudoku.ErrNotFound when there is no such puzzle). When it
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
			"DELETE FROM daily WHERE puzzle_id = ?"} {
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
		return record(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionDelete, PuzzleID: puzzleID, Reason: reason,
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
// players' counts; it returns how many.
func dropAttempts(tx *sql.Tx, d dialect, puzzleID int64) (int64, error) {
	_, err := tx.Exec(d.sql(`UPDATE players SET attempts = players.attempts - a.n, solved = players.solved - a.solved, gave_up = players.gave_up - a.gave_up
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
	return res.RowsAffected()
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
