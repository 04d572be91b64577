package store

import (
	"context"
	"database/sql"
	"slices"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/account"
	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// collectionsSuite: the collections (migration 00016), on both databases.
var collectionsSuite = []suiteCase{
	{"CollectionsCreate", testCollectionsCreate},
	{"CollectionsAdd", testCollectionsAdd},
	{"CollectionsListing", testCollectionsListing},
	{"CollectionsImport", testCollectionsImport},
	{"SubmittedBy", testSubmittedBy},
	{"CollectionsEdit", testCollectionsEdit},
	{"CollectionsDelete", testCollectionsDelete},
}

// testCollectionsCreate: names are unique whatever their case, the
// credits are kept trimmed, and unknown collections are KindNotFound.
func testCollectionsCreate(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx := context.Background()
	owner, err := db.AddUser(ctx, "Setter", "hash", account.RolePlayer, moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	c, err := db.CreateCollection(ctx, record.Collection{Name: " Tarek's best ", Description: "d", Author: "Tarek", Source: "forum", Licence: "CC BY 4.0", OwnerID: owner.ID})
	if err != nil {
		t.Fatal(err)
	}
	if c.ID == 0 || c.Name != "Tarek's best" || c.Author != "Tarek" || c.Source != "forum" || c.Licence != "CC BY 4.0" || c.Description != "d" ||
		c.OwnerID != owner.ID || c.Owner == nil || *c.Owner != "Setter" || c.Puzzles != 0 || c.CreatedAt.IsZero() {
		t.Fatalf("created %+v", c)
	}
	if _, err := db.CreateCollection(ctx, record.Collection{Name: "TAREK'S BEST"}); record.KindOf(err) != record.KindConflict {
		t.Fatalf("same name again: %v, want a conflict", err)
	}
	if _, err := db.CreateCollection(ctx, record.Collection{Name: "  "}); record.KindOf(err) != record.KindInvalid {
		t.Fatalf("no name: %v, want invalid", err)
	}
	if got, err := db.CollectionNamed(ctx, "tarek's BEST"); err != nil || got.ID != c.ID {
		t.Fatalf("by name: %+v, %v", got, err)
	}
	if _, err := db.Collection(ctx, c.ID+1); record.KindOf(err) != record.KindNotFound || err.Error() == "" {
		t.Fatalf("unknown id: %v", err)
	}
	testCollectionsEnsure(t, db, c, owner.ID)
}

// testCollectionsEnsure: EnsureCollection makes a collection once; the
// list is by name; deleting the owner keeps c, no longer naming it.
func testCollectionsEnsure(t *testing.T, db *DB, c record.Collection, owner int64) {
	ctx := context.Background()
	other, created, err := db.EnsureCollection(ctx, record.Collection{Name: "Another"})
	if err != nil || !created || other.Owner != nil {
		t.Fatalf("ensure new: %+v, %v, %v", other, created, err)
	}
	again, created, err := db.EnsureCollection(ctx, record.Collection{Name: "another", Author: "ignored"})
	if err != nil || created || again.ID != other.ID || again.Author != "" {
		t.Fatalf("ensure existing: %+v, %v, %v", again, created, err)
	}
	all, err := db.Collections(ctx)
	if err != nil || len(all) != 2 || all[0].Name != "Another" || all[1].Name != "Tarek's best" {
		t.Fatalf("collections: %+v, %v", all, err)
	}
	// Deleting the owner keeps the collection, no longer naming it.
	if err := db.DeletePlayer(ctx, owner, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if got, err := db.Collection(ctx, c.ID); err != nil || got.Owner != nil || got.OwnerID != 0 {
		t.Fatalf("after the owner's deletion: %+v, %v", got, err)
	}
}

// testCollectionsAdd: a puzzle is filed once, counted once, and shows
// its collections; unknown collections and puzzles are KindNotFound.
func testCollectionsAdd(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx := context.Background()
	a, _ := db.CreateCollection(ctx, record.Collection{Name: "A"})
	b, _ := db.CreateCollection(ctx, record.Collection{Name: "B"})
	p, _, err := db.Submit(ctx, synthetic(1, 5, 100, 1))
	if err != nil {
		t.Fatal(err)
	}
	if p.Collections != "" {
		t.Fatalf("new puzzle in collections %q", p.Collections)
	}
	for _, step := range []struct {
		coll int64
		want bool
	}{{b.ID, true}, {a.ID, true}, {a.ID, false}} {
		if added, err := db.AddToCollection(ctx, step.coll, p.ID); err != nil || added != step.want {
			t.Fatalf("add to %d: %v, %v; want %v", step.coll, added, err, step.want)
		}
	}
	got, err := db.Puzzle(ctx, p.ID)
	if err != nil || !slices.Equal(got.Collections.List(), []int64{a.ID, b.ID}) {
		t.Fatalf("puzzle's collections: %q, %v", got.Collections, err)
	}
	if c, _ := db.Collection(ctx, a.ID); c.Puzzles != 1 {
		t.Fatalf("collection counts %d puzzles, want 1", c.Puzzles)
	}
	if _, err := db.AddToCollection(ctx, b.ID+10, p.ID); record.KindOf(err) != record.KindNotFound {
		t.Fatalf("unknown collection: %v", err)
	}
	if _, err := db.AddToCollection(ctx, a.ID, p.ID+10); record.KindOf(err) != record.KindNotFound {
		t.Fatalf("unknown puzzle: %v", err)
	}
	ex := exportAll(t, db, record.ListQuery{})
	if len(ex) != 1 || ex[0].Collections != got.Collections {
		t.Fatalf("export: %+v", ex)
	}
	// A hidden puzzle (migration 00015) is not counted in a collection.
	err = db.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.Exec(db.d.sql("UPDATE puzzles SET hidden = 1 WHERE id = ?"), p.ID); err != nil {
			return err
		}
		_, err := tx.Exec(db.d.sql("INSERT INTO hidden_puzzles (puzzle_id, class_key, hidden_at, reason) VALUES (?, ?, 1, 'test')"), p.ID, p.Givens.Key())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := db.Collection(ctx, a.ID); c.Puzzles != 0 {
		t.Fatalf("with its puzzle hidden, the collection counts %d", c.Puzzles)
	}
	for _, q := range []record.ListQuery{{Collection: a.ID}, {Collection: a.ID, UniqueOnly: true}} {
		if pg, err := db.List(ctx, q); err != nil || pg.Total != 0 || len(pg.Puzzles) != 0 {
			t.Fatalf("with its puzzle hidden, %+v lists %d of %d (%v)", q, len(pg.Puzzles), pg.Total, err)
		}
	}
}

// testCollectionsListing: a collection's puzzles page like the history,
// in every order, with an exact total and cursors bound to the collection.
func testCollectionsListing(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx := context.Background()
	c, _ := db.CreateCollection(ctx, record.Collection{Name: "Evens"})
	var want []int64
	for i := int64(1); i <= 23; i++ {
		p, _, err := db.Submit(ctx, synthetic(i, i%5, 1000-i, 1))
		if err != nil {
			t.Fatal(err)
		}
		if i%2 == 0 {
			if _, err := db.AddToCollection(ctx, c.ID, p.ID); err != nil {
				t.Fatal(err)
			}
			want = append(want, p.ID)
		}
	}
	for _, s := range record.Sorts {
		for _, desc := range []bool{false, true} {
			q := record.ListQuery{Sort: s, Desc: desc, Limit: 4, Collection: c.ID}
			var got []int64
			for page := 0; ; page++ {
				pg, err := db.List(ctx, q)
				if err != nil {
					t.Fatalf("%s desc=%v page %d: %v", s, desc, page, err)
				}
				if pg.Total != int64(len(want)) {
					t.Fatalf("%s: total %d, want %d", s, pg.Total, len(want))
				}
				for _, p := range pg.Puzzles {
					got = append(got, p.ID)
					if p.Collections != record.IDsOf(c.ID) {
						t.Fatalf("puzzle %d lists collections %q", p.ID, p.Collections)
					}
				}
				if pg.NextCursor == "" {
					break
				}
				q.Cursor = pg.NextCursor
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s desc=%v: listed %v, want %v", s, desc, got, want)
			}
		}
	}
	first, err := db.List(ctx, record.ListQuery{Limit: 2, Collection: c.ID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.List(ctx, record.ListQuery{Limit: 2, Cursor: first.NextCursor}); record.KindOf(err) != record.KindInvalid {
		t.Fatalf("a collection's cursor on the whole archive: %v", err)
	}
	if _, err := db.List(ctx, record.ListQuery{Limit: 2, Collection: c.ID + 1, Cursor: first.NextCursor}); record.KindOf(err) != record.KindInvalid {
		t.Fatalf("a collection's cursor on another collection: %v", err)
	}
	u, err := db.List(ctx, record.ListQuery{Collection: c.ID, UniqueOnly: true, Played: ""})
	if err != nil || u.Total != int64(len(want)) {
		t.Fatalf("with unique: %d, %v", u.Total, err)
	}
}

// testCollectionsImport: AddPartsTo files new and archived puzzles alike,
// in the batch's transaction, and counts each once.
func testCollectionsImport(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx := context.Background()
	old, _, err := db.Submit(ctx, synthetic(1, 0, 0, 1))
	if err != nil {
		t.Fatal(err)
	}
	c, _ := db.CreateCollection(ctx, record.Collection{Name: "Imported"})
	parts := [][]record.Puzzle{{synthetic(1, 0, 0, 1), synthetic(2, 0, 0, 1)}, {synthetic(3, 0, 0, 1), synthetic(2, 0, 0, 1)}}
	dup, _, err := db.AddPartsTo(ctx, c.ID, func(yield func([]record.Puzzle) bool) {
		for _, p := range parts {
			if !yield(p) {
				return
			}
		}
	})
	if err != nil || dup != 2 {
		t.Fatalf("AddPartsTo: %d duplicates, %v; want 2", dup, err)
	}
	pg, err := db.List(ctx, record.ListQuery{Collection: c.ID, Sort: record.SortSubmitted})
	if err != nil || pg.Total != 3 || len(pg.Puzzles) != 3 {
		t.Fatalf("listing: %+v, %v", pg, err)
	}
	if got, _ := db.Collection(ctx, c.ID); got.Puzzles != 3 {
		t.Fatalf("collection counts %d", got.Puzzles)
	}
	if got, _ := db.Puzzle(ctx, old.ID); got.Collections != record.IDsOf(c.ID) {
		t.Fatalf("the archived puzzle's collections: %q", got.Collections)
	}
	// The same import again files nothing twice.
	if _, _, err := db.AddPartsTo(ctx, c.ID, func(yield func([]record.Puzzle) bool) { yield(parts[0]) }); err != nil {
		t.Fatal(err)
	}
	if got, _ := db.Collection(ctx, c.ID); got.Puzzles != 3 {
		t.Fatalf("after a repeat, collection counts %d", got.Puzzles)
	}
}

// testSubmittedBy: a submission with an account names it; a duplicate
// keeps the first submitter; deleting the account clears the name.
func testSubmittedBy(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx := context.Background()
	ann, err := db.AddUser(ctx, "Ann", "hash", account.RolePlayer, moderation.CLI())
	if err != nil {
		t.Fatal(err)
	}
	bob, _ := db.AddUser(ctx, "Bob", "hash", account.RolePlayer, moderation.CLI())
	p := synthetic(1, 0, 0, 1)
	p.SubmitterID = ann.ID
	got, _, err := db.Submit(ctx, p)
	if err != nil || got.SubmittedBy == nil || *got.SubmittedBy != "Ann" {
		t.Fatalf("submitted: %v, %v", got.SubmittedBy, err)
	}
	p.SubmitterID = bob.ID
	if again, dup, err := db.Submit(ctx, p); err != nil || !dup || *again.SubmittedBy != "Ann" {
		t.Fatalf("duplicate: %v, %v, %v", again.SubmittedBy, dup, err)
	}
	anon, _, _ := db.Submit(ctx, synthetic(2, 0, 0, 1))
	if anon.SubmittedBy != nil {
		t.Fatalf("anonymous submission names %q", *anon.SubmittedBy)
	}
	if err := db.DeletePlayer(ctx, ann.ID, moderation.CLI()); err != nil {
		t.Fatal(err)
	}
	if after, err := db.Puzzle(ctx, got.ID); err != nil || after.SubmittedBy != nil {
		t.Fatalf("after deletion: %v, %v", after.SubmittedBy, err)
	}
}
