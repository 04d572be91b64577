package web

import (
	"github.com/sudoku-archive/sudoku/internal/store"
)

// partsOf gives a test's fake the parts it implements: each fake
// implements what its test needs, and a test whose fake lost a method
// fails on the routes it misses. The server itself never guesses its
// parts: cmd/sudoku names them (serve.go's webParts), as dbParts does here.
// Moderation comes with Players only, CollectionEditor with Collections
// only (Parts.check).
func partsOf(a Archive) Parts {
	p := Parts{Puzzles: a}
	p.Players, _ = a.(Players)
	if p.Players != nil {
		p.Moderation, _ = a.(Moderation)
	}
	p.Collections, _ = a.(Collections)
	if p.Collections != nil {
		p.CollectionEditor, _ = a.(CollectionEditor)
	}
	p.Leveller, _ = a.(Leveller)
	p.Ratings, _ = a.(RatedArchive)
	p.Techniques, _ = a.(TechniqueArchive)
	p.Errors, _ = a.(ErrorExplainer)
	p.Schema, _ = a.(SchemaReader)
	return p
}

// dbParts is every part of a real archive, by name, as cmd/sudoku sets
// them: a *store.DB that lost one fails to compile here.
func dbParts(db *store.DB) Parts {
	return Parts{
		Puzzles:          db,
		Players:          db,
		Moderation:       db,
		Collections:      db,
		CollectionEditor: db,
		Leveller:         db,
		Ratings:          db,
		Techniques:       db,
		Errors:           db,
		Schema:           db,
	}
}
