package store

// moderation.go: flags, hiding, restoring and deleting puzzles
// (docs/moderation.md). Each act is one write transaction that also
// keeps the counters exact (recount.go) and records the act in the audit
// trail (audit.go).

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// Flag records player's flag on the visible puzzle puzzleID, or fails
// with record.ErrNotFound (no such visible puzzle) or
// moderation.ErrFlagged (the player flagged it before).
func (db *DB) Flag(ctx context.Context, puzzleID, player int64, reason moderation.Reason, text string) (moderation.Flag, error) {
	if _, err := moderation.ParseReason(string(reason)); err != nil {
		return moderation.Flag{}, err
	}
	if err := moderation.CheckText("text", text, moderation.MaxFlagText); err != nil {
		return moderation.Flag{}, err
	}
	f := moderation.Flag{PuzzleID: puzzleID, PlayerID: player, Reason: reason, Text: text,
		CreatedAt: time.Now().UTC(), Status: moderation.StatusOpen}
	err := db.write(ctx, func(tx *sql.Tx) error {
		// FOR SHARE: a hide of the puzzle waits for this flag, and resolves it.
		lock := ""
		if db.d.postgres {
			lock = " FOR SHARE"
		}
		var one int
		err := tx.QueryRow(db.d.sql("SELECT 1 FROM puzzles WHERE id = ? AND "+visible+lock), puzzleID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("puzzle %d: %w", puzzleID, record.ErrNotFound)
		}
		if err != nil {
			return err
		}
		err = tx.QueryRow(db.d.sql("SELECT id FROM flags WHERE puzzle_id = ? AND player_id = ?"), puzzleID, player).Scan(&f.ID)
		if err == nil {
			return moderation.ErrFlagged
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		err = tx.QueryRow(db.d.sql(`INSERT INTO flags (puzzle_id, player_id, reason, text, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id`),
			puzzleID, player, string(reason), text, f.CreatedAt.UnixNano()).Scan(&f.ID)
		if err != nil && (pgCode(err) == "23505" || sqliteCode(err) == 19) {
			return moderation.ErrFlagged // the same player's other request, at the same moment
		}
		if err != nil {
			return err
		}
		return tx.QueryRow(db.d.sql("SELECT coalesce(name, '') FROM players WHERE id = ?"), player).Scan(&f.PlayerName)
	})
	if err != nil {
		return moderation.Flag{}, fmt.Errorf("flag puzzle %d: %w", puzzleID, err)
	}
	return f, nil
}

// flagColumns are the columns scanFlag reads.
const flagColumns = `flags.id, flags.puzzle_id, flags.player_id, coalesce(players.name, ''), flags.reason, flags.text,
    flags.created_at, flags.status, flags.resolved_by, flags.resolved_at`

func scanFlag(scan func(...any) error) (moderation.Flag, error) {
	var f moderation.Flag
	var created int64
	var by, at sql.NullInt64
	var reason, status string
	if err := scan(&f.ID, &f.PuzzleID, &f.PlayerID, &f.PlayerName, &reason, &f.Text, &created, &status, &by, &at); err != nil {
		return f, err
	}
	f.Reason, f.Status, f.CreatedAt, f.ResolvedBy = moderation.Reason(reason), moderation.Status(status), time.Unix(0, created).UTC(), by.Int64
	if at.Valid {
		f.ResolvedAt = time.Unix(0, at.Int64).UTC()
	}
	return f, nil
}

// OpenFlags pages the moderators' queue: the visible puzzles with open
// flags, each with its open flags, oldest first, in the order of their
// oldest open flag; at most limit (1..100) puzzles whose oldest open flag
// comes after the flag id after (0 for the first page; the next page
// follows the last entry's Flags[0].ID).
func (db *DB) OpenFlags(ctx context.Context, after int64, limit int) ([]moderation.Flagged, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	if limit < 1 || limit > record.MaxLimit {
		return nil, &moderation.InputError{Field: "limit", Msg: fmt.Sprintf("limit must be 1 to %d", record.MaxLimit)}
	}
	tx, err := db.reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("open flags: %w", err)
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, db.d.sql(`SELECT f.puzzle_id, min(f.id) AS first FROM flags AS f JOIN puzzles AS p ON p.id = f.puzzle_id
WHERE f.status = 'open' AND p.`+visible+` GROUP BY f.puzzle_id HAVING min(f.id) > ? ORDER BY first LIMIT ?`), after, limit)
	if err != nil {
		return nil, fmt.Errorf("open flags: %w", err)
	}
	var ids []int64
	for rows.Next() {
		var id, first int64
		if err := rows.Scan(&id, &first); err != nil {
			rows.Close()
			return nil, fmt.Errorf("open flags: %w", err)
		}
		ids = append(ids, id)
	}
	if err := rows.Close(); err != nil {
		return nil, fmt.Errorf("open flags: %w", err)
	}
	out := make([]moderation.Flagged, 0, len(ids))
	for _, id := range ids {
		e, err := db.flagged(ctx, tx, id)
		if err != nil {
			return nil, fmt.Errorf("open flags of puzzle %d: %w", id, err)
		}
		out = append(out, e)
	}
	return out, tx.Commit()
}

