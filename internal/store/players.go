package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// playerColumns are the players table's columns as scanPlayer reads them.
const playerColumns = "players.id, players.name, players.role, players.skill, players.created_at, players.password IS NOT NULL"

// scanPlayer reads a row of playerColumns.
func scanPlayer(scan func(...any) error) (account.Player, error) {
	var p account.Player
	var name sql.NullString
	var role string
	var created int64
	var hasPassword bool
	if err := scan(&p.ID, &name, &role, &p.Skill, &created, &hasPassword); err != nil {
		return p, err
	}
	p.Name, p.Role, p.CreatedAt, p.HasPassword = name.String, account.Role(role), time.Unix(0, created).UTC(), hasPassword
	return p, nil
}

// notFound turns sql.ErrNoRows into account.ErrNoPlayer.
func notFound(err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		return account.ErrNoPlayer
	}
	return err
}

// nameTaken turns a unique violation of players_name into
// account.ErrNameTaken: another server named a player so between this
// transaction's check and its write.
func nameTaken(err error) error {
	if err != nil && (pgCode(err) == "23505" || sqliteCode(err) == 19) {
		return account.ErrNameTaken
	}
	return err
}

// NewPlayer makes an anonymous player and its first session (the hash of
// its token), valid until expires.
func (db *DB) NewPlayer(ctx context.Context, session []byte, expires time.Time) (account.Player, error) {
	var p account.Player
	now := time.Now().UTC()
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		var err error
		p, err = insertPlayer(tx, db.d, "", "", account.RolePlayer, now)
		if err != nil {
			return err
		}
		return insertSession(tx, db.d, session, p.ID, now, expires)
	})
	if err != nil {
		return account.Player{}, fmt.Errorf("new player: %w", err)
	}
	return p, nil
}

// insertPlayer makes a player called name (as account.DisplayName shows
// it, keyed by account.NameKey; "" for an anonymous player).
func insertPlayer(tx *sql.Tx, d dialect, name, password string, role account.Role, now time.Time) (account.Player, error) {
	var id int64
	shown, key := nameAndKey(name)
	err := tx.QueryRow(d.sql("INSERT INTO players (name, name_key, password, role, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id"),
		shown, key, nullString(password), string(role), now.UnixNano()).Scan(&id)
	if err != nil {
		return account.Player{}, nameTaken(err)
	}
	return account.Player{ID: id, Name: shown.String, Role: role, Skill: 1, CreatedAt: now, HasPassword: password != ""}, nil
}

// nameAndKey returns a player's name as stored (account.DisplayName) and
// its key (account.NameKey), both NULL for "" (an anonymous player).
func nameAndKey(name string) (sql.NullString, sql.NullString) {
	if name == "" {
		return sql.NullString{}, sql.NullString{}
	}
	return nullString(account.DisplayName(name)), nullString(account.NameKey(name))
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// nameFree fails with account.ErrNameTaken when a player's name has the
// key of name (account.NameKey: whatever its case, width or composition).
func nameFree(tx *sql.Tx, d dialect, name string) error {
	var id int64
	err := tx.QueryRow(d.sql("SELECT id FROM players WHERE name_key = ?"), account.NameKey(name)).Scan(&id)
	if err == nil {
		return account.ErrNameTaken
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	return err
}

// Signup names a player and starts a session of it: the anonymous player
// anon (its history kept) when anon > 0 and it has no name yet, else a new
// player. The session old (the browser's anonymous one, if any) ends and
// the session hash begins, so the session id changes. It fails with
// account.ErrNameTaken when the name is in use.
func (db *DB) Signup(ctx context.Context, anon int64, name, password string, old, session []byte, expires time.Time) (account.Player, error) {
	var p account.Player
	now := time.Now().UTC()
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		if err := nameFree(tx, db.d, name); err != nil {
			return err
		}
		var err error
		p, err = nameAnonymous(tx, db.d, anon, name, password)
		if errors.Is(err, account.ErrNoPlayer) {
			p, err = insertPlayer(tx, db.d, name, password, account.RolePlayer, now)
		}
		if err != nil {
			return err
		}
		if len(old) > 0 {
			if _, err := tx.Exec(db.d.sql("DELETE FROM sessions WHERE token_hash = ?"), old); err != nil {
				return err
			}
		}
		return insertSession(tx, db.d, session, p.ID, now, expires)
	})
	if err != nil {
		return account.Player{}, fmt.Errorf("sign up %q: %w", name, err)
	}
	return p, nil
}

