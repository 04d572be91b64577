package store

// skeletons.go keeps the names' skeletons of migration 00025
// (players.name_skeleton, collections.name_skeleton; account.NameSkeleton,
// account.CollectionSkeleton): it fills them in Go when it opens an archive
// the migration left without them, and refuses a new name whose skeleton
// another name has (issue 45: `сосо` beside `coco`). The index is not
// unique, so the look-alikes made before the rule keep their names; the
// check and the write are one transaction, and on PostgreSQL, where
// several servers write at once, the transactions that give names take
// turns on an advisory lock (lockNames), so that two look-alike signups
// at one moment make one account.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// nameSkeletonsSetting is the settings row migration 00025 writes: the
// names wait for their skeletons.
const nameSkeletonsSetting = "name_skeletons"

// namesLockClass is the first key of the advisory locks of lockNames (the
// two-int4 form; claims.go's class is another), "NAME" in ASCII.
const namesLockClass = 0x4E414D45

// The second keys of lockNames: one lock per table of names.
const (
	playerNames     = 1
	collectionNames = 2
)

// lockNames makes the write transaction tx wait for any other that gives
// names of the table which (playerNames, collectionNames), until it ends:
// the look-alike check and the write that follows it then see every name
// given before. SQLite needs none: its write transactions run one at a
// time.
func lockNames(tx *sql.Tx, d dialect, which int32) error {
	if !d.postgres {
		return nil
	}
	_, err := tx.Exec("SELECT pg_advisory_xact_lock($1, $2)", int32(namesLockClass), which)
	return err
}

// lookalikeError is a collection's account.LookalikeError as the archive
// classifies it: a conflict with what it holds (409), its text for users.
type lookalikeError struct{ *account.LookalikeError }

// Kind is what the error means to whoever asked.
func (e lookalikeError) Kind() record.Kind { return record.KindConflict }

// ForUsers marks the text as meant for users.
func (e lookalikeError) ForUsers() bool { return true }

// Unwrap gives errors.As the account.LookalikeError (who looks like whom).
func (e lookalikeError) Unwrap() error { return e.LookalikeError }

// playerLookalikeFree fails with an account.LookalikeError when a player
// other than the one of name's key has a name that looks like name. It
// takes the names' lock first (lockNames).
func playerLookalikeFree(tx *sql.Tx, d dialect, name string) error {
	if err := lockNames(tx, d, playerNames); err != nil {
		return err
	}
	var other string
	err := tx.QueryRow(d.sql("SELECT name FROM players WHERE name_skeleton = ? AND name_key <> ? ORDER BY id LIMIT 1"),
		account.NameSkeleton(name), account.NameKey(name)).Scan(&other)
	switch {
	case err == nil:
		return &account.LookalikeError{Name: name, Existing: other, Of: "account"}
	case errors.Is(err, sql.ErrNoRows):
		return nil
	}
	return err
}

// collectionLookalikeFree fails with a lookalikeError when a collection
// other than id (0: a new one) has a name that looks like name. It takes
// the names' lock first (lockNames).
func collectionLookalikeFree(tx *sql.Tx, d dialect, name string, id int64) error {
	if err := lockNames(tx, d, collectionNames); err != nil {
		return err
	}
	var other string
	err := tx.QueryRow(d.sql("SELECT name FROM collections WHERE name_skeleton = ? AND id <> ? ORDER BY id LIMIT 1"),
		account.CollectionSkeleton(name), id).Scan(&other)
	switch {
	case err == nil:
		return lookalikeError{&account.LookalikeError{Name: name, Existing: other, Of: "collection"}}
	case errors.Is(err, sql.ErrNoRows):
		return nil
	}
	return err
}

// skeletonNames fills the skeletons of the players and collections
// without one, in one transaction, when migration 00025's settings row is
// there (and removes it). Names that look alike all keep their names: the
// rule is for new ones. Servers opening the archive together take turns
// on the settings row; the second finds it gone.
func (db *DB) skeletonNames(ctx context.Context) error {
	tx, err := db.openTurn(ctx, nameSkeletonsSetting)
	if err != nil {
		return fmt.Errorf("names' skeletons: %w", err)
	}
	if tx == nil {
		return nil // the common case: a read, without the write lock
	}
	defer tx.Rollback()
	for _, t := range []struct {
		table    string
		skeleton func(string) string
	}{{"players", account.NameSkeleton}, {"collections", account.CollectionSkeleton}} {
		if err := fillSkeletons(ctx, tx, db.d, t.table, t.skeleton); err != nil {
			return fmt.Errorf("the names' skeletons of %s: %w", t.table, err)
		}
	}
	return tx.Commit()
}

// fillSkeletons sets the skeleton of every named row of table that has
// none.
func fillSkeletons(ctx context.Context, tx *sql.Tx, d dialect, table string, skeleton func(string) string) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, name FROM "+table+" WHERE name IS NOT NULL AND name_skeleton IS NULL ORDER BY id")
	if err != nil {
		return err
	}
	type row struct {
		id   int64
		name string
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.name); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	set, err := tx.PrepareContext(ctx, d.sql("UPDATE "+table+" SET name_skeleton = ? WHERE id = ?"))
	if err != nil {
		return err
	}
	defer set.Close()
	for _, r := range all {
		if _, err := set.ExecContext(ctx, skeleton(r.name), r.id); err != nil {
			return err
		}
	}
	return nil
}
