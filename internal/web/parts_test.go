package web

// partsOf gives a test's fake the parts it implements: each fake
// implements what its test needs, and a test whose fake lost a method
// fails on the routes it misses. The server itself never guesses its
// parts: cmd/sudoku names them all (AllParts), as the tests over a real
// archive do.
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
