package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// pruneBatch is how many players one transaction of PruneAnonymous
// deletes: the writer is held for a batch at a time, so a server on the
// archive goes on answering while a prune runs.
const pruneBatch = 500

// PruneResult says what PruneAnonymous deleted.
type PruneResult struct {
	Players, Attempts, Sessions int64
	// Reports are the pruned players' moderation reports (flags), deleted
	// with them (a report names its player); OpenReports of them were
	// still open, waiting for a moderator. Said in the audit entry and by
	// the command (issue 50: they went unsaid).
	Reports, OpenReports int64
}

// PruneAnonymous deletes the anonymous players (no name: never signed up)
// made before cutoff that showed no sign of life since (pruneIdleSQL: an
// attempt started or finished, a flag, a session used), with their attempts,
// sessions, per-player figures and moderation reports (counted, the open
// ones apart, in the audit entry), as deleting an account does
// (DeletePlayer): what their attempts did to the puzzles' figures stays;
// the puzzles and collections they made stay, no longer naming them. It
// also ends every session that expired before now. Each batch of
// pruneBatch players is one transaction with its audit entry (action
// players_prune), so an interrupted prune keeps what it did and says so.
func (db *DB) PruneAnonymous(ctx context.Context, cutoff time.Time, by moderation.Actor) (PruneResult, error) {
	var res PruneResult
	if db.isClosed() {
		return res, ErrClosed
	}
	for {
		n, err := db.pruneBatch(ctx, cutoff, by, &res)
		if err != nil {
			return res, fmt.Errorf("prune anonymous players: %w", err)
		}
		if n < pruneBatch {
			break
		}
	}
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		r, err := tx.Exec(db.d.sql("DELETE FROM sessions WHERE expires_at <= ?"), time.Now().UnixNano())
		if err == nil {
			n, _ := r.RowsAffected()
			res.Sessions += n
		}
		return err
	})
	if err != nil {
		return res, fmt.Errorf("prune expired sessions: %w", err)
	}
	return res, nil
}

// pruneSQL deletes the history of the players in a list of ids (the %s),
// as DeletePlayer does one player's, the attempts and sessions first,
// whose counts PruneResult gives.
var pruneSQL = []string{
	"DELETE FROM attempts WHERE player_id IN (%s)",
	"DELETE FROM sessions WHERE player_id IN (%s)",
	"DELETE FROM tokens WHERE player_id IN (%s)",
	"DELETE FROM player_grades WHERE player_id IN (%s)",
	"DELETE FROM player_techniques WHERE player_id IN (%s)",
	"DELETE FROM flags WHERE player_id IN (%s)",
	"UPDATE puzzles SET submitted_by = NULL WHERE submitted_by IN (%s)",
	"UPDATE collections SET owner_id = NULL WHERE owner_id IN (%s)",
	"DELETE FROM players WHERE id IN (%s)",
}

// pruneIdleSQL finds the anonymous players of a prune: made before the
// cutoff (every ? but the limit) and showing no sign of life since, of
// every kind the archive keeps: no attempt started or finished, no flag
// made, no session used (seen_at, written hourly: seen.go). Counting only
// attempts started pruned a player who finished one, flagged a puzzle or
// visited within the window (issue 45).
const pruneIdleSQL = `SELECT id FROM players AS p WHERE name IS NULL AND created_at < ?
AND coalesce(p.seen_at, 0) < ?
AND NOT EXISTS (SELECT 1 FROM attempts AS a WHERE a.player_id = p.id AND (a.started_at >= ? OR a.finished_at >= ?))
AND NOT EXISTS (SELECT 1 FROM flags AS f WHERE f.player_id = p.id AND f.created_at >= ?)
ORDER BY id LIMIT ?`

// pruneBatch deletes up to pruneBatch players of PruneAnonymous in one
// transaction and returns how many.
func (db *DB) pruneBatch(ctx context.Context, cutoff time.Time, by moderation.Actor, res *PruneResult) (int, error) {
	var n int
	var counts [2]int64 // attempts, sessions: set by the try that commits
	var reports, open int64
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		c := cutoff.UnixNano()
		ids, err := int64s(tx.Query(db.d.sql(pruneIdleSQL), c, c, c, c, c, pruneBatch))
		if err != nil || len(ids) == 0 {
			n = 0
			return err
		}
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		in := strings.TrimSuffix(strings.TrimPrefix(placeholders(len(ids)), "("), ")")
		if reports, open, err = countReports(tx, db.d, in, args); err != nil {
			return err
		}
		for i, q := range pruneSQL {
			r, err := tx.Exec(db.d.sql(fmt.Sprintf(q, in)), args...)
			if err != nil {
				return err
			}
			if i < len(counts) {
				counts[i], _ = r.RowsAffected()
			}
		}
		n = len(ids)
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionPrune,
			Detail: fmt.Sprintf("%d anonymous players not seen since %s, with %d attempts, %d sessions and %d moderation reports (%d open)",
				n, cutoff.UTC().Format(time.DateOnly), counts[0], counts[1], reports, open)})
	})
	if err == nil {
		res.Players, res.Attempts, res.Sessions = res.Players+int64(n), res.Attempts+counts[0], res.Sessions+counts[1]
		res.Reports, res.OpenReports = res.Reports+reports, res.OpenReports+open
	}
	return n, err
}

// countReports counts the moderation reports of the players in a list of
// ids (in, the placeholders; args, the ids), and the open ones among them.
func countReports(tx *sql.Tx, d dialect, in string, args []any) (all, open int64, err error) {
	q := fmt.Sprintf("SELECT count(*), coalesce(sum(CASE WHEN status = 'open' THEN 1 ELSE 0 END), 0) FROM flags WHERE player_id IN (%s)", in)
	err = tx.QueryRow(d.sql(q), args...).Scan(&all, &open)
	return all, open, err
}
