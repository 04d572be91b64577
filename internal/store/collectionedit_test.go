package store

import (
	"context"
	"strings"
	"testing"

	"github.com/sudoku-archive/sudoku/internal/moderation"
	"github.com/sudoku-archive/sudoku/internal/record"
)

// lastAudit is the newest entry of db's audit trail.
func lastAudit(t *testing.T, db *DB) moderation.Entry {
	t.Helper()
	es, err := db.Audit(context.Background(), 0, 1)
	if err != nil || len(es) != 1 {
		t.Fatalf("audit: %v, %v", es, err)
	}
	return es[0]
}

// testCollectionsEdit: a collection's texts change under the create rules
// (a name in use, whatever its case, is a conflict; its own name in
// another case is not); a puzzle comes out of it and stays archived; each
// act is in the audit trail.
func testCollectionsEdit(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx := context.Background()
	a, _ := db.CreateCollection(ctx, record.Collection{Name: "A", Author: "kept"})
	b, _ := db.CreateCollection(ctx, record.Collection{Name: "B"})
	by := moderation.Actor{ID: 0, Name: "tester", Via: moderation.ViaAPI}
	got, err := db.UpdateCollection(ctx, record.Collection{ID: a.ID, Name: " Alpha ", Description: "new", Author: "kept", Source: "s", Licence: "CC0"}, by)
	if err != nil || got.Name != "Alpha" || got.Description != "new" || got.Licence != "CC0" || got.Author != "kept" {
		t.Fatalf("update: %+v, %v", got, err)
	}
	if e := lastAudit(t, db); e.Action != moderation.ActionCollectionEdit || !strings.Contains(e.Detail, `renamed "Alpha"`) || e.Actor.Name != "tester" {
		t.Errorf("audit of the rename: %+v", e)
	}
	if _, err := db.UpdateCollection(ctx, record.Collection{ID: a.ID, Name: "b"}, by); record.KindOf(err) != record.KindConflict {
		t.Errorf("another's name: %v, want a conflict", err)
	}
	if _, err := db.UpdateCollection(ctx, record.Collection{ID: a.ID, Name: "ALPHA"}, by); err != nil {
		t.Errorf("its own name in capitals: %v", err)
	}
	if _, err := db.UpdateCollection(ctx, record.Collection{ID: b.ID + 10, Name: "Z"}, by); record.KindOf(err) != record.KindNotFound {
		t.Errorf("unknown collection: %v", err)
	}
	p, _, err := db.Submit(ctx, synthetic(1, 5, 100, 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddToCollection(ctx, a.ID, p.ID); err != nil {
		t.Fatal(err)
	}
	if err := db.RemoveFromCollection(ctx, a.ID, p.ID, by); err != nil {
		t.Fatal(err)
	}
	if e := lastAudit(t, db); e.Action != moderation.ActionCollectionRemove || e.PuzzleID != p.ID {
		t.Errorf("audit of the removal: %+v", e)
	}
	if got, err := db.Puzzle(ctx, p.ID); err != nil || got.Collections != "" {
		t.Errorf("after the removal: %q, %v", got.Collections, err)
	}
	if err := db.RemoveFromCollection(ctx, a.ID, p.ID, by); record.KindOf(err) != record.KindNotFound {
		t.Errorf("removed twice: %v", err)
	}
}

// testCollectionsDelete: deleting a collection keeps its puzzles
// archived, and is in the audit trail.
func testCollectionsDelete(t *testing.T, bk backend) {
	db := bk.open(t)
	ctx := context.Background()
	a, _ := db.CreateCollection(ctx, record.Collection{Name: "Gone"})
	p, _, err := db.Submit(ctx, synthetic(1, 5, 100, 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.AddToCollection(ctx, a.ID, p.ID); err != nil {
		t.Fatal(err)
	}
	by := moderation.CLI()
	if err := db.DeleteCollection(ctx, a.ID, by); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Collection(ctx, a.ID); record.KindOf(err) != record.KindNotFound {
		t.Errorf("deleted, still read: %v", err)
	}
	if got, err := db.Puzzle(ctx, p.ID); err != nil || got.Collections != "" {
		t.Errorf("its puzzle after the deletion: %+v, %v", got.Collections, err)
	}
	if e := lastAudit(t, db); e.Action != moderation.ActionCollectionDelete || !strings.Contains(e.Detail, `"Gone" (1 puzzle, which stays archived)`) {
		t.Errorf("audit of the deletion: %+v", e)
	}
	if err := db.DeleteCollection(ctx, a.ID, by); record.KindOf(err) != record.KindNotFound {
		t.Errorf("deleted twice: %v", err)
	}
	// Its name is free again.
	if _, err := db.CreateCollection(ctx, record.Collection{Name: "gone"}); err != nil {
		t.Errorf("the name of a deleted collection: %v", err)
	}
}
