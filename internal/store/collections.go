package store

// collections.go holds the collections (migration 00016): named sets of
// puzzles with their setters' credit, and the puzzles filed under them.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"time"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/userinput"
)

// collectionColumns are the collections table's columns as scanCollection
// reads them, the owner's name included.
const collectionColumns = "id, name, description, author, source, licence, coalesce(owner_id, 0), " +
	"(SELECT name FROM players WHERE players.id = collections.owner_id), created_at, " + collectionSize

// collectionSize counts the puzzles of the collection of the row
// (collections.id) that any listing shows: its rows of collection_puzzles
// (a range of the primary key, about 5 ms for 100,000) less the hidden
// ones (a walk of hidden_puzzles, which are few; migration 00015).
const collectionSize = "(SELECT count(*) FROM collection_puzzles WHERE collection_id = collections.id) - " +
	"(SELECT count(*) FROM hidden_puzzles WHERE EXISTS (SELECT 1 FROM collection_puzzles " +
	"WHERE collection_puzzles.collection_id = collections.id AND collection_puzzles.puzzle_id = hidden_puzzles.puzzle_id))"

// scanCollection reads a row of collectionColumns.
func scanCollection(scan func(...any) error) (record.Collection, error) {
	var c record.Collection
	var owner sql.NullString
	var created int64
	if err := scan(&c.ID, &c.Name, &c.Description, &c.Author, &c.Source, &c.Licence, &c.OwnerID, &owner, &created, &c.Puzzles); err != nil {
		return c, err
	}
	if owner.Valid {
		c.Owner = &owner.String
	}
	c.CreatedAt = time.Unix(0, created).UTC()
	return c, nil
}

// CreateCollection makes the collection c (its texts checked and trimmed,
// owned by c.OwnerID, 0 for nobody) and returns it. A name in use, whatever
// its case, is a record.KindConflict error.
func (db *DB) CreateCollection(ctx context.Context, c record.Collection) (record.Collection, error) {
	if err := c.Check(); err != nil {
		return c, err
	}
	var id int64
	err := db.write(ctx, func(tx *sql.Tx) error {
		var err error
		id, err = db.createCollection(tx, c)
		return err
	})
	if err != nil {
		return c, fmt.Errorf("create collection: %w", err)
	}
	return db.Collection(ctx, id)
}

// createCollection inserts c in tx and returns its id.
func (db *DB) createCollection(tx *sql.Tx, c record.Collection) (int64, error) {
	var owner any
	if c.OwnerID != 0 {
		owner = c.OwnerID
	}
	var id int64
	var other int64
	err := tx.QueryRow(db.d.sql("SELECT id FROM collections WHERE name_key = ?"), account.CollectionKey(c.Name)).Scan(&other)
	if err == nil {
		return 0, record.ErrCollectionTaken(c.Name)
	} else if !errors.Is(err, sql.ErrNoRows) {
		return 0, err
	}
	if err := collectionLookalikeFree(tx, db.d, c.Name, 0); err != nil {
		return 0, err
	}
	// DO NOTHING on the unique name: another server may have taken it
	// since; no row back means taken.
	err = tx.QueryRow(db.d.sql("INSERT INTO collections (name, name_key, name_skeleton, description, author, source, licence, owner_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id"),
		c.Name, account.CollectionKey(c.Name), account.CollectionSkeleton(c.Name), c.Description, c.Author, c.Source, c.Licence, owner, time.Now().UnixNano()).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, record.ErrCollectionTaken(c.Name)
	}
	return id, err
}

// Collection returns the collection id, or a record.KindNotFound error.
func (db *DB) Collection(ctx context.Context, id int64) (record.Collection, error) {
	c, err := scanCollection(db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+collectionColumns+" FROM collections WHERE id = ?"), id).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return c, record.ErrNoCollection(strconv.FormatInt(id, 10))
	}
	if err != nil {
		return c, fmt.Errorf("load collection %d: %w", id, err)
	}
	return c, nil
}

// CollectionNamed returns the collection whose name has name's key
// (account.CollectionKey: whatever its case, width or spacing), or a
// record.KindNotFound error.
func (db *DB) CollectionNamed(ctx context.Context, name string) (record.Collection, error) {
	name = strings.TrimSpace(name)
	c, err := scanCollection(db.reader.QueryRowContext(ctx, db.d.sql("SELECT "+collectionColumns+" FROM collections WHERE name_key = ?"), account.CollectionKey(name)).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return c, record.ErrNoCollection(userinput.Echo(name))
	}
	if err != nil {
		return c, fmt.Errorf("load collection %s: %w", userinput.Echo(name), err)
	}
	return c, nil
}

