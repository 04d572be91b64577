package store

// audit.go: the audit trail (migration 00015). The store only ever
// inserts into it, in the transaction of the act it records; the table's
// triggers refuse an UPDATE or DELETE from anyone.

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// record adds e to the audit trail in tx, at e.At (now when zero).
func addAudit(tx *sql.Tx, d dialect, e moderation.Entry) error {
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	if e.Actor.Via == "" {
		e.Actor.Via = moderation.ViaCLI
	}
	_, err := tx.Exec(d.sql(`INSERT INTO audit (at, actor_id, actor_name, via, action, puzzle_id, player_id, player_name, reason, detail)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
		e.At.UnixNano(), nullID(e.Actor.ID), e.Actor.Name, string(e.Actor.Via), string(e.Action),
		nullID(e.PuzzleID), nullID(e.PlayerID), e.PlayerName, e.Reason, e.Detail)
	if err != nil {
		return fmt.Errorf("record %s in the audit trail: %w", e.Action, err)
	}
	return nil
}

// nullID is NULL for 0, the id otherwise.
func nullID(id int64) sql.NullInt64 { return sql.NullInt64{Int64: id, Valid: id > 0} }

// Audit pages the audit trail, newest first: at most limit entries
// (1..moderation.MaxAuditPage) with ids below before (0: from the newest).
// The next page is the one before the last entry's id.
func (db *DB) Audit(ctx context.Context, before int64, limit int) ([]moderation.Entry, error) {
	if db.isClosed() {
		return nil, ErrClosed
	}
	if limit < 1 || limit > moderation.MaxAuditPage {
		return nil, &moderation.InputError{Field: "limit", Msg: fmt.Sprintf("limit must be 1 to %d", moderation.MaxAuditPage)}
	}
	if before <= 0 {
		before = math.MaxInt64
	}
	rows, err := db.reader.QueryContext(ctx, db.d.sql(`SELECT id, at, actor_id, actor_name, via, action, puzzle_id, player_id, player_name, reason, detail
FROM audit WHERE id < ? ORDER BY id DESC LIMIT ?`), before, limit)
	if err != nil {
		return nil, fmt.Errorf("read the audit trail: %w", err)
	}
	defer rows.Close()
	var es []moderation.Entry
	for rows.Next() {
		var e moderation.Entry
		var at int64
		var actor, puzzle, player sql.NullInt64
		var via, action string
		if err := rows.Scan(&e.ID, &at, &actor, &e.Actor.Name, &via, &action, &puzzle, &player, &e.PlayerName, &e.Reason, &e.Detail); err != nil {
			return nil, fmt.Errorf("read the audit trail: %w", err)
		}
		e.At, e.Actor.ID, e.Actor.Via, e.Action = time.Unix(0, at).UTC(), actor.Int64, moderation.Via(via), moderation.Action(action)
		e.PuzzleID, e.PlayerID = puzzle.Int64, player.Int64
		es = append(es, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the audit trail: %w", err)
	}
	return es, nil
}
