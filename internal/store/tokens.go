package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// AddToken stores the hash of a new API token of the player called name,
// and records in the audit trail that by issued it.
func (db *DB) AddToken(ctx context.Context, name string, hash []byte, by moderation.Actor) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		id, stored, err := playerNamed(tx, db.d, name)
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		if _, err = tx.Exec(db.d.sql("INSERT INTO tokens (token_hash, player_id, created_at) VALUES (?, ?, ?)"), hash, id, now.UnixNano()); err != nil {
			return err
		}
		return record(tx, db.d, moderation.Entry{At: now, Actor: by, Action: moderation.ActionToken, PlayerID: id, PlayerName: stored})
	})
	if err != nil {
		return fmt.Errorf("add token of %q: %w", name, err)
	}
	return nil
}

// TokenPlayer returns the player of the API token whose hash is hash, or
// account.ErrNoPlayer.
func (db *DB) TokenPlayer(ctx context.Context, hash []byte) (account.Player, error) {
	row := db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+playerColumns+
		" FROM tokens JOIN players ON players.id = tokens.player_id WHERE tokens.token_hash = ?"), hash)
	p, err := scanPlayer(row.Scan)
	if err != nil {
		return account.Player{}, fmt.Errorf("token: %w", notFound(err))
	}
	return p, nil
}