// flagged reads a puzzle and its open flags in tx.
func (db *DB) flagged(ctx context.Context, tx *sql.Tx, id int64) (moderation.Flagged, error) {
	var e moderation.Flagged
	p, err := scanPuzzle(tx.QueryRowContext(ctx, db.d.sql("SELECT "+columns+" FROM puzzles WHERE id = ?"), id).Scan)
	if err != nil {
		return e, err
	}
	e.Puzzle = p
	rows, err := tx.QueryContext(ctx, db.d.sql("SELECT "+flagColumns+` FROM flags LEFT JOIN players ON players.id = flags.player_id
WHERE flags.puzzle_id = ? AND flags.status = 'open' ORDER BY flags.id`), id)
	if err != nil {
		return e, err
	}
	defer rows.Close()
	for rows.Next() {
		f, err := scanFlag(rows.Scan)
		if err != nil {
			return e, err
		}
		e.Flags = append(e.Flags, f)
	}
	return e, rows.Err()
}

// resolveFlags closes the open flags of a puzzle as status, by who.
func resolveFlags(tx *sql.Tx, d dialect, puzzleID int64, status moderation.Status, by moderation.Actor, at time.Time) (int64, error) {
	res, err := tx.Exec(d.sql("UPDATE flags SET status = ?, resolved_by = ?, resolved_at = ? WHERE puzzle_id = ? AND status = 'open'"),
		string(status), nullID(by.ID), at.UnixNano(), puzzleID)
	if err != nil {
		return 0, fmt.Errorf("resolve flags: %w", err)
	}
	return res.RowsAffected()
}

// Dismiss closes the open flags of the visible puzzle puzzleID without
// hiding it and records it; moderation.ErrNoOpenFlags when it has none.
func (db *DB) Dismiss(ctx context.Context, puzzleID int64, by moderation.Actor, reason string) (int, error) {
	if err := moderation.CheckText("reason", reason, moderation.MaxReason); err != nil {
		return 0, err
	}
	var n int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		f, err := readFacts(tx, db.d, puzzleID)
		if err != nil {
			return err
		}
		if f.hidden {
			return fmt.Errorf("puzzle %d: %w", puzzleID, record.ErrNotFound)
		}
		now := time.Now().UTC()
		if n, err = resolveFlags(tx, db.d, puzzleID, moderation.StatusDismissed, by, now); err != nil {
			return err
		}
		if n == 0 {
			return moderation.ErrNoOpenFlags
		}
		return addAudit(tx, db.d, moderation.Entry{At: now, Actor: by, Action: moderation.ActionDismiss, PuzzleID: puzzleID,
			Reason: reason, Detail: fmt.Sprintf("%d flags", n)})
	})
	if err != nil {
		return 0, fmt.Errorf("dismiss the flags of puzzle %d: %w", puzzleID, err)
	}
	return int(n), nil
}

// HidePuzzle hides the visible puzzle puzzleID: every read but ModPuzzle leaves
// it out, the counters stop counting it, a submission of any way of
// writing it is refused with reason, its open flags are resolved, and it
// is no longer the puzzle of the day for today or a day to come (the
// keeper chooses again). It fails with moderation.ErrAlreadyHidden or
// record.ErrNotFound.
func (db *DB) HidePuzzle(ctx context.Context, puzzleID int64, by moderation.Actor, reason string) (moderation.Hidden, error) {
	reason, err := moderation.CheckReason(reason)
	if err != nil {
		return moderation.Hidden{}, err
	}
	h := moderation.Hidden{PuzzleID: puzzleID, By: by.ID, ByName: by.Name, At: time.Now().UTC(), Reason: reason}
	err = db.write(ctx, func(tx *sql.Tx) error {
		f, err := readFacts(tx, db.d, puzzleID)
		if err != nil {
			return err
		}
		if f.hidden {
			return moderation.ErrAlreadyHidden
		}
		if _, err := tx.Exec(db.d.sql("UPDATE puzzles SET hidden = 1 WHERE id = ?"), puzzleID); err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("INSERT INTO hidden_puzzles (puzzle_id, class_key, hidden_by, hidden_at, reason) VALUES (?, ?, ?, ?, ?)"),
			puzzleID, f.classKey, nullID(by.ID), h.At.UnixNano(), reason); err != nil {
			return err
		}
		n, err := resolveFlags(tx, db.d, puzzleID, moderation.StatusHidden, by, h.At)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("DELETE FROM daily WHERE puzzle_id = ? AND date >= ?"), puzzleID, h.At.Format(time.DateOnly)); err != nil {
			return err
		}
		var s share
		s.row(&f, -1)
		if err := s.apply(tx, db.d); err != nil {
			return err
		}
		return addAudit(tx, db.d, moderation.Entry{At: h.At, Actor: by, Action: moderation.ActionHide, PuzzleID: puzzleID,
			Reason: reason, Detail: fmt.Sprintf("%d open flags resolved", n)})
	})
	if err != nil {
		return moderation.Hidden{}, fmt.Errorf("hide puzzle %d: %w", puzzleID, err)
	}
	return h, nil
}

