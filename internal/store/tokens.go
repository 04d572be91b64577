package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
)

// AddToken stores the hash of a new API token of the player called name.
func (db *DB) AddToken(ctx context.Context, name string, hash []byte) error {
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		id, err := playerID(tx, db.d, name)
		if err != nil {
			return err
		}
		_, err = tx.Exec(db.d.sql("INSERT INTO tokens (token_hash, player_id, created_at) VALUES (?, ?, ?)"), hash, id, time.Now().UTC().UnixNano())
		return err
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
