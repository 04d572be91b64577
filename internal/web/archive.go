package web

import (
	"github.com/sudoku-archive/sudoku/internal/archive"
)

// ownArchive returns cfg.Archive, or when it is nil, the archive the
// server makes for itself over store with cfg's budgets (a server made
// without cmd/sudoku: the tests).
func ownArchive(store Archive, cfg Config) *archive.Archive {
	if cfg.Archive != nil {
		return cfg.Archive
	}
	rated, _ := store.(archive.RatedStore)          // nil: no players' figures
	techniques, _ := store.(archive.TechniqueStore) // nil: no technique index
	leveller, _ := store.(archive.Leveller)         // nil: no next puzzle
	return archive.New(archive.Options{
		Rated: rated, RatingsMaxAge: cfg.RatingsMaxAge, Techniques: techniques, Leveller: leveller,
		Store: store, Graders: cfg.Graders, MaxNodes: cfg.MaxNodes,
		SearchSlots: cfg.SearchSlots, SearchQueueTimeout: cfg.SearchQueueTimeout,
		NoDaily: cfg.NoDaily, Log: cfg.Logger,
	})
}
