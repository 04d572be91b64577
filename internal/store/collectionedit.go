package store

// collectionedit.go: changing and deleting collections (issue 34), by
// their owner, a moderator or an admin (the server checks who); each act is
// recorded in the audit trail in its own transaction.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"

	"github.com/sudoku-archive/sudoku/internal/moderation"
)

// collectionDetail is how the audit trail names collection c.
func collectionDetail(c record.Collection) string {
	return "collection " + strconv.FormatInt(c.ID, 10) + " " + userinput.Echo(c.Name)
}

// lockCollection reads collection id in tx (the name and owner the audit
// names), or a record.KindNotFound error.
func (db *DB) lockCollection(tx *sql.Tx, id int64) (record.Collection, error) {
	c, err := scanCollection(tx.QueryRow(db.d.sql("SELECT "+collectionColumns+" FROM collections WHERE id = ?"), id).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return c, record.ErrNoCollection(strconv.FormatInt(id, 10))
	}
	return c, err
}

// RemoveFromCollection takes the puzzle puzzleID out of collection id (the
// puzzle stays archived) and records it. A collection that does not hold
// the puzzle, or an unknown collection, is a record.KindNotFound error.
func (db *DB) RemoveFromCollection(ctx context.Context, id, puzzleID int64, by moderation.Actor) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		c, err := db.lockCollection(tx, id)
		if err != nil {
			return err
		}
		res, err := tx.Exec(db.d.sql("DELETE FROM collection_puzzles WHERE collection_id = ? AND puzzle_id = ?"), id, puzzleID)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = record.ErrNotInCollection(c, puzzleID)
			}
			return err
		}
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionCollectionRemove, PuzzleID: puzzleID, Detail: collectionDetail(c)})
	})
	if err != nil {
		return fmt.Errorf("remove puzzle %d from collection %d: %w", puzzleID, id, err)
	}
	return nil
}

// UpdateCollection changes collection c.ID's texts to c's (checked and
// trimmed as CreateCollection checks them; the owner stays), records it,
// and returns the collection. A name another collection has, whatever its
// case, is a record.KindConflict error; an unknown id record.KindNotFound.
func (db *DB) UpdateCollection(ctx context.Context, c record.Collection, by moderation.Actor) (record.Collection, error) {
	if err := c.Check(); err != nil {
		return c, err
	}
	err := db.write(ctx, func(tx *sql.Tx) error {
		old, err := db.lockCollection(tx, c.ID)
		if err != nil {
			return err
		}
		// One name key (account.CollectionKey, migration 00018), not
		// SQL's lower(), which folds ASCII only.
		key := account.CollectionKey(c.Name)
		var other int64
		err = tx.QueryRow(db.d.sql("SELECT id FROM collections WHERE name_key = ? AND id <> ?"), key, c.ID).Scan(&other)
		if err == nil {
			return record.ErrCollectionTaken(c.Name)
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		// A new name must not look like another's; a name kept (an edit
		// of the texts, a change of case) keeps working beside the
		// look-alikes made before the rule (migration 00025).
		if account.CollectionSkeleton(c.Name) != account.CollectionSkeleton(old.Name) {
			if err := collectionLookalikeFree(tx, db.d, c.Name, c.ID); err != nil {
				return err
			}
		}
		_, err = tx.Exec(db.d.sql("UPDATE collections SET name = ?, name_key = ?, name_skeleton = ?, description = ?, author = ?, source = ?, licence = ? WHERE id = ?"),
			c.Name, key, account.CollectionSkeleton(c.Name), c.Description, c.Author, c.Source, c.Licence, c.ID)
		if err != nil && (pgCode(err) == "23505" || sqliteCode(err) == 19) { // taken meanwhile by another server
			return record.ErrCollectionTaken(c.Name)
		}
		if err != nil {
			return err
		}
		detail := collectionDetail(old)
		if old.Name != c.Name {
			detail += " renamed " + userinput.Echo(c.Name)
		}
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionCollectionEdit, Detail: detail})
	})
	if err != nil {
		return c, fmt.Errorf("update collection %d: %w", c.ID, err)
	}
	return db.Collection(ctx, c.ID)
}

// DeleteCollection deletes collection id and records it; its puzzles stay
// archived (only their filing under it goes). An unknown id is a
// record.KindNotFound error.
func (db *DB) DeleteCollection(ctx context.Context, id int64, by moderation.Actor) error {
	err := db.write(ctx, func(tx *sql.Tx) error {
		c, err := db.lockCollection(tx, id)
		if err != nil {
			return err
		}
		// collection_puzzles' rows go with it (ON DELETE CASCADE); deleting
		// them first keeps that true where foreign keys are off.
		if _, err := tx.Exec(db.d.sql("DELETE FROM collection_puzzles WHERE collection_id = ?"), id); err != nil {
			return err
		}
		if _, err := tx.Exec(db.d.sql("DELETE FROM collections WHERE id = ?"), id); err != nil {
			return err
		}
		held := fmt.Sprintf("%d puzzles, which stay", c.Puzzles)
		if c.Puzzles == 1 {
			held = "1 puzzle, which stays"
		}
		return addAudit(tx, db.d, moderation.Entry{Actor: by, Action: moderation.ActionCollectionDelete,
			Detail: fmt.Sprintf("%s (%s archived)", collectionDetail(c), held)})
	})
	if err != nil {
		return fmt.Errorf("delete collection %d: %w", id, err)
	}
	return nil
}