// Collections returns every collection, by name.
func (db *DB) Collections(ctx context.Context) ([]record.Collection, error) {
	rows, err := db.reader.QueryContext(ctx, "SELECT "+collectionColumns+" FROM collections ORDER BY name_key, id")
	if err != nil {
		return nil, fmt.Errorf("list collections: %w", err)
	}
	defer rows.Close()
	cs := []record.Collection{}
	for rows.Next() {
		c, err := scanCollection(rows.Scan)
		if err != nil {
			return nil, fmt.Errorf("list collections: %w", err)
		}
		cs = append(cs, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list collections: %w", err)
	}
	return cs, nil
}

// EnsureCollection returns the collection called c.Name, made from c when
// there is none (created true). The credits of an existing collection are
// left as they are.
func (db *DB) EnsureCollection(ctx context.Context, c record.Collection) (_ record.Collection, created bool, err error) {
	if err := c.Check(); err != nil {
		return c, false, err
	}
	if got, err := db.CollectionNamed(ctx, c.Name); err == nil || record.KindOf(err) != record.KindNotFound {
		return got, false, err
	}
	got, err := db.CreateCollection(ctx, c)
	if record.KindOf(err) == record.KindConflict && !errors.Is(err, account.ErrNameLookalike) { // made meanwhile by another server
		got, err = db.CollectionNamed(ctx, c.Name)
		return got, false, err
	}
	return got, err == nil, err
}

// AddToCollection files the archived puzzle puzzleID under the collection
// id. added is false when it was there already. An unknown collection or
// puzzle is a record.KindNotFound error.
func (db *DB) AddToCollection(ctx context.Context, id, puzzleID int64) (added bool, err error) {
	err = db.write(ctx, func(tx *sql.Tx) error {
		var n int64
		if err := tx.QueryRow(db.d.sql("SELECT count(*) FROM collections WHERE id = ?"), id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return record.ErrNoCollection(strconv.FormatInt(id, 10))
		}
		if err := tx.QueryRow(db.d.sql("SELECT count(*) FROM puzzles WHERE id = ?"), puzzleID).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return fmt.Errorf("puzzle %d: %w", puzzleID, record.ErrNotFound)
		}
		k, err := db.linkCollection(tx, id, "id IN (?)", []any{puzzleID})
		added = k > 0
		return err
	})
	if err != nil {
		return false, fmt.Errorf("add puzzle %d to collection %d: %w", puzzleID, id, err)
	}
	return added, nil
}

// linkCollection files the puzzles of the condition where (on puzzles,
// taking args) under collection id, those not filed there yet; it returns
// how many it filed.
func (db *DB) linkCollection(tx *sql.Tx, id int64, where string, args []any) (int64, error) {
	res, err := tx.Exec(db.d.sql("INSERT INTO collection_puzzles (collection_id, puzzle_id, added_at) SELECT ?, id, ? FROM puzzles WHERE "+where+" ON CONFLICT DO NOTHING"),
		append([]any{id, time.Now().UnixNano()}, args...)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

// linkGivens files the archived puzzles with the givens of ps under
// collection id, in tx (a batch's, after its part is inserted).
func (db *DB) linkGivens(tx *sql.Tx, id int64, ps []record.Puzzle) error {
	if len(ps) == 0 {
		return nil
	}
	args := make([]any, len(ps))
	for i := range ps {
		args[i] = ps[i].GivensKey()
	}
	_, err := db.linkCollection(tx, id, "givens_key IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(ps)), ", ")+")", args)
	return err
}

// AddPartsTo is AddParts that also files every puzzle of the parts, new or
// archived already, under the collection id, in the same transaction.
func (db *DB) AddPartsTo(ctx context.Context, id int64, parts iter.Seq[[]record.Puzzle]) (duplicates, equivalents int, err error) {
	return db.addParts(ctx, id, parts)
}

// AddPartsTo makes the store an import's bulk.CollectionAdder.
var _ interface {
	AddPartsTo(context.Context, int64, iter.Seq[[]record.Puzzle]) (int, int, error)
} = (*DB)(nil)
