package templates

import (
	"testing"

	"github.com/sudoku-archive/sudoku/internal/record"
)

// TestSortLabels: every sort the history offers has a label (the grade's
// was blank in the "Sort by" control).
func TestSortLabels(t *testing.T) {
	for _, s := range record.Sorts {
		if SortLabels[s] == "" {
			t.Errorf("sort %q has no label", s)
		}
	}
}
