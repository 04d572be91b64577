package web

// Whole is an archive that is every part of the server at once, as the
// store's DB is: what AllParts takes.
type Whole interface {
	Archive
	Players
	Moderation
	Collections
	CollectionEditor
	Leveller
	RatedArchive
	TechniqueArchive
	ErrorExplainer
	SchemaReader
	VariantBrowser
}

// AllParts gives w as every part of the server, each by name, so that
// every route is served. It is the one list of the parts that cmd/sudoku
// and the tests over a real archive both use, and since it takes a Whole,
// an archive whose method drifted from what web declares is a build error
// where it is passed, not a route gone unseen.
func AllParts(w Whole) Parts {
	return Parts{
		Puzzles:          w,
		Players:          w,
		Moderation:       w,
		Collections:      w,
		CollectionEditor: w,
		Leveller:         w,
		Ratings:          w,
		Techniques:       w,
		Errors:           w,
		Schema:           w,
	}
}
