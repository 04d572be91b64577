package store

// importattempts.go holds `sudoku attempts import`'s writes: attempts
// played elsewhere, recorded as finished attempts with their figures.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/ratings"
	"github.com/sudoku-archive/sudoku/internal/sudoku"
)

// An ImportedAttempt is a line of an attempts import whose puzzle is
// archived: the puzzle's id.
type ImportedAttempt struct {
	account.Imported
	PuzzleID int64
}

// importChunk is how many attempts one transaction of ImportAttempts
// records.
const importChunk = 512

// ImportAttempts records as, in their order (the caller sorts them by
// At), as finished attempts: each of its player, called by name, made
// (without a password: no login) when no player has that name; started
// Seconds before At, first when the player has no finished attempt at the
// puzzle's class yet, counted by the players' model and added to the
// player's dashboard as a finish is. Each attempt is recorded whole with
// its figures, many to a transaction; an error stops the import, the
// transactions committed before it stay. progress, when not nil, is told
// the attempts recorded. newPlayers counts the players made.
func (db *DB) ImportAttempts(ctx context.Context, as []ImportedAttempt, progress func(done, total int64)) (newPlayers int64, err error) {
	if db.isClosed() {
		return 0, ErrClosed
	}
	for start := 0; start < len(as); start += importChunk {
		if err := ctx.Err(); err != nil {
			return newPlayers, err
		}
		chunk := as[start:min(start+importChunk, len(as))]
		var made int64
		err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
			var err error
			made, err = db.importChunk(tx, chunk)
			return err
		})
		if err != nil {
			return newPlayers, fmt.Errorf("import attempts %d to %d: %w", start+1, start+len(chunk), err)
		}
		newPlayers += made
		if progress != nil {
			progress(int64(start+len(chunk)), int64(len(as)))
		}
	}
	return newPlayers, nil
}

// importChunk records as in tx and returns how many players it made.
func (db *DB) importChunk(tx *sql.Tx, as []ImportedAttempt) (int64, error) {
	f, err := db.prepareFinish(tx)
	if err != nil {
		return 0, err
	}
	defer f.close()
	var made int64
	players := map[string]int64{}
	for _, im := range as {
		key := account.NameKey(im.Player)
		player, ok := players[key]
		if !ok {
			var fresh bool
			if player, fresh, err = importedPlayer(tx, db.d, im); err != nil {
				return 0, err
			}
			if fresh {
				made++
			}
			players[key] = player
		}
		if err := db.importOne(tx, f, player, im); err != nil {
			return 0, err
		}
	}
	return made, nil
}

// importedPlayer returns the id of the player called im.Player, made
// (fresh) when there is none.
func importedPlayer(tx *sql.Tx, d dialect, im ImportedAttempt) (id int64, fresh bool, err error) {
	id, err = playerID(tx, d, im.Player)
	if err == nil {
		return id, false, nil
	}
	if !errors.Is(err, account.ErrNoPlayer) {
		return 0, false, err
	}
	if err := playerLookalikeFree(tx, d, im.Player); err != nil {
		return 0, false, fmt.Errorf("make player %q: %w", im.Player, err)
	}
	p, err := insertPlayer(tx, d, im.Player, "", account.RolePlayer, im.At)
	if err != nil {
		return 0, false, fmt.Errorf("make player %q: %w", im.Player, err)
	}
	return p.ID, true, nil
}

// importOne records one imported attempt of player in tx, with f's
// statements.
func (db *DB) importOne(tx *sql.Tx, f *finisher, player int64, im ImportedAttempt) error {
	var key []byte
	var grade int
	var technique string
	err := tx.QueryRow(db.d.sql("SELECT coalesce(canonical_key, givens_key), grade, technique FROM puzzles WHERE id = ?"), im.PuzzleID).Scan(&key, &grade, &technique)
	if err != nil {
		return fmt.Errorf("puzzle %d: %w", im.PuzzleID, err)
	}
	var before int64
	if err := f.first.QueryRow(player, key).Scan(&before); err != nil {
		return err
	}
	a := account.Attempt{PlayerID: player, PuzzleID: im.PuzzleID, StartedAt: im.At.Add(-secondsOf(im.Seconds)), FinishedAt: im.At,
		Outcome: im.Outcome, Seconds: im.Seconds, Hints: im.Hints, First: before == 0, Grade: grade, Technique: technique}
	a.Counted = a.First
	err = tx.QueryRow(db.d.sql(`INSERT INTO attempts (player_id, puzzle_id, class_key, started_at, finished_at, outcome, seconds, hints, first, counted)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), player, im.PuzzleID, key, a.StartedAt.UnixNano(), a.FinishedAt.UnixNano(),
		string(a.Outcome), a.Seconds, a.Hints, flag(a.First), flag(a.Counted)).Scan(&a.ID)
	if err != nil {
		return fmt.Errorf("record the attempt: %w", err)
	}
	if _, err := tx.Exec(db.d.sql("UPDATE players SET attempts = attempts + 1 WHERE id = ?"), player); err != nil {
		return err
	}
	if a.Counted {
		o := ratings.Observation{Seconds: a.Seconds, Solved: a.Outcome == account.OutcomeSolved, Hints: a.Hints}
		_, after, err := f.rater.rate(player, key, int64(grade), o)
		if err != nil {
			return err
		}
		if _, err := f.skill.Exec(after, a.ID); err != nil {
			return err
		}
	}
	return f.figures(a, key, im.At)
}

// secondsOf is s seconds as a duration.
func secondsOf(s int64) time.Duration { return time.Duration(s) * time.Second }

// IDsByGivens returns the id of the archived puzzle of each of gs (by its
// givens), 0 for one not archived or hidden.
func (db *DB) IDsByGivens(ctx context.Context, gs []sudoku.Grid) ([]int64, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	st, err := db.reader.PrepareContext(ctx, db.d.sql("SELECT id FROM puzzles WHERE givens_key = ? AND "+visible))
	if err != nil {
		return nil, fmt.Errorf("find puzzles: %w", err)
	}
	defer st.Close()
	ids := make([]int64, len(gs))
	for i, g := range gs {
		err := st.QueryRowContext(ctx, g.Key()).Scan(&ids[i])
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("find puzzle %s: %w", g, err)
		}
	}
	return ids, nil
}