// RestorePuzzle shows the hidden puzzle puzzleID again, counted as before, and
// records it; moderation.ErrNotHidden when it is not hidden.
func (db *DB) RestorePuzzle(ctx context.Context, puzzleID int64, by moderation.Actor, reason string) error {
	if err := moderation.CheckText("reason", reason, moderation.MaxReason); err != nil {
		return err
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		f, err := readFacts(tx, db.d, puzzleID)
		if err != nil {
			return err
		}
		if !f.hidden {
			return moderation.ErrNotHidden
		}
		if _, err := tx.Exec(db.d.sql("UPDATE puzzles SET hidden = 0 WHERE id = ?"), puzzleID); err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("DELETE FROM hidden_puzzles WHERE puzzle_id = ?"), puzzleID); err != nil {
			return err
		}
		var s share
		s.row(&f, 1)
		if err := s.apply(tx, db.d); err != nil {
			return err
		}
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionRestore, PuzzleID: puzzleID, Reason: reason})
	})
	if err != nil {
		return fmt.Errorf("restore puzzle %d: %w", puzzleID, err)
	}
	return nil
}

// ModPuzzle is the moderators' read of a puzzle: a hidden one too
// (p.Hidden), with who hid it, when and why (nil for a visible one).
func (db *DB) ModPuzzle(ctx context.Context, id int64) (record.Puzzle, *moderation.Hidden, error) {
	if db.isClosed() {
		return record.Puzzle{}, nil, ErrClosed
	}
	p, err := scanPuzzle(db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+columns+" FROM puzzles WHERE id = ?"), id).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return p, nil, fmt.Errorf("puzzle %d: %w", id, record.ErrNotFound)
	}
	if err != nil || !p.Hidden {
		return p, nil, err
	}
	h := moderation.Hidden{PuzzleID: id}
	var by sql.NullInt64
	var at int64
	err = db.reader.QueryRowContext(ctx, db.d.sql(`SELECT h.hidden_by, coalesce(p.name, ''), h.hidden_at, h.reason
FROM hidden_puzzles AS h LEFT JOIN players AS p ON p.id = h.hidden_by WHERE h.puzzle_id = ?`), id).Scan(&by, &h.ByName, &at, &h.Reason)
	if errors.Is(err, sql.ErrNoRows) { // restored between the two reads
		p.Hidden = false
		return p, nil, nil
	}
	if err != nil {
		return p, nil, fmt.Errorf("who hid puzzle %d: %w", id, err)
	}
	h.By, h.At = by.Int64, time.Unix(0, at).UTC()
	return p, &h, nil
}

// hiddenClasses returns the hidden puzzles by class key (their canonical
// key, or givens key): few rows, the puzzles moderators hid.
func hiddenClasses(q interface {
	Query(string, ...any) (*sql.Rows, error)
}) (moderation.HiddenSet, error) {
	rows, err := q.Query("SELECT class_key, puzzle_id, reason FROM hidden_puzzles")
	if err != nil {
		return nil, fmt.Errorf("read hidden puzzles: %w", err)
	}
	defer rows.Close()
	var m moderation.HiddenSet
	for rows.Next() {
		var key []byte
		h := &moderation.HiddenError{}
		if err := rows.Scan(&key, &h.PuzzleID, &h.Reason); err != nil {
			return nil, fmt.Errorf("read hidden puzzles: %w", err)
		}
		if m == nil {
			m = make(moderation.HiddenSet)
		}
		m[string(key)] = h
	}
	return m, rows.Err()
}

// refuseHidden fails with a *moderation.HiddenError when one of ps is
// another way of writing (or the same givens as) a hidden puzzle: checked
// in the write transaction, so a hide and a submission of the same puzzle
// at the same moment cannot both succeed.
func refuseHidden(tx *sql.Tx, ps []record.Puzzle) error {
	m, err := hiddenClasses(tx)
	if err != nil {
		return err
	}
	for i := range ps {
		if h := m.Of(&ps[i]); h != nil {
			return h
		}
	}
	return nil
}

// HiddenClasses returns the hidden puzzles by class: the import pipelines
// (bulk.Import) reject the lines that are ways of writing them, with the
// reason, before they write (the write refuses them again, see
// refuseHidden).
func (db *DB) HiddenClasses(ctx context.Context) (moderation.HiddenSet, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	return hiddenClasses(readerQuery{ctx, db.reader})
}

// readerQuery queries the pool with a context.
type readerQuery struct {
	ctx context.Context
	db  *sql.DB
}

func (r readerQuery) Query(q string, args ...any) (*sql.Rows, error) {
	return r.db.QueryContext(r.ctx, q, args...)
}
