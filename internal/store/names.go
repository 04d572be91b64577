package store

// names.go fills the name keys of migration 00018 (players.name_key,
// collections.name_key): the keys are made in Go (account.NameKey,
// account.CollectionKey), which SQL cannot do, so the store makes them
// when it opens an archive that the migration left without them.

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// nameKeysSetting is the settings row migration 00018 writes: the names
// wait for their keys.
const nameKeysSetting = "name_keys"

// migrationActor is who renames in the audit trail: the migration.
var migrationActor = moderation.Actor{Name: "migration 00018", Via: moderation.ViaCLI}

// keyNames fills the name keys of the players and collections without
// one, in one transaction, when migration 00018's settings row is there
// (and removes it). Where a name's key is taken (an older account or
// collection by id has it: `ÉMILE` after `émile`), the name is renamed
// with the suffix "-2" ("-3", ...; " (2)" for a collection) and the
// renaming recorded in the audit trail: both stay reachable, nothing
// merged. Servers opening the archive together take turns on the
// settings row; the second finds it gone.
func (db *DB) keyNames(ctx context.Context) error {
	tx, err := db.openTurn(ctx, nameKeysSetting)
	if err != nil {
		return fmt.Errorf("key names: %w", err)
	}
	if tx == nil {
		return nil
	}
	defer tx.Rollback()
	players := keying{table: "players", key: account.NameKey, suffix: playerSuffix}
	collections := keying{table: "collections", key: account.CollectionKey, suffix: collectionSuffix}
	for _, k := range []keying{players, collections} {
		if err := k.fill(ctx, tx, db.d); err != nil {
			return fmt.Errorf("key the names of %s: %w", k.table, err)
		}
	}
	return tx.Commit()
}

// openTurn takes the turn of the work at open that a migration left to Go
// and marked with the settings row setting: it returns a transaction that
// has removed the row, for the work to commit with it, or nil when the row
// is gone (done long ago, or by a server that opened first). Most opens
// find it gone: a read says so without the write lock, which servers
// already running on the archive hold in turns (an import opening beside
// them would wait its turn for nothing, and under load time out).
func (db *DB) openTurn(ctx context.Context, setting string) (*sql.Tx, error) {
	var waiting int
	if err := db.writer.QueryRowContext(ctx, db.d.sql("SELECT count(*) FROM settings WHERE name = ?"), setting).Scan(&waiting); err != nil {
		return nil, err
	}
	if waiting == 0 {
		return nil, nil
	}
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	res, err := tx.ExecContext(ctx, db.d.sql("DELETE FROM settings WHERE name = ?"), setting)
	if err != nil {
		tx.Rollback()
		return nil, err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		tx.Rollback()
		return nil, err
	}
	return tx, nil
}

// A keying fills the name keys of one table.
type keying struct {
	table  string
	key    func(string) string
	suffix func(name string, n int) string
}

// playerSuffix is name with "-n", shortened to fit account.MaxName.
func playerSuffix(name string, n int) string {
	s := "-" + strconv.Itoa(n)
	r := []rune(name)
	return string(r[:min(len(r), account.MaxName-utf8.RuneCountInString(s))]) + s
}

// collectionSuffix is name with " (n)".
func collectionSuffix(name string, n int) string { return name + " (" + strconv.Itoa(n) + ")" }

// A named row is a row's id, name and key (sql.NullString: none yet).
type named struct {
	id   int64
	name string
	key  sql.NullString
}

// fill keys the rows of k's table that have a name and no key, by id.
func (k keying) fill(ctx context.Context, tx *sql.Tx, d dialect) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, name, name_key FROM "+k.table+" WHERE name IS NOT NULL ORDER BY id")
	if err != nil {
		return err
	}
	var all []named
	taken := map[string]bool{}
	for rows.Next() {
		var r named
		if err := rows.Scan(&r.id, &r.name, &r.key); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
		if r.key.Valid {
			taken[r.key.String] = true
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	set, err := tx.PrepareContext(ctx, d.sql("UPDATE "+k.table+" SET name = ?, name_key = ? WHERE id = ?"))
	if err != nil {
		return err
	}
	defer set.Close()
	for _, r := range all {
		if r.key.Valid {
			continue
		}
		name, key := r.name, k.key(r.name)
		for n := 2; taken[key]; n++ {
			name = k.suffix(r.name, n)
			key = k.key(name)
		}
		taken[key] = true
		if _, err := set.ExecContext(ctx, name, key, r.id); err != nil {
			return err
		}
		if name != r.name {
			if err := k.recordRename(tx, d, r, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// recordRename records in the audit trail that r was renamed to name.
func (k keying) recordRename(tx *sql.Tx, d dialect, r named, name string) error {
	e := moderation.Entry{Actor: migrationActor, Action: moderation.ActionRename,
		Detail: strconv.Quote(r.name) + " -> " + strconv.Quote(name) + ": its name was one with an older " + k.one() + "'s under the name rule (docs/players.md)"}
	if k.table == "players" {
		e.PlayerID, e.PlayerName = r.id, name
	} else {
		e.Detail = "collection " + strconv.FormatInt(r.id, 10) + ": " + e.Detail
	}
	return addAudit(tx, d, e)
}

// one names a row of k's table.
func (k keying) one() string {
	if k.table == "players" {
		return "account"
	}
	return "collection"
}
