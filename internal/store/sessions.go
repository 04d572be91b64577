package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

func insertSession(tx *sql.Tx, d dialect, hash []byte, player int64, now, expires time.Time) error {
	_, err := tx.Exec(d.sql("INSERT INTO sessions (token_hash, player_id, created_at, expires_at) VALUES (?, ?, ?, ?)"),
		hash, player, now.UnixNano(), expires.UnixNano())
	return err
}

// SessionPlayer returns the player of the session whose token hashes to
// hash, or account.ErrNoPlayer when there is no such session or it expired
// before now.
func (db *DB) SessionPlayer(ctx context.Context, hash []byte, now time.Time) (account.Player, error) {
	var p account.Player
	var err error
	if db.d.postgres {
		// Read with the sessions of the requests beside it (sessionread.go).
		res := db.sessions.do(ctx, db, &sessionReq{hash: hash, now: now, done: make(chan sessionResult, 1)})
		p, err = res.p, res.err
	} else {
		p, err = scanPlayer(db.reader.QueryRowContext(ctx, db.d.sql(sessionPlayerSQL), hash, now.UnixNano()).Scan)
	}
	if err != nil {
		return account.Player{}, fmt.Errorf("session: %w", notFound(err))
	}
	db.noteSeen(p.ID, now) // a visit is a sign of life (PruneAnonymous)
	return p, nil
}

// StartSession begins a session of player (a login): the session old, the
// browser's previous one if any, ends, so the session id changes; expired
// sessions of the player are swept.
func (db *DB) StartSession(ctx context.Context, player int64, old, session []byte, expires time.Time) error {
	now := time.Now().UTC()
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		if len(old) > 0 {
			if _, err := tx.Exec(db.d.sql("DELETE FROM sessions WHERE token_hash = ?"), old); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(db.d.sql("DELETE FROM sessions WHERE player_id = ? AND expires_at <= ?"), player, now.UnixNano()); err != nil {
			return err
		}
		return insertSession(tx, db.d, session, player, now, expires)
	})
	if err != nil {
		return fmt.Errorf("start session of player %d: %w", player, err)
	}
	return nil
}

// EndSession ends the session whose token hashes to hash (a logout). Ending
// a session that does not exist is not an error.
func (db *DB) EndSession(ctx context.Context, hash []byte) error {
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("DELETE FROM sessions WHERE token_hash = ?"), hash)
		return err
	})
	if err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}
