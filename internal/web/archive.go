package web

import (
	"github.com/sudoku-archive/sudoku/internal/archive"
)

// ownArchive returns cfg.Archive, or when it is nil, the archive the
// server makes for itself over parts with cfg's budgets (a server made
// without cmd/sudoku: the tests).
func ownArchive(parts Parts, cfg Config) *archive.Archive {
	if cfg.Archive != nil {
		return cfg.Archive
	}
	o := archive.Options{
		Store: parts.Puzzles, Graders: cfg.Graders, MaxNodes: cfg.MaxNodes,
		SearchSlots: cfg.SearchSlots, SearchQueueTimeout: cfg.SearchQueueTimeout,
		NoDaily: cfg.NoDaily, Log: cfg.Logger, RatingsMaxAge: cfg.RatingsMaxAge,
		// A part left out (nil) stays nil through the conversion.
		Rated: parts.Ratings, Techniques: parts.Techniques, Leveller: parts.Leveller,
	}
	return archive.New(o)
}
