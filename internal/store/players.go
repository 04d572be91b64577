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
	err := tx.QueryRow(d.sql("INSERT INTO players (name, name_key, name_skeleton, password, role, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id"),
		shown, key, nameSkeleton(name), nullString(password), string(role), now.UnixNano()).Scan(&id)
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

// nameSkeleton is the skeleton of a player's name (account.NameSkeleton,
// migration 00025), NULL for "" (an anonymous player).
func nameSkeleton(name string) sql.NullString {
	if name == "" {
		return sql.NullString{}
	}
	return nullString(account.NameSkeleton(name))
}

func nullString(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }

// nameFree fails with account.ErrNameTaken when a player's name has the
// key of name (account.NameKey: whatever its case, width or composition),
// and with an account.LookalikeError when one looks like it
// (account.NameSkeleton; skeletons.go).
func nameFree(tx *sql.Tx, d dialect, name string) error {
	var id int64
	err := tx.QueryRow(d.sql("SELECT id FROM players WHERE name_key = ?"), account.NameKey(name)).Scan(&id)
	if err == nil {
		return account.ErrNameTaken
	}
	if errors.Is(err, sql.ErrNoRows) {
		return playerLookalikeFree(tx, d, name)
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
	row := tx.QueryRow(d.sql("UPDATE players SET name = ?, name_key = ?, name_skeleton = ?, password = ? WHERE id = ? AND name IS NULL RETURNING "+playerColumns),
		shown, key, nameSkeleton(name), password, anon)
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
		return addAudit(tx, db.d, moderation.Entry{At: p.CreatedAt, Actor: by, Action: moderation.ActionUserAdd,
			PlayerID: p.ID, PlayerName: p.Name, Detail: "role " + string(role)})
	})
	if err != nil {
		return account.Player{}, fmt.Errorf("add user %q: %w", name, err)
	}
	return p, nil
}

// SetPassword replaces the password hash of the player called name and
// ends its sessions (whoever knew the old password is logged out). Its
// API tokens are kept: a token is a credential of its own, issued by
// `sudoku user token` and never derived from the password, so a script
// using it goes on working; `sudoku user tokens` lists them and `sudoku
// user revoke` ends one. It returns how many sessions it ended and how
// many tokens the player keeps.
func (db *DB) SetPassword(ctx context.Context, name, password string) (sessions, tokens int64, err error) {
	err = db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		id, err := playerID(tx, db.d, name)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("UPDATE players SET password = ? WHERE id = ?"), password, id); err != nil {
			return err
		}
		res, err := tx.Exec(db.d.sql("DELETE FROM sessions WHERE player_id = ?"), id)
		if err != nil {
			return err
		}
		if sessions, err = res.RowsAffected(); err != nil {
			return err
		}
		return tx.QueryRow(db.d.sql("SELECT count(*) FROM tokens WHERE player_id = ?"), id).Scan(&tokens)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("set password of %q: %w", name, err)
	}
	return sessions, tokens, nil
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
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionRole, PlayerID: id, PlayerName: stored,
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
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionAccountDelete, PlayerID: id, PlayerName: name.String})
	})
	if err != nil {
		return fmt.Errorf("delete player %d: %w", id, err)
	}
	return nil
}

// LoginTry begins the login a (account.LoginAttempt), for the throttle:
// in one write transaction it forgets the failures older than l.Window of
// a's name, address or device, counts those left and, unless a limit is
// reached, records this try as a failure until LoginSucceeded forgets it.
// A try with a device cookie (a.Device) is held by l.PerDevice alone; one
// without, by l.PerName (failures of the name from browsers without its
// device cookie) and l.PerAddress (failures from the address, across
// names). It returns the limit that refused the try, ThrottleNone when it
// may check its password. Counting and recording in one transaction (each
// holds the writer, on every server sharing the archive) is what keeps
// concurrent tries within the limits: counting first and recording after
// the password check let sixteen tries at once all through.
//
// Unlike the players' other writes (one counter shard each), it takes them
// all on PostgreSQL: that is what makes two servers' tries take turns.
func (db *DB) LoginTry(ctx context.Context, a account.LoginAttempt, l account.LoginLimits) (account.Throttled, error) {
	var refused account.Throttled
	err := db.write(ctx, func(tx *sql.Tx) error {
		refused = account.ThrottleNone // fn may run again
		var err error
		if refused, err = db.throttled(tx, a, l); err != nil || refused != account.ThrottleNone {
			return err
		}
		_, err = tx.Exec(db.d.sql("INSERT INTO login_failures (name_key, address, device, at) VALUES (?, ?, ?, ?)"), a.NameKey, a.Address, a.Device, a.At.UnixNano())
		return err
	})
	if err != nil {
		return account.ThrottleNone, fmt.Errorf("record login try: %w", err)
	}
	return refused, nil
}

// throttled forgets a's old failures and returns the limit a reaches, in
// LoginTry's transaction.
func (db *DB) throttled(tx *sql.Tx, a account.LoginAttempt, l account.LoginLimits) (account.Throttled, error) {
	cutoff := a.At.Add(-l.Window).UnixNano()
	type limit struct {
		column, value, where string
		max                  int
		name                 account.Throttled
	}
	limits := []limit{{"device", a.Device, "", l.PerDevice, account.ThrottleDevice}}
	if a.Device == "" {
		limits = []limit{{"name_key", a.NameKey, " AND device = ''", l.PerName, account.ThrottleName},
			{"address", a.Address, "", l.PerAddress, account.ThrottleAddress}}
	}
	for _, lim := range limits {
		if _, err := tx.Exec(db.d.sql("DELETE FROM login_failures WHERE "+lim.column+" = ? AND at <= ?"), lim.value, cutoff); err != nil {
			return account.ThrottleNone, err
		}
		var n int
		if err := tx.QueryRow(db.d.sql("SELECT count(*) FROM login_failures WHERE "+lim.column+" = ?"+lim.where), lim.value).Scan(&n); err != nil {
			return account.ThrottleNone, err
		}
		if n >= lim.max {
			return lim.name, nil
		}
	}
	return account.ThrottleNone, nil
}

// LoginSucceeded forgets the try LoginTry recorded for a: its password
// was right.
func (db *DB) LoginSucceeded(ctx context.Context, a account.LoginAttempt) error {
	err := db.writeIn(ctx, oneShard, func(tx *sql.Tx) error {
		_, err := tx.Exec(db.d.sql("DELETE FROM login_failures WHERE name_key = ? AND at = ?"), a.NameKey, a.At.UnixNano())
		return err
	})
	if err != nil {
		return fmt.Errorf("forget login try: %w", err)
	}
	return nil
}
