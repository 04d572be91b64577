package store

// seen.go records when a player was last seen by a session (players.seen_at,
// migration 00024), a sign of life that PruneAnonymous counts beside the
// attempts and flags (issue 45: an anonymous player who visited today but
// started nothing was pruned as idle).

import (
	"context"
	"database/sql"
	"sync"
	"time"
)

// seenEvery is how often each server writes a player's seen_at at most:
// a prune's cutoff is days, so an hour's lag costs nothing, and a player
// costs a write an hour, not one a request.
const seenEvery = time.Hour

// seenWait bounds how long a request waits for the write to be taken: a
// writer held elsewhere (an import) must not stall a page.
const seenWait = 250 * time.Millisecond

// seenMarks remembers the players whose seen_at this server wrote since
// the mark's hour began.
type seenMarks struct {
	mu    sync.Mutex
	since time.Time
	ids   map[int64]struct{}
}

// mark reports whether player's seen_at is to be written now, and
// remembers it until the hour is over.
func (m *seenMarks) mark(player int64, now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ids == nil || now.Sub(m.since) >= seenEvery || now.Before(m.since) {
		m.ids, m.since = map[int64]struct{}{}, now
	}
	if _, ok := m.ids[player]; ok {
		return false
	}
	m.ids[player] = struct{}{}
	return true
}

// noteSeen records that a session of player was used at now, unless this
// server did within the hour. A failure (a full disk, a writer held past
// seenWait) costs only the prune's view of the player, so it is ignored.
func (db *DB) noteSeen(ctx context.Context, player int64, now time.Time) {
	if !db.seen.mark(player, now) {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), seenWait)
	defer cancel()
	_ = db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("UPDATE players SET seen_at = ? WHERE id = ? AND (seen_at IS NULL OR seen_at < ?)"),
			now.UnixNano(), player, now.Add(-seenEvery).UnixNano())
		return err
	})
}
