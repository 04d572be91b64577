package main

import (
	"github.com/sudoku-archive/sudoku/internal/store"
	"github.com/sudoku-archive/sudoku/internal/web"
)

// A *store.DB is every part of the web server (web.Parts). Said here at
// compile time: a method of the store whose signature drifts from what web
// declares breaks the build instead of taking its routes away unseen.
var (
	_ web.Archive          = (*store.DB)(nil)
	_ web.Players          = (*store.DB)(nil)
	_ web.Moderation       = (*store.DB)(nil)
	_ web.Collections      = (*store.DB)(nil)
	_ web.CollectionEditor = (*store.DB)(nil)
	_ web.Leveller         = (*store.DB)(nil)
	_ web.RatedArchive     = (*store.DB)(nil)
	_ web.TechniqueArchive = (*store.DB)(nil)
	_ web.ErrorExplainer   = (*store.DB)(nil)
	_ web.SchemaReader     = (*store.DB)(nil)
)

// webParts is what serve hands the web server: the archive db in every
// part, each named, so that every route is served.
func webParts(db *store.DB) web.Parts {
	return web.Parts{
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