// nameAnonymous gives the anonymous player anon a name and password, or
// fails with account.ErrNoPlayer when there is no such anonymous player.
func nameAnonymous(tx *sql.Tx, d dialect, anon int64, name, password string) (account.Player, error) {
	if anon <= 0 {
		return account.Player{}, account.ErrNoPlayer
	}
	shown, key := nameAndKey(name)
	row := tx.QueryRow(d.sql("UPDATE players SET name = ?, name_key = ?, password = ? WHERE id = ? AND name IS NULL RETURNING "+playerColumns),
		shown, key, password, anon)
	p, err := scanPlayer(row.Scan)
	return p, nameTaken(notFound(err))
}

// AddUser makes an account (sudoku user add): a named player with a
// password hash and a role; the audit trail records it, by by.
func (db *DB) AddUser(ctx context.Context, name, password string, role account.Role, by moderation.Actor) (account.Player, error) {
	var p account.Player
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		if err := nameFree(tx, db.d, name); err != nil {
			return err
		}
		var err error
		if p, err = insertPlayer(tx, db.d, name, password, role, time.Now().UTC()); err != nil {
			return err
		}
		return record(tx, db.d, moderation.Entry{At: p.CreatedAt, Actor: by, Action: moderation.ActionUserAdd,
			PlayerID: p.ID, PlayerName: p.Name, Detail: "role " + string(role)})
	})
	if err != nil {
		return account.Player{}, fmt.Errorf("add user %q: %w", name, err)
	}
	return p, nil
}

// SetPassword replaces the password hash of the player called name and
// ends its sessions (whoever knew the old password is logged out).
func (db *DB) SetPassword(ctx context.Context, name, password string) error {
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		id, err := playerID(tx, db.d, name)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("UPDATE players SET password = ? WHERE id = ?"), password, id); err != nil {
			return err
		}
		_, err = tx.Exec(db.d.sql("DELETE FROM sessions WHERE player_id = ?"), id)
		return err
	})
	if err != nil {
		return fmt.Errorf("set password of %q: %w", name, err)
	}
	return nil
}

// SetRole gives the player called name role, and records the change (old
// and new role) in the audit trail, by by. Giving a player the role it
// has changes and records nothing.
func (db *DB) SetRole(ctx context.Context, name string, role account.Role, by moderation.Actor) error {
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		var id int64
		var old, stored string
		err := tx.QueryRow(db.d.sql("SELECT id, role, name FROM players WHERE name_key = ?"), account.NameKey(name)).Scan(&id, &old, &stored)
		if err != nil {
			return notFound(err)
		}
		if old == string(role) {
			return nil
		}
		if _, err = tx.Exec(db.d.sql("UPDATE players SET role = ? WHERE id = ?"), string(role), id); err != nil {
			return err
		}
		return record(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionRole, PlayerID: id, PlayerName: stored,
			Detail: old + " -> " + string(role)})
	})
	if err != nil {
		return fmt.Errorf("set role of %q: %w", name, err)
	}
	return nil
}

// playerID returns the id of the player called name (by its key), or
// account.ErrNoPlayer.
func playerID(tx *sql.Tx, d dialect, name string) (int64, error) {
	id, _, err := playerNamed(tx, d, name)
	return id, err
}

// playerNamed returns the id and the stored name of the player whose name
// has name's key (account.NameKey), or account.ErrNoPlayer.
func playerNamed(tx *sql.Tx, d dialect, name string) (int64, string, error) {
	var id int64
	var stored string
	err := tx.QueryRow(d.sql("SELECT id, name FROM players WHERE name_key = ?"), account.NameKey(name)).Scan(&id, &stored)
	return id, stored, notFound(err)
}

// Users lists the named players (sudoku user list), by name.
func (db *DB) Users(ctx context.Context) ([]account.Player, error) {
	rows, err := db.reader.QueryContext(ctx, "SELECT "+playerColumns+" FROM players WHERE name_key IS NOT NULL ORDER BY name_key")
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	defer rows.Close()
	var ps []account.Player
	for rows.Next() {
		p, err := scanPlayer(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("list users: %w", err)
		}
		ps = append(ps, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	return ps, nil
}

// Credentials returns the player called name and its password hash ("" for
// a player without one), or account.ErrNoPlayer.
func (db *DB) Credentials(ctx context.Context, name string) (account.Player, string, error) {
	var hash sql.NullString
	row := db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+playerColumns+", password FROM players WHERE name_key = ?"), account.NameKey(name))
	p, err := scanPlayer(func(dest ...any) error { return row.Scan(append(dest, &hash)...) })
	if err != nil {
		return account.Player{}, "", fmt.Errorf("credentials of %q: %w", name, notFound(err))
	}
	return p, hash.String, nil
}

