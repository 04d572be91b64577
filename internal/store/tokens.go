package store

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// AddToken stores the hash of a new API token of the player called name,
// and records in the audit trail that by issued it. It returns the
// token's id (what `sudoku user tokens` lists and revoke takes).
func (db *DB) AddToken(ctx context.Context, name string, hash []byte, by moderation.Actor) (int64, error) {
	var tokenID int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		id, stored, err := playerNamed(tx, db.d, name)
		if err != nil {
			return err
		}
		now := time.Now().UTC()
		err = tx.QueryRow(db.d.sql("INSERT INTO tokens (token_hash, player_id, created_at) VALUES (?, ?, ?) RETURNING id"), hash, id, now.UnixNano()).Scan(&tokenID)
		if err != nil {
			return err
		}
		return addAudit(tx, db.d, moderation.Entry{At: now, Actor: by, Action: moderation.ActionToken, PlayerID: id, PlayerName: stored,
			Detail: "token " + strconv.FormatInt(tokenID, 10)})
	})
	if err != nil {
		return 0, fmt.Errorf("add token of %q: %w", name, err)
	}
	return tokenID, nil
}

// tokenTouch is how stale a token's last use may get before a use writes
// it again: a script calling every second writes once a minute.
const tokenTouch = time.Minute

// TokenPlayer returns the player of the API token whose hash is hash, or
// account.ErrNoPlayer, and notes the token's use (at most once per
// tokenTouch).
func (db *DB) TokenPlayer(ctx context.Context, hash []byte) (account.Player, error) {
	var id int64
	var last sql.NullInt64
	row := db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+playerColumns+
		", tokens.id, tokens.last_used_at FROM tokens JOIN players ON players.id = tokens.player_id WHERE tokens.token_hash = ?"), hash)
	p, err := scanPlayer(func(dest ...any) error { return row.Scan(append(dest, &id, &last)...) })
	if err != nil {
		return account.Player{}, fmt.Errorf("token: %w", notFound(err))
	}
	now := time.Now()
	if !last.Valid || now.Sub(time.Unix(0, last.Int64)) >= tokenTouch {
		err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
			_, err := tx.Exec(db.d.sql("UPDATE tokens SET last_used_at = ? WHERE id = ?"), now.UnixNano(), id)
			return err
		})
		if err != nil {
			return account.Player{}, fmt.Errorf("note the use of token %d: %w", id, err)
		}
	}
	return p, nil
}

// PlayerNamed returns the player whose name has name's key
// (account.NameKey), or account.ErrNoPlayer.
func (db *DB) PlayerNamed(ctx context.Context, name string) (account.Player, error) {
	p, err := scanPlayer(db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+playerColumns+" FROM players WHERE name_key = ?"), account.NameKey(name)).Scan)
	if err != nil {
		return account.Player{}, fmt.Errorf("player %q: %w", name, notFound(err))
	}
	return p, nil
}

// Tokens lists the API tokens of player, oldest first: ids and dates,
// never the tokens.
func (db *DB) Tokens(ctx context.Context, player int64) ([]account.Token, error) {
	rows, err := db.reader.QueryContext(ctx, db.d.sql("SELECT id, created_at, last_used_at FROM tokens WHERE player_id = ? ORDER BY id"), player)
	if err != nil {
		return nil, fmt.Errorf("list tokens of player %d: %w", player, err)
	}
	defer rows.Close()
	ts := []account.Token{}
	for rows.Next() {
		var t account.Token
		var created int64
		var last sql.NullInt64
		if err := rows.Scan(&t.ID, &created, &last); err != nil {
			return nil, fmt.Errorf("list tokens of player %d: %w", player, err)
		}
		t.Created = time.Unix(0, created).UTC()
		if last.Valid {
			t.LastUsed = time.Unix(0, last.Int64).UTC()
		}
		ts = append(ts, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list tokens of player %d: %w", player, err)
	}
	return ts, nil
}

// RevokeToken deletes the API token id of player, and records in the
// audit trail that by revoked it. A token that is not player's (or is
// gone already) is account.ErrNoToken.
func (db *DB) RevokeToken(ctx context.Context, player, id int64, by moderation.Actor) error {
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		var name sql.NullString
		if err := tx.QueryRow(db.d.sql("SELECT name FROM players WHERE id = ?"), player).Scan(&name); err != nil {
			return notFound(err)
		}
		res, err := tx.Exec(db.d.sql("DELETE FROM tokens WHERE id = ? AND player_id = ?"), id, player)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return cmp.Or(err, account.ErrNoToken)
		}
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionTokenRevoke, PlayerID: player, PlayerName: name.String,
			Detail: "token " + strconv.FormatInt(id, 10)})
	})
	if err != nil {
		return fmt.Errorf("revoke token %d of player %d: %w", id, player, err)
	}
	return nil
}
