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

// seenMarks remembers the players whose seen_at this server wrote since
// the mark's hour began.
type seenMarks struct {
	mu    sync.Mutex
	since time.Time
	ids   map[int64]struct{}

	writes sync.WaitGroup // the writes under way, for the tests
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
// server did within the hour. The write runs beside the request, which
// never waits for it: a writer held elsewhere (an import holding SQLite's
// lock for seconds) must not stall a page. A failure (a full disk, the
// store closed meanwhile) costs only the prune's view of the player, so it
// is ignored.
func (db *DB) noteSeen(player int64, now time.Time) {
	if !db.seen.mark(player, now) {
		return
	}
	db.seen.writes.Add(1)
	go func() {
		defer db.seen.writes.Done()
		_ = db.writeIn(context.Background(), oneShard, func(tx *sql.Tx) error {
			_, err := tx.Exec(db.d.sql("UPDATE players SET seen_at = ? WHERE id = ? AND (seen_at IS NULL OR seen_at < ?)"),
				now.UnixNano(), player, now.Add(-seenEvery).UnixNano())
			return err
		})
	}()
}
