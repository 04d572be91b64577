package web

import (
	"context"
	"fmt"

	"github.com/labstack/echo/v4"

	"github.com/sudoku-archive/sudoku/internal/record"
	"github.com/sudoku-archive/sudoku/internal/variant"
	"github.com/sudoku-archive/sudoku/templates"
)

// VariantBrowser is what the home page and /stats read of the variants
// beside the listing (the store's variantbrowse.go). It is optional: an
// archive without it (a test's fake) shows no "Recent variants" list and
// no variant table; a Whole has it, so a drifted signature breaks the
// build where AllParts is called.
type VariantBrowser interface {
	// VariantCounts returns the puzzles of each variant (short names)
	// and how many puzzles have rules at all.
	VariantCounts(ctx context.Context) (byName map[string]int64, variants int64, err error)
	// RecentVariants returns the n newest variant puzzles, newest first.
	RecentVariants(ctx context.Context, n int) ([]record.Puzzle, error)
}

// recentVariants is the home page's "Recent variants" list: none when
// the archive has no variant or does not browse them.
func (s *Server) recentVariants(c echo.Context) ([]record.Puzzle, error) {
	vb, ok := s.archive.(VariantBrowser)
	if !ok {
		return nil, nil
	}
	ps, err := vb.RecentVariants(c.Request().Context(), homeListLen)
	if err != nil {
		return nil, fmt.Errorf("list recent variants: %w", err)
	}
	return ps, nil
}

// variantCounts is /stats' variant table: classic (the total less the
// variants), then each family of variant.FamilyNames in its order, those
// with no puzzle left out; nil when the archive has no variant or does
// not count them, so the table is only shown once there are variants.
func (s *Server) variantCounts(c echo.Context, total int64) ([]templates.VariantCount, error) {
	vb, ok := s.archive.(VariantBrowser)
	if !ok {
		return nil, nil
	}
	byName, variants, err := vb.VariantCounts(c.Request().Context())
	if err != nil {
		return nil, fmt.Errorf("count variants: %w", err)
	}
	if variants == 0 {
		return nil, nil
	}
	out := []templates.VariantCount{{Name: "classic", N: max(total-variants, 0)}}
	for _, name := range variant.FamilyNames() {
		if n := byName[name]; n > 0 {
			out = append(out, templates.VariantCount{Name: name, N: n})
		}
	}
	return out, nil
}