// Player returns the player id, or account.ErrNoPlayer.
func (db *DB) Player(ctx context.Context, id int64) (account.Player, error) {
	p, err := scanPlayer(db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+playerColumns+" FROM players WHERE id = ?"), id).Scan)
	if err != nil {
		return account.Player{}, fmt.Errorf("player %d: %w", id, notFound(err))
	}
	return p, nil
}

// DeletePlayer deletes the player id with its attempts, sessions and
// tokens. What its attempts did to the puzzles' figures stays; nothing
// names the player any more.
func (db *DB) DeletePlayer(ctx context.Context, id int64, by moderation.Actor) error {
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		var name sql.NullString
		if err := tx.QueryRow(db.d.sql("SELECT name FROM players WHERE id = ?"), id).Scan(&name); err != nil {
			return notFound(err)
		}
		// The attempts, sessions, tokens and flags go by ON DELETE CASCADE;
		// they are deleted here too, so that a database without foreign
		// keys enforced loses them all the same.
		for _, q := range []string{"DELETE FROM attempts WHERE player_id = ?", "DELETE FROM sessions WHERE player_id = ?", "DELETE FROM tokens WHERE player_id = ?",
			"DELETE FROM player_grades WHERE player_id = ?", "DELETE FROM player_techniques WHERE player_id = ?", "DELETE FROM flags WHERE player_id = ?",
			// Its puzzles and collections stay, no longer naming it (migration 00016).
			"UPDATE puzzles SET submitted_by = NULL WHERE submitted_by = ?", "UPDATE collections SET owner_id = NULL WHERE owner_id = ?"} {
			if _, err := tx.Exec(db.d.sql(q), id); err != nil {
				return err
			}
		}
		res, err := tx.Exec(db.d.sql("DELETE FROM players WHERE id = ?"), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil && n == 0 {
			return account.ErrNoPlayer
		}
		return record(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionAccountDelete, PlayerID: id, PlayerName: name.String})
	})
	if err != nil {
		return fmt.Errorf("delete player %d: %w", id, err)
	}
	return nil
}

// LoginTry begins a login for nameKey (account.NameKey) at at, for the
// throttle: in one write transaction it forgets the name's failures older
// than window and, unless limit of them remain, records this try as a
// failure until LoginSucceeded forgets it. It reports whether the try may
// check its password. Counting and recording in one transaction (each
// holds the writer, on every server sharing the archive) is what keeps
// concurrent tries within the limit: counting first and recording after
// the password check let sixteen tries at once all through.
//
// Unlike the players' other writes (one counter shard each), it takes them
// all on PostgreSQL: that is what makes two servers' tries take turns.
func (db *DB) LoginTry(ctx context.Context, nameKey string, at time.Time, window time.Duration, limit int) (bool, error) {
	allowed := false
	err := db.write(ctx, func(tx *sql.Tx) error {
		allowed = false // fn may run again
		if _, err := tx.Exec(db.d.sql("DELETE FROM login_failures WHERE name_key = ? AND at <= ?"), nameKey, at.Add(-window).UnixNano()); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRow(db.d.sql("SELECT count(*) FROM login_failures WHERE name_key = ?"), nameKey).Scan(&n); err != nil {
			return err
		}
		if n >= limit {
			return nil
		}
		allowed = true
		_, err := tx.Exec(db.d.sql("INSERT INTO login_failures (name_key, at) VALUES (?, ?)"), nameKey, at.UnixNano())
		return err
	})
	if err != nil {
		return false, fmt.Errorf("record login try: %w", err)
	}
	return allowed, nil
}

// LoginSucceeded forgets the try LoginTry recorded for nameKey at at: its
// password was right.
func (db *DB) LoginSucceeded(ctx context.Context, nameKey string, at time.Time) error {
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("DELETE FROM login_failures WHERE name_key = ? AND at = ?"), nameKey, at.UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("forget login try: %w", err)
	}
	return nil
}
