package store

// sessionread.go reads the players of concurrent requests' sessions
// together on PostgreSQL: every request of a signed-in player reads its
// session's player, and a round trip costs both sides more CPU than the
// read itself (issue 36). The requests waiting while one read runs are
// read in one statement after it, as the finishes are committed
// (finishQueue): no goroutine of the store's own, no wait when none runs.

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// sessionPlayerSQL is SessionPlayer's statement.
const sessionPlayerSQL = "SELECT " + playerColumns +
	" FROM sessions JOIN players ON players.id = sessions.player_id WHERE sessions.token_hash = ? AND sessions.expires_at > ?"

// sessionPlayersSQL is sessionPlayerSQL for several sessions ($1 the
// hashes, $2 each one's time): a row (n, the place in the arrays from 1,
// and the player) for each live session found, each found by its key
// whatever the plan makes of the arrays.
const sessionPlayersSQL = `SELECT r.n, x.* FROM unnest($1::bytea[], $2::bigint[]) WITH ORDINALITY AS r (hash, now, n),
LATERAL (SELECT ` + playerColumns + ` FROM sessions JOIN players ON players.id = sessions.player_id
    WHERE sessions.token_hash = r.hash AND sessions.expires_at > r.now) AS x`

// maxSessionReads bounds a read of several sessions.
const maxSessionReads = 64

type sessionReq struct {
	hash []byte
	now  time.Time
	done chan sessionResult // buffered
}

type sessionResult struct {
	p    account.Player
	err  error
	lead bool // not a result: the receiver is to read the next group
}

// sessionQueue gathers concurrent SessionPlayer calls on PostgreSQL into
// reads of several sessions (turns).
type sessionQueue struct {
	turns turns[*sessionReq]
}

func (q *sessionQueue) do(ctx context.Context, db *DB, r *sessionReq) sessionResult {
	var res sessionResult
	group := q.turns.join(r, maxSessionReads, func() bool { res = <-r.done; return res.lead })
	if group == nil {
		return res
	}
	db.readSessions(ctx, group)
	q.turns.done(func(next *sessionReq) { next.done <- sessionResult{lead: true} })
	return <-r.done
}

// readSessions answers each of the group's requests: one statement for
// them all (the leader's context, uncancelled when others wait on it).
func (db *DB) readSessions(ctx context.Context, group []*sessionReq) {
	if len(group) == 1 {
		r := group[0]
		p, err := scanPlayer(db.reader.QueryRowContext(ctx, db.d.sql(sessionPlayerSQL), r.hash, r.now.UnixNano()).Scan)
		r.done <- sessionResult{p: p, err: err}
		return
	}
	found, err := db.sessionPlayers(context.WithoutCancel(ctx), group)
	for i, r := range group {
		switch p, ok := found[i]; {
		case err != nil:
			r.done <- sessionResult{err: err}
		case !ok:
			r.done <- sessionResult{err: sql.ErrNoRows}
		default:
			r.done <- sessionResult{p: p}
		}
	}
}

// sessionPlayers runs sessionPlayersSQL for group: the players found, by
// place in group.
func (db *DB) sessionPlayers(ctx context.Context, group []*sessionReq) (map[int]account.Player, error) {
	hashes, nows := make([][]byte, len(group)), make([]int64, len(group))
	for i, r := range group {
		hashes[i], nows[i] = r.hash, r.now.UnixNano()
	}
	rows, err := db.reader.QueryContext(ctx, sessionPlayersSQL, hashes, nows)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	found := make(map[int]account.Player, len(group))
	for rows.Next() {
		var n int64
		p, err := scanPlayer(func(dest ...any) error { return rows.Scan(append([]any{&n}, dest...)...) })
		if err != nil {
			return nil, err
		}
		if n < 1 || int(n) > len(group) {
			return nil, fmt.Errorf("session: row %d of %d", n, len(group)) // not reached
		}
		found[int(n-1)] = p
	}
	return found, rows.Err()
}
